package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Nested stacks in updates and their rollbacks (see nested.go for the
// create and delete).
//
// A parent's update updates a child whose template, parameters or tags
// change; a child where nothing changes is not updated, and its resource
// shows no event ("CloudFormation updates the resources of modified nested
// stacks, but doesn't update the resources of unmodified nested stacks":
// AWS::CloudFormation::Stack's documentation). The parent's resource is
// UPDATE_COMPLETE once the child's update succeeded, when the child enters
// UPDATE_COMPLETE_CLEANUP_IN_PROGRESS; the child's cleanup then waits (its
// operation is Held) until the parent's own cleanup, or until the parent
// comes to rest ("CloudFormation paused the resource cleanup because a
// sibling stack of a nested stack fails to update or roll back": AWS
// Knowledge Center, cloudformation-stack-cleanup-stuck), and the parent's
// cleanup ends once its children's have. A child whose update fails rolls
// back by itself; the parent's resource fails as soon as it does:
// "Embedded stack ARN was not successfully updated. Currently in
// UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s)
// failed to update: [X]." (recorded). The parent's rollback then, for each
// nested stack it rolls back: waits for a child rolling back by itself;
// rolls back a child whose update had succeeded (UPDATE_COMPLETE_CLEANUP_
// IN_PROGRESS → UPDATE_ROLLBACK_IN_PROGRESS, the parent_rollback event);
// continues a child whose rollback failed (ContinueUpdateRollback of the
// root, with the child's resources it names as NESTED.LOGICALID); or
// updates the child back to the previous template.

// reasonParentRollback is the reason of a child's UPDATE_ROLLBACK_IN_PROGRESS
// when its parent rolls it back. UNVERIFIED: no recorded event was found.
const reasonParentRollback = "Rollback requested by the parent stack."

// childRun is a run of a child's operation, from the parent's task.
func (r *run) childRun(child *store.StackRecord) *run {
	op := r.tx.Operation(child.OperationId)
	cr := &run{e: r.e, ctx: r.ctx, tx: r.tx, st: child, op: op}
	if op != nil && op.Plan != nil {
		cr.idx = r.e.planIndexOf(op.Plan)
	}
	return cr
}

// held tells whether a child's operation waits for its parent to release
// its cleanup.
func (r *run) held(child *store.StackRecord) bool {
	if child.OperationId == "" {
		return false
	}
	op := r.tx.Operation(child.OperationId)
	return op != nil && op.InMotion && op.Held
}

// childUpdate is the update a nested stack's properties ask of its child:
// its template read again from TemplateURL (its content may have changed),
// its parameters, tags and notification ARNs; the parent's capabilities
// and tags. It returns a nil stack when nothing changes, a reason when
// the update is refused.
func (e *Engine) childUpdate(tx *txn, caps []string, parentTags []Tag, child *store.StackRecord, state map[string]any, how prepareHow) (*store.StackRecord, *plan.Plan, childInput, string, error) {
	in, reason := childInputOf(state, parentTags)
	if reason != "" {
		return nil, nil, in, reason, nil
	}
	file, body, err := e.readTemplateURL(in.TemplateURL)
	file = childTemplateName(in.TemplateURL, file)
	if err == nil && len(body) == 0 {
		err = ValidationError("Template format error: At least one Resources member must be defined.")
	}
	if err != nil {
		return nil, nil, in, failReason(err), nil
	}
	u := updateRequest{Sub: submission{File: file, Original: string(body)}, How: how, Params: in.Parameters,
		Caps: caps, Tags: in.Tags, NotificationARNs: in.NotificationARNs}
	if u.Tags == nil {
		u.Tags = []Tag{}
	}
	c, p, err := e.prepareUpdate(tx, child, u, false)
	if err != nil {
		return nil, nil, in, failReason(err), nil
	}
	c.TimeoutInMinutes = in.TimeoutInMinutes
	if c.TimeoutInMinutes == child.TimeoutInMinutes && !e.stackChanges(tx, child, c, p, how) {
		return nil, nil, in, "", nil
	}
	return c, p, in, "", nil
}

// stackChanges tells whether an update of st (to c, by plan p) changes
// anything. A nested stack is planned as updated whenever its parent is
// (its template may have changed), so the plan alone cannot say: each of
// its nested stacks is asked in turn, and the resources the plan updates
// only because they read a nested stack's outputs are decided again once
// it is known that the nested stack does not change.
func (e *Engine) stackChanges(tx *txn, st, c *store.StackRecord, p *plan.Plan, how prepareHow) bool {
	if !sameTags(c.Tags, st.Tags) {
		return true
	}
	b, err := e.currentTemplate(c)
	if err != nil {
		return true
	}
	live := changingResolver{liveResolver: liveResolver{e: e, tx: tx, st: st, unknown: true}, changing: map[string]plan.Replacement{}}
	for _, s := range p.Steps {
		if s.Action != plan.NoOp {
			live.changing[s.LogicalID] = s.Replacement
		}
	}
	for _, s := range p.Steps {
		if s.Action == plan.NoOp {
			continue
		}
		if s.Action != plan.Update || s.Phase != plan.PhaseUpdate || len(s.Scope) != 1 || s.Scope[0] != plan.ScopeProperties {
			return true
		}
		rec := tx.Resource(st.Num, s.LogicalID)
		if rec == nil {
			return true
		}
		props, err := b.Properties(s.LogicalID, live)
		if err != nil || !template.IsKnown(props) {
			return true
		}
		if isNestedStack(s.ResourceType) {
			child := tx.StackByID(rec.PhysicalResourceId)
			if child == nil {
				return true
			}
			gc, _, _, reason, err := e.childUpdate(tx, c.Capabilities, c.Tags, child, resources.StringifyModel(props), how)
			if err != nil || reason != "" || gc != nil {
				return true
			}
		} else if dec := plan.Decide(e.planSchema(s.ResourceType), s.Custom, rec.Properties, props); dec.Action != plan.NoOp {
			return true
		}
		delete(live.changing, s.LogicalID) // unchanged: its values are known
	}
	return e.outputsChange(tx, b, live, st)
}

// childUpdate is the update of a step's child (e.childUpdate).
func (r *run) childUpdate(child *store.StackRecord, state map[string]any) (*store.StackRecord, *plan.Plan, string, error) {
	c, p, _, reason, err := r.e.childUpdate(r.tx, r.st.Capabilities, r.st.Tags, child, state, prepareHow{})
	return c, p, reason, err
}

// childChanges tells whether the update of a nested stack's step changes
// anything in its child (a refusal counts as a change: the step fails
// with it when it starts the child's update).
func (r *run) childChanges(cur *store.ResourceRecord, state map[string]any) bool {
	child := r.tx.StackByID(cur.PhysicalResourceId)
	if child == nil || r.busy(child) || r.childChangeSet(child) != nil {
		return true
	}
	c, _, reason, err := r.childUpdate(child, state)
	return err != nil || reason != "" || c != nil
}

// startChildUpdate starts the update of a step's child; done is true when
// there is nothing to update.
func (r *run) startChildUpdate(row *store.StepRecord, child *store.StackRecord) (done bool, reason string, err error) {
	if err := statemachine.CheckOperation(statemachine.UpdateStack, child.Info()); err != nil {
		// The child is not where an update can start (deleted directly,
		// say): the resource fails with the refusal.
		return false, failReason(apiError(err)), nil
	}
	if r.phase() == plan.PhaseUpdate {
		if ncs := r.childChangeSet(child); ncs != nil {
			reason, err := r.startChildChangeSet(row, child, ncs)
			return false, reason, err
		}
	}
	c, p, reason, err := r.childUpdate(child, row.Desired)
	if err != nil || reason != "" {
		return false, reason, err
	}
	if c == nil {
		return true, "", nil
	}
	if p, err = r.childImports(c, p); err != nil {
		return false, "", err
	}
	if child.OperationId != "" {
		r.e.closeOperation(r.tx, child)
		c.OperationId = ""
	}
	op, err := r.e.startUpdate(r.tx, c, p, r.op.ClientRequestToken, r.stack().ClientRequestToken, KindUpdateStack, Extensions{Faults: r.op.Faults})
	if err != nil {
		return false, "", err
	}
	op.ForParent = true
	op.ImportExisting = r.op.ImportExisting
	r.inheritRollback(op)
	if err := r.e.beginOperation(r.tx, c, op); err != nil {
		return false, "", err
	}
	r.e.obsoleteChangeSets(r.tx, c.StackId, "")
	row.ChildStarted = true
	r.putRow(row)
	return false, "", nil
}

// rollbackChild rolls back a child whose update succeeded and whose
// cleanup waits (parent_rollback).
func (r *run) rollbackChild(row *store.StepRecord, child *store.StackRecord) error {
	cr := r.childRun(child)
	cr.oper().Held = false
	if err := cr.rollbackUpdate(statemachine.StackParentRollback, reasonParentRollback); err != nil {
		return err
	}
	if err := cr.flush(); err != nil {
		return err
	}
	row.ChildStarted = true
	r.putRow(row)
	return nil
}

// continueChild continues the failed rollback of a step's child, with the
// ResourcesToSkip the root's ContinueUpdateRollback named in it.
func (r *run) continueChild(row *store.StepRecord, s *plan.Step, child *store.StackRecord) error {
	var own, nested []string
	prefix := s.LogicalID + "."
	for _, name := range r.op.NestedSkips {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		if strings.Contains(rest, ".") {
			nested = append(nested, rest)
		} else {
			own = append(own, rest)
		}
	}
	if err := r.e.continueRollback(r.ctx, r.tx, child, own, nested, r.op.ClientRequestToken, r.stack().ClientRequestToken, "", Extensions{Faults: r.op.Faults}); err != nil {
		var api *APIError
		if errors.As(err, &api) {
			return r.partFailed(row, s, api.Message)
		}
		return err
	}
	c := r.tx.StackByID(child.StackId)
	if op := r.tx.Operation(c.OperationId); op != nil && !op.ForParent {
		oc := op.Clone()
		oc.ForParent = true
		r.tx.Put(oc)
	}
	row.ChildStarted = true
	r.putRow(row)
	return nil
}

// nestedUpdate is the update part of a nested stack's step (forward, or
// in a rollback).
func (r *run) nestedUpdate(row *store.StepRecord, s *plan.Step, child *store.StackRecord) error {
	if child == nil {
		return r.partFailed(row, s, "Embedded stack "+row.PhysicalID+" does not exist")
	}
	rollback := r.phase() == plan.PhaseUpdateRollback
	if !row.ChildStarted {
		switch {
		case r.busy(child):
			return nil // its own rollback (or cancelled update) runs: wait
		case rollback && r.held(child) && child.StackStatus == statemachine.StackStatusUpdateCompleteCleanupInProgress:
			return r.rollbackChild(row, child)
		case rollback && (r.held(child) || child.StackStatus == statemachine.StackStatusUpdateRollbackComplete):
			// Rolled back by itself already.
			return r.nestedUpdated(row, s, child)
		case rollback && child.StackStatus == statemachine.StackStatusUpdateRollbackFailed:
			if len(r.op.NestedSkips) == 0 && r.op.Kind != KindContinueUpdateRollback {
				return r.partFailed(row, s, embeddedFailure(child, "updated"))
			}
			return r.continueChild(row, s, child)
		}
		done, reason, err := r.startChildUpdate(row, child)
		switch {
		case err != nil:
			return err
		case reason != "":
			return r.partFailed(row, s, reason)
		case done:
			return r.nestedUpdated(row, s, child)
		}
		return nil
	}
	switch st := child.StackStatus; {
	case st == statemachine.StackStatusUpdateInProgress || (rollback && st == statemachine.StackStatusUpdateRollbackInProgress):
		return nil
	case st == statemachine.StackStatusUpdateCompleteCleanupInProgress || st == statemachine.StackStatusUpdateComplete:
		return r.nestedUpdated(row, s, child)
	case rollback && (st == statemachine.StackStatusUpdateRollbackCompleteCleanupInProgress || st == statemachine.StackStatusUpdateRollbackComplete):
		return r.nestedUpdated(row, s, child)
	}
	return r.partFailed(row, s, embeddedFailure(child, "updated"))
}

// nestedUpdated ends the update of a nested stack's resource.
func (r *run) nestedUpdated(row *store.StepRecord, s *plan.Step, child *store.StackRecord) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was updated", r.st.StackName, s.LogicalID)
	}
	c, err := r.fireResource(rec, s.LogicalID, statemachine.ResourceUpdateSucceeded)
	if err != nil {
		return err
	}
	c.Properties, c.Model = row.Props, nestedModel(row.Props, child.StackId)
	c.RollbackFailed, c.Skipped = false, false
	r.event(c, "", row.Props)
	r.put(c)
	return r.succeed(row)
}

