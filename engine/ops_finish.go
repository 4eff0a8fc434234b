package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/statemachine"
)

// How operations leave the stack when they end, and what the planner is
// given of a stack.

// Why a physical resource was released (releasedRecord.Why).
const (
	releaseRetained = "retained"
	releaseOrphaned = "orphaned"
)

// release records that a physical resource left its stack but stays in the
// account. One the simulated cloud no longer has is not released: a delete
// that failed after it took effect (a cleanup's, orphaning it) left
// nothing behind, and a record of it would outlive it — a later create of
// the same name would be the stack's and released at once, and an import
// could take it from the stack.
func (r *run) release(rec *store.ResourceRecord, why string) {
	if rec.PhysicalResourceId == "" {
		return
	}
	if !isCustom(rec.ResourceType) && !isNestedStack(rec.ResourceType) && r.tx.Object(rec.ResourceType, rec.PhysicalResourceId) == nil {
		return
	}
	r.tx.Put(&store.ReleasedRecord{Type: rec.ResourceType, PhysicalId: rec.PhysicalResourceId, StackId: r.st.StackId,
		LogicalId: rec.LogicalResourceId, Why: why, Time: r.tx.now()})
}

// tidyResources ends an update or an update's rollback: the resources the
// template no longer has leave the stack (deleted, retained, or — when
// their delete failed in the cleanup — orphaned, as AWS leaves them), and
// so do the retired physical resources.
func (r *run) tidyResources() error {
	switch r.op.Plan.Operation {
	case plan.OpUpdate, plan.OpUpdateRollback:
	default:
		return nil
	}
	b, err := r.template()
	if err != nil {
		return internalf("stack %s: binding its template: %w", r.st.StackName, err)
	}
	order := b.LogicalIDs()
	keep := make(map[string]bool, len(order))
	for _, id := range order {
		keep[id] = true
	}
	for _, rec := range r.tx.ResourcesOf(r.st.Num) {
		if keep[rec.LogicalResourceId] {
			// What only the template records (dependencies, policies)
			// may have changed without a step that wrote the record.
			r.refreshTemplateFields(b, rec)
			continue
		}
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
		default:
			r.release(rec, releaseOrphaned)
		}
		r.tx.DeleteResource(rec.Num, rec.LogicalResourceId)
	}
	r.dropRetired()
	r.stack().ResourceOrder = order
	return nil
}

// refreshTemplateFields brings a record's dependencies and policies in
// line with the template the stack is on.
func (r *run) refreshTemplateFields(b boundTemplate, rec *store.ResourceRecord) {
	id := rec.LogicalResourceId
	deps := b.DependsOn(id)
	dp, rp := b.DeletionPolicy(id), b.UpdateReplacePolicy(id)
	if slices.Equal(deps, rec.DependsOn) && dp == rec.DeletionPolicy && rp == rec.UpdateReplacePolicy {
		return
	}
	c := rec.Clone()
	c.DependsOn, c.DeletionPolicy, c.UpdateReplacePolicy = deps, dp, rp
	r.tx.PutResource(c)
}

// dropRetired lets go of the stack's retired physical resources: deleted
// ones are gone, retained ones released already, the others orphaned —
// but one that is its resource's current physical resource again (a
// rollback's create answered it, the cleanup left it) stays the stack's.
func (r *run) dropRetired() {
	for _, rec := range r.tx.RetiredOf(r.st.Num) {
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
		default:
			if cur := r.current(rec.LogicalResourceId); cur == nil || cur.PhysicalResourceId != rec.PhysicalResourceId {
				r.release(rec, releaseOrphaned)
			}
		}
		r.tx.DeleteRetired(rec)
	}
}

// stackDeleted ends a stack's deletion: its exports and imports go, and so
// do its change sets but those that were executed, which DescribeChangeSet
// still finds by ARN (EXECUTE_COMPLETE), as AWS's does (issue 15).
func (r *run) stackDeleted() error {
	st := r.stack()
	for _, x := range r.tx.ExportsOf(st.StackId) {
		r.tx.DeleteExport(x.Name)
	}
	r.tx.SetImports(st.StackId, nil)
	r.dropRetired()
	for _, cs := range r.tx.ChangeSetsOf(st.StackId) {
		switch {
		case cs.Id == r.op.ChangeSetId:
		case cs.ExecutionStatus == ExecutionStatusExecuteComplete || cs.ExecutionStatus == ExecutionStatusExecuteFailed:
		default:
			r.tx.Del(store.TChangeSets, cs.Key())
		}
	}
	return r.finish(true)
}

// settleChangeSet records how the execution of a change set ended.
func (e *Engine) settleChangeSet(tx *txn, st *store.StackRecord, op *store.OperationRecord) {
	if op.ChangeSetId == "" {
		return
	}
	cs := tx.ChangeSet(op.ChangeSetId)
	if cs == nil {
		return
	}
	c := cs.Clone()
	switch st.StackStatus {
	case statemachine.StackStatusCreateComplete, statemachine.StackStatusUpdateComplete, statemachine.StackStatusImportComplete:
		c.ExecutionStatus = ExecutionStatusExecuteComplete
	default:
		c.ExecutionStatus = ExecutionStatusExecuteFailed
	}
	tx.Put(c)
}

