package engine

import (
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// The steps of an import (api_import.go): an Import reads the existing
// resource through its handler and adopts it; a Release, in the import's
// rollback, lets it go again.

// partImport is the handler Read of an Import step.
const partImport = "import"

// startImport starts an Import: IMPORT_IN_PROGRESS "Resource import
// started.", then the handler's Read of the physical resource the
// ResourcesToImport named, with the template's properties and that
// identifier as the model.
func (r *run) startImport(row *store.StepRecord, s *plan.Step) error {
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	cur := r.current(s.LogicalID)
	if cur != nil && cur.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
		r.tx.DeleteResource(cur.Num, cur.LogicalResourceId)
		cur = nil
	}
	rec, err := r.fireResource(cur, s.LogicalID, statemachine.ResourceImport)
	if err != nil {
		return err
	}
	rec.PhysicalResourceId, rec.Model, rec.Properties = s.PhysicalID, nil, nil
	r.applyTemplate(rec, s)
	r.event(rec, reasonImportStarted, props)
	r.put(rec)
	row.Props, row.PhysicalID = props, s.PhysicalID
	if isNestedStack(s.ResourceType) {
		if reason != "" {
			return r.importFailedAt(row, rec, reason)
		}
		return r.importNested(row, s, rec, props)
	}
	var desired map[string]any
	if reason == "" {
		desired, reason = r.handlerState(s.ResourceType, props)
	}
	if reason != "" {
		return r.importFailedAt(row, rec, reason)
	}
	p, err := r.provider(s.ResourceType)
	if err != nil {
		return r.importFailedAt(row, rec, "Resource type "+s.ResourceType+" has no handler: "+err.Error())
	}
	row.Desired = withImportIdentifier(p, desired, s.PhysicalID)
	r.launch(row, s, partImport, r.timeoutOf(s.ResourceType, resources.ActionRead, props))
	return nil
}

// withImportIdentifier lays a physical id (a primary identifier's values
// joined with "|") over a model, as the identifier's properties.
func withImportIdentifier(p resources.Provider, model map[string]any, physicalID string) map[string]any {
	s := p.Schema()
	if s == nil {
		return model
	}
	out := resources.CopyModel(model)
	if out == nil {
		out = map[string]any{}
	}
	parts := strings.Split(physicalID, "|")
	if len(parts) != len(s.PrimaryIdentifier) {
		return out
	}
	for i, ptr := range s.PrimaryIdentifier {
		_ = resources.Set(out, ptr, parts[i])
	}
	return out
}

// importSucceeded ends an Import whose Read found the resource:
// IMPORT_COMPLETE "Resource import completed.", the record holding the
// resource's model, the physical resource the stack's (no longer released).
func (r *run) importSucceeded(row *store.StepRecord, s *plan.Step, model map[string]any) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was imported", r.st.StackName, s.LogicalID)
	}
	c, err := r.fireResource(rec, s.LogicalID, statemachine.ResourceImportSucceeded)
	if err != nil {
		return err
	}
	c.Properties, c.Model = row.Props, model
	r.event(c, reasonImportCompleted, row.Props)
	r.put(c)
	r.adopt(s.ResourceType, row.PhysicalID, s.LogicalID)
	return r.succeed(row)
}

// adopt makes a physical resource the stack's: no longer released, made
// (as the simulated cloud records it) for this stack's logical resource.
func (r *run) adopt(typeName, physicalID, logicalID string) {
	if rel := r.tx.Released(typeName, physicalID); rel != nil {
		r.tx.Del(store.TReleased, rel.Key())
	}
	if o := r.tx.Object(typeName, physicalID); o != nil && (o.StackID != r.st.StackId || o.LogicalID != logicalID) {
		c := o.Clone()
		c.StackID, c.LogicalID = r.st.StackId, logicalID
		r.tx.PutObject(c)
	}
}