// parentInMotion tells whether the stack's parent has an operation in
// motion (which will release the stack's cleanup).
func (r *run) parentInMotion() bool {
	if r.st.ParentId == "" {
		return false
	}
	parent := r.tx.StackByID(r.st.ParentId)
	if parent == nil || parent.OperationId == "" {
		return false
	}
	op := r.tx.Operation(parent.OperationId)
	return op != nil && op.InMotion
}

// children are the stack's nested stacks that are its own.
func (r *run) children() []*store.StackRecord {
	var out []*store.StackRecord
	for _, rec := range r.tx.ResourcesOf(r.st.Num) {
		if !isNestedStack(rec.ResourceType) || rec.PhysicalResourceId == "" {
			continue
		}
		child := r.tx.StackByID(rec.PhysicalResourceId)
		if child != nil && child.ParentId == r.st.StackId {
			out = append(out, child)
		}
	}
	return out
}

// releaseChildren lets the children whose cleanup waits go on with it.
// A child whose operation has not reached its cleanup yet (one rolling
// back by itself, its step of the parent's cancelled) is released too:
// its cleanup will not wait for the parent, whose cleanup has begun or
// which is at rest (else it would wait for a later operation of the
// parent that never releases it, or be held while that one updates it).
func (r *run) releaseChildren() {
	for _, child := range r.children() {
		if r.held(child) {
			r.tx.Schedule(&Task{Kind: taskNestedRelease, StackId: child.StackId, OperationId: child.OperationId})
		} else if op := r.tx.Operation(child.OperationId); child.OperationId != "" && op != nil && op.InMotion && op.ForParent {
			oc := op.Clone()
			oc.ForParent = false
			r.tx.Put(oc)
		}
	}
}