// deployed is the stack as the planner sees it: its resources in deployed
// order, with their parameters.
func (e *Engine) deployed(tx *txn, st *store.StackRecord) plan.Deployed {
	recs := tx.ResourcesOf(st.Num)
	byID := make(map[string]*store.ResourceRecord, len(recs))
	for _, rec := range recs {
		byID[rec.LogicalResourceId] = rec
	}
	d := plan.Deployed{Resources: make([]plan.DeployedResource, 0, len(recs)), Parameters: paramMap(st.Parameters)}
	add := func(rec *store.ResourceRecord) {
		dr := plan.DeployedResource{
			LogicalID: rec.LogicalResourceId, Type: rec.ResourceType, PhysicalID: rec.PhysicalResourceId,
			Status: string(rec.ResourceStatus), Properties: rec.Properties,
			CreationPolicy: rec.CreationPolicy, UpdatePolicy: rec.UpdatePolicy,
			DeletionPolicy: rec.DeletionPolicy, UpdateReplacePolicy: rec.UpdateReplacePolicy,
			DependsOn: rec.DependsOn,
		}
		if rec.Metadata != "" {
			dec := json.NewDecoder(bytes.NewReader([]byte(rec.Metadata)))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) == nil {
				dr.Metadata = v
			}
		}
		d.Resources = append(d.Resources, dr)
		delete(byID, rec.LogicalResourceId)
	}
	for _, id := range st.ResourceOrder {
		if rec := byID[id]; rec != nil {
			add(rec)
		}
	}
	var rest []string
	for id := range byID {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	for _, id := range rest {
		add(byID[id])
	}
	return d
}

// deletePlan plans a stack's deletion, with a delete for each retired
// physical resource still standing.
func (e *Engine) deletePlan(tx *txn, st *store.StackRecord, retain []string) (*plan.Plan, error) {
	p := plan.ForDelete(e.deployed(tx, st), retain)
	return e.withStaleRetired(tx, st, p, plan.PhaseDelete)
}

// withStaleRetired adds to the last phase of p (a delete or a cleanup) a
// delete of each retired physical resource that no step of p acts on:
// old physical resources left by an operation that stopped before its
// cleanup (an update that failed with rollback disabled). A copy of p is
// returned when steps are added.
func (e *Engine) withStaleRetired(tx *txn, st *store.StackRecord, p *plan.Plan, phase plan.Phase) (*plan.Plan, error) {
	targeted := map[string]bool{}
	next := 1
	for _, s := range p.Steps {
		targeted[s.LogicalID+"\x00"+s.PhysicalID] = true
		if s.NewPhysicalID != "" {
			targeted[s.LogicalID+"\x00"+s.NewPhysicalID] = true
		}
		if s.ID >= next {
			next = s.ID + 1
		}
	}
	var extra []plan.Step
	for _, rec := range tx.RetiredOf(st.Num) {
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
			continue
		}
		if targeted[rec.LogicalResourceId+"\x00"+rec.PhysicalResourceId] {
			continue
		}
		action, policy := plan.Delete, plan.PolicyDelete
		if rec.UpdateReplacePolicy == "Retain" {
			action, policy = plan.Retain, plan.PolicyRetain
		}
		extra = append(extra, plan.Step{ID: next, LogicalID: rec.LogicalResourceId, ResourceType: rec.ResourceType,
			Action: action, Phase: phase, PhysicalID: rec.PhysicalResourceId, Custom: plan.IsCustom(rec.ResourceType),
			PolicyAction: policy, DeletionPolicy: rec.DeletionPolicy, UpdateReplacePolicy: rec.UpdateReplacePolicy})
		next++
	}
	if len(extra) == 0 {
		return p, nil
	}
	c := *p
	c.Steps = append(append([]plan.Step(nil), p.Steps...), extra...)
	if err := c.Validate(); err != nil {
		return nil, internalf("stack %s: the %s plan is not valid with its stale physical resources: %w", st.StackName, p.Operation, err)
	}
	return &c, nil
}

// descriptionOf is the Description of the stack's template.
func (e *Engine) descriptionOf(st *store.StackRecord) string {
	b, err := e.currentTemplate(st)
	if err != nil {
		return st.Description
	}
	if t := b.Template(); t != nil {
		return t.Description
	}
	return ""
}

// resourceOrder merges the order of a template with what the stack has:
// the template's resources first, then the others in their old order.
// The template's own order is the binding's slice, shared by every stack
// bound to it (a session that creates stacks of one template over and
// over holds it once).
func resourceOrder(b boundTemplate, old []string) []string {
	ids := b.LogicalIDs()
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	out := ids
	for _, id := range old {
		if !seen[id] {
			seen[id] = true
			out = append(out, id) // copies: ids has no room past its length
		}
	}
	return out
}