// importFailedAt fails an Import with reason: IMPORT_FAILED.
func (r *run) importFailedAt(row *store.StepRecord, rec *store.ResourceRecord, reason string) error {
	if _, err := r.moveTo(rec, rec.LogicalResourceId, statemachine.ResourceImportFailed, reason, row.Props); err != nil {
		return err
	}
	return r.fail(row, "import")
}

// startRelease runs a Release of the import's rollback: the resource
// leaves the stack (IMPORT_ROLLBACK_IN_PROGRESS, IMPORT_ROLLBACK_COMPLETE)
// and, when it had been adopted, is released again: it stays in the
// account. Its record goes; its events stay.
func (r *run) startRelease(row *store.StepRecord, s *plan.Step) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return r.succeed(row)
	}
	switch rec.ResourceStatus {
	case statemachine.ResourceStatusImportInProgress:
		// Cut short by a sibling's failure before its Read answered.
		var err error
		if rec, err = r.moveTo(rec, s.LogicalID, statemachine.ResourceImportFailed, reasonImportCancelled, rec.Properties); err != nil {
			return err
		}
	case statemachine.ResourceStatusImportComplete, statemachine.ResourceStatusImportFailed:
	default:
		return internalf("stack %s: %s is %s, which an import's rollback cannot release", r.st.StackName, s.LogicalID, rec.ResourceStatus)
	}
	adopted := rec.ResourceStatus == statemachine.ResourceStatusImportComplete
	c, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceRollback, "", rec.Properties)
	if err != nil {
		return err
	}
	if c, err = r.moveTo(c, s.LogicalID, statemachine.ResourceRollbackSucceeded, "", rec.Properties); err != nil {
		return err
	}
	switch {
	case adopted && isNestedStack(s.ResourceType):
		if err := r.releaseNested(c); err != nil {
			return err
		}
	case adopted:
		r.release(c, releaseRetained)
	}
	r.tx.DeleteResource(c.Num, c.LogicalResourceId)
	return r.succeed(row)
}

// endImport ends the import phase: every resource imported gets the
// stack's tags (UPDATE_IN_PROGRESS "Apply stack-level tags to imported
// resource if applicable.", UPDATE_COMPLETE; stacksim calls no handler for
// it) and the stack is IMPORT_COMPLETE; or a resource failed and the import
// rolls back.
func (r *run) endImport(failed bool) error {
	if failed {
		rb, err := plan.ImportRollback(r.op.Plan, r.journal())
		if err != nil {
			return internalf("stack %s: planning the rollback of the import: %w", r.st.StackName, err)
		}
		if err := r.fireStack(statemachine.StackRollbackBegun, r.failureReason("")); err != nil {
			return err
		}
		if r.op.Seq > 1 {
			// An existing stack goes back to its template; one the
			// import made keeps the template it was made with.
			r.swapTemplates()
		}
		r.switchPlan(rb)
		return r.beginPhase()
	}
	for i := range r.op.Plan.Steps {
		s := &r.op.Plan.Steps[i]
		rec := r.current(s.LogicalID)
		if rec == nil || rec.ResourceStatus != statemachine.ResourceStatusImportComplete {
			continue
		}
		c, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdate, reasonImportTags, rec.Properties)
		if err != nil {
			return err
		}
		if _, err := r.moveTo(c, s.LogicalID, statemachine.ResourceUpdateSucceeded, "", rec.Properties); err != nil {
			return err
		}
	}
	if err := r.fireStack(statemachine.StackImportSucceeded, ""); err != nil {
		return err
	}
	return r.finish(true)
}

// endImportRollback ends the import's rollback: IMPORT_ROLLBACK_COMPLETE.
func (r *run) endImportRollback(failed bool) error {
	if failed {
		if err := r.fireStack(statemachine.StackRollbackFailed, r.failureReason("")); err != nil {
			return err
		}
		return r.finish(false)
	}
	if err := r.fireStack(statemachine.StackRollbackSucceeded, ""); err != nil {
		return err
	}
	return r.finish(false)
}