// childrenBusy tells whether a child's operation is in motion (its
// cleanup, which the parent's cleanup waits for).
func (r *run) childrenBusy() bool {
	for _, child := range r.children() {
		if child.OperationId == "" {
			continue
		}
		if op := r.tx.Operation(child.OperationId); op != nil && op.InMotion {
			return true
		}
	}
	return false
}

// taskNestedRelease begins the cleanup a child's operation held.
const taskNestedRelease TaskKind = "nested-release"

func (e *Engine) runNestedRelease(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok || !r.op.Held {
		return err
	}
	r.oper().Held = false
	if err := r.beginPhase(); err != nil {
		return err
	}
	return r.flush()
}

// splitSkips reads ContinueUpdateRollback's ResourcesToSkip: the stack's
// own resources, and those of its nested stacks (NESTED.LOGICALID, AWS's
// form: "To skip resources that are part of nested stacks, use the
// following format: NestedStackName.ResourceLogicalID", API reference),
// each checked to be UPDATE_FAILED because its rollback failed; bad are
// those that are not.
func (e *Engine) splitSkips(tx *txn, st *store.StackRecord, skip []string) (own, nested, bad []string) {
	for _, id := range skip {
		if !skippable(tx, st, id) {
			bad = append(bad, id)
		} else if strings.Contains(id, ".") {
			nested = append(nested, id)
		} else {
			own = append(own, id)
		}
	}
	return own, nested, bad
}

// skippable tells whether a resource, perhaps of a nested stack
// (NESTED.LOGICALID, to any depth), may be skipped.
func skippable(tx *txn, st *store.StackRecord, id string) bool {
	head, rest, nested := strings.Cut(id, ".")
	rec := tx.Resource(st.Num, head)
	if rec == nil {
		return false
	}
	if !nested {
		return rec.ResourceStatus == statemachine.ResourceStatusUpdateFailed && rec.RollbackFailed
	}
	if !isNestedStack(rec.ResourceType) {
		return false
	}
	child := tx.StackByID(rec.PhysicalResourceId)
	return child != nil && child.StackStatus == statemachine.StackStatusUpdateRollbackFailed && skippable(tx, child, rest)
}
