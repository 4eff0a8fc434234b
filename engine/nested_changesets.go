package engine

import (
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// Change sets of nested stacks (CreateChangeSet with IncludeNestedStacks).
// "With change sets for nested stacks you can preview the changes to your
// application and infrastructure resources across the entire nested stack
// hierarchy" (AWS User Guide, change-sets-for-nested-stacks): an UPDATE
// change set of a stack with nested stacks gets a change set of its own
// for each nested stack whose update changes something, to any depth,
// each with ParentChangeSetId and RootChangeSetId; the parent's change of
// the nested stack's resource names it in ChangeSetId. A nested stack
// where nothing changes gets none, and its resource is not among the
// parent's changes (it would not be updated). Only the root's change set
// is executed: its nested stacks' updates then run what their change sets
// planned, and each nested change set goes EXECUTE_IN_PROGRESS,
// EXECUTE_COMPLETE or EXECUTE_FAILED with its stack. Deleting the root's
// change set deletes the nested ones.
//
// stacksim's choices (UNVERIFIED against AWS): a nested stack being
// created (Action Add) gets no change set, since it does not exist yet; a
// nested stack whose properties are not known when the change set is made
// (they read an attribute the update changes) gets none either, and is
// updated from its template when the change set runs; a nested change set
// is named after its parent's and the nested stack's logical id
// (PARENTNAME-LOGICALID).

// nestedChangeSets makes the change sets of the nested stacks of cs, the
// change set of stack st whose update leaves it as desired.
func (e *Engine) nestedChangeSets(tx *txn, st, desired *store.StackRecord, cs *store.ChangeSetRecord, root string) error {
	b, err := e.currentTemplate(desired)
	if err != nil {
		return internalf("stack %s: binding the change set's template: %w", st.StackName, err)
	}
	live := changingResolver{liveResolver: liveResolver{e: e, tx: tx, st: st, unknown: true}, changing: map[string]plan.Replacement{}}
	for _, ch := range cs.Changes {
		if rc := ch.ResourceChange; rc != nil {
			live.changing[rc.LogicalResourceID] = rc.Replacement
			if rc.Action == "Add" {
				live.changing[rc.LogicalResourceID] = plan.ReplacementTrue
			}
		}
	}
	kept := make([]plan.Change, 0, len(cs.Changes))
	for _, ch := range cs.Changes {
		rc := ch.ResourceChange
		if rc == nil || rc.ResourceType != store.StackResourceType || rc.Action != "Modify" {
			kept = append(kept, ch)
			continue
		}
		rec := tx.Resource(st.Num, rc.LogicalResourceID)
		var child *store.StackRecord
		if rec != nil {
			child = tx.StackByID(rec.PhysicalResourceId)
		}
		props, perr := b.Properties(rc.LogicalResourceID, live)
		if child == nil || perr != nil || !template.IsKnown(props) {
			kept = append(kept, ch)
			continue
		}
		c, p, in, reason, err := e.childUpdate(tx, cs.Capabilities, desired.Tags, child, resources.StringifyModel(props), prepareHow{changeSet: true})
		if err != nil {
			return err
		}
		if reason != "" {
			kept = append(kept, ch) // the execution fails the resource with it
			continue
		}
		if c == nil {
			continue // nothing changes in it: not updated
		}
		if cs.ImportExisting {
			cb, err := e.currentTemplate(c)
			if err != nil {
				return err
			}
			p = plan.WithImports(p, e.existingImports(tx, cb, p))
		}
		name := cs.Name + "-" + rc.LogicalResourceID
		ncs := &store.ChangeSetRecord{Name: name, Type: ChangeSetTypeUpdate, CreationTime: tx.now(), Description: cs.Description,
			Given: in.Parameters, Capabilities: cs.Capabilities, Tags: in.Tags, NotificationARNs: in.NotificationARNs,
			Status: ChangeSetStatusCreateComplete, ExecutionStatus: ExecutionStatusAvailable,
			TemplateBody: c.TemplateBody, ProcessedTemplateBody: c.ProcessedTemplateBody, TemplateFile: c.TemplateFile,
			Parameters: c.Parameters, Changes: plan.Changes(p), IncludeNestedStacks: true,
			ParentChangeSetId: cs.Id, RootChangeSetId: root, StackId: child.StackId, StackName: child.StackName,
			ImportExisting: cs.ImportExisting}
		ncs.Id = tx.newChangeSetID(child.StackName, name)
		tx.Meta.IDs++
		ncs.Seq = tx.Meta.IDs
		if err := e.nestedChangeSets(tx, child, c, ncs, root); err != nil {
			return err
		}
		tx.Put(ncs)
		nc := *rc
		nc.ChangeSetID = ncs.Id
		kept = append(kept, plan.Change{Type: ch.Type, ResourceChange: &nc})
	}
	cs.Changes = kept
	return nil
}

// nestedChangeSetsOf are the change sets a change set's changes name, to
// any depth.
func (tx *txn) nestedChangeSetsOf(cs *store.ChangeSetRecord) []*store.ChangeSetRecord {
	var out []*store.ChangeSetRecord
	for _, ch := range cs.Changes {
		if ch.ResourceChange == nil || ch.ResourceChange.ChangeSetID == "" {
			continue
		}
		if n := tx.ChangeSet(ch.ResourceChange.ChangeSetID); n != nil {
			out = append(out, n)
			out = append(out, tx.nestedChangeSetsOf(n)...)
		}
	}
	return out
}

// childChangeSet is the change set a step's child runs in the change set
// the running operation executes (nil when there is none).
func (r *run) childChangeSet(child *store.StackRecord) *store.ChangeSetRecord {
	if r.op.ChangeSetId == "" {
		return nil
	}
	for _, cs := range r.tx.ChangeSetsOf(child.StackId) {
		if cs.ParentChangeSetId == r.op.ChangeSetId && cs.ExecutionStatus == ExecutionStatusAvailable {
			return cs
		}
	}
	return nil
}

// startChildChangeSet starts the update of a step's child that its change
// set planned.
func (r *run) startChildChangeSet(row *store.StepRecord, child *store.StackRecord, ncs *store.ChangeSetRecord) (string, error) {
	u := updateRequest{Sub: csSubmission(ncs), How: prepareHow{processed: true, changeSet: true, ssm: storedSSM(ncs.Parameters)},
		Params: ncs.Given, Caps: ncs.Capabilities, Tags: ncs.Tags, NotificationARNs: ncs.NotificationARNs}
	if u.Tags == nil {
		u.Tags = []Tag{}
	}
	c, p, err := r.e.prepareUpdate(r.tx, child, u, false)
	if err != nil {
		return failReason(err), nil
	}
	if p, err = r.childImports(c, p); err != nil {
		return "", err
	}
	if child.OperationId != "" {
		r.e.closeOperation(r.tx, child)
		c.OperationId = ""
	}
	op, err := r.e.startUpdate(r.tx, c, p, r.op.ClientRequestToken, r.stack().ClientRequestToken, KindExecuteChangeSet, Extensions{Faults: r.op.Faults})
	if err != nil {
		return "", err
	}
	op.ForParent = true
	r.inheritRollback(op)
	op.ChangeSetId = ncs.Id
	c.ChangeSetId = ncs.Id
	x := ncs.Clone()
	x.ExecutionStatus = ExecutionStatusExecuteInProgress
	r.tx.Put(x)
	r.e.obsoleteChangeSets(r.tx, c.StackId, ncs.Id)
	if err := r.e.beginOperation(r.tx, c, op); err != nil {
		return "", err
	}
	row.ChildStarted = true
	r.putRow(row)
	return "", nil
}

// changingResolver answers as the planner does for the resources a change
// set changes: Fn::GetAtt of one is not known yet, nor Ref of one that is
// added or replaced.
type changingResolver struct {
	liveResolver
	changing map[string]plan.Replacement
}

func (c changingResolver) Ref(id string) (any, error) {
	if r, ok := c.changing[id]; ok && r != plan.ReplacementFalse {
		return template.Unknown{LogicalID: id}, nil
	}
	return c.liveResolver.Ref(id)
}

func (c changingResolver) GetAtt(id, attribute string) (any, error) {
	if _, ok := c.changing[id]; ok {
		return template.Unknown{LogicalID: id, Attribute: attribute}, nil
	}
	return c.liveResolver.GetAtt(id, attribute)
}
