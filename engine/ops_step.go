package engine

import (
	"encoding/json"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Steps: how each action of a plan starts, and how it ends. A step that
// calls a handler is launched (an invoke task, ops_invoke.go); the others
// end at once, in the task that starts them.

// The parts of an action in flight (store.StepRecord.Part).
const (
	partCreate    = "create"
	partRead      = "read"
	partUpdate    = "update"
	partDelete    = "delete"
	partDeleteOld = "delete-old"
)

// Resource reasons (BEHAVIOUR.md §4).
const (
	reasonInitiated       = "Resource creation Initiated"
	reasonReplacing       = "Requested update requires the creation of a new physical resource; hence creating one."
	reasonCreateCancelled = "Resource creation cancelled"
	reasonUpdateCancelled = "Resource update cancelled"
	// UNVERIFIED: the reason of the UPDATE_COMPLETE of a resource named in
	// ContinueUpdateRollback's ResourcesToSkip; no recorded event was found.
	// Searched (issue 15): the code corpus (LocalStack's *.snapshot.json and recorded event logs) and the docs and issues corpora for
	// "skipped during continue update rollback" and ResourcesToSkip events.
	reasonSkipped = "Resource skipped during continue update rollback"
)

// newRow is the row of a step that starts.
func (r *run) newRow(s *plan.Step) *store.StepRecord {
	return &store.StepRecord{
		OperationId: r.op.Id, Index: uint32(s.ID), LogicalId: s.LogicalID,
		State: store.StepRunning, Action: s.Action,
		Entry: plan.Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: plan.InFlight},
		PK:    store.StepKey(r.op.Id, uint32(s.ID)),
	}
}

// startStep starts one step.
func (r *run) startStep(id int) error {
	s := r.step(id)
	if s == nil {
		return internalf("operation %s: step %d is not in its plan", r.op.Id, id)
	}
	row := r.newRow(s)
	switch s.Action {
	case plan.NoOp:
		return r.succeed(row)
	case plan.Skip:
		return r.startSkip(row, s)
	case plan.Delete, plan.Retain, plan.Snapshot, plan.Forget:
		return r.startRemove(row, s)
	case plan.Restore:
		return r.startRestore(row, s)
	case plan.Create:
		if r.phase() == plan.PhaseUpdateRollback {
			return r.startReplace(row, s, plan.Create)
		}
		return r.startCreate(row, s)
	case plan.Update:
		return r.startUpdate(row, s)
	case plan.CreateThenDelete, plan.DeleteThenCreate:
		return r.startReplace(row, s, s.Action)
	case plan.Import:
		return r.startImport(row, s)
	case plan.Release:
		return r.startRelease(row, s)
	}
	return internalf("operation %s: step %d (%s) has action %s, which the engine cannot run", r.op.Id, id, s.LogicalID, s.Action)
}

// --- records

// current returns the resource's current record (nil when it has none).
func (r *run) current(logicalID string) *store.ResourceRecord {
	return r.tx.Resource(r.st.Num, logicalID)
}

// fireResource returns a copy of rec moved by ev (an illegal transition
// is an engine bug). A nil rec is a resource that does not exist yet.
func (r *run) fireResource(rec *store.ResourceRecord, logicalID string, ev statemachine.ResourceEvent) (*store.ResourceRecord, error) {
	from := statemachine.ResourceStatus(statemachine.NotExist)
	if rec != nil {
		from = rec.ResourceStatus
	}
	entity := logicalID
	if rec != nil && rec.PhysicalResourceId != "" {
		entity += " (" + rec.PhysicalResourceId + ")"
	}
	to, err := statemachine.FireResource(entity, from, ev)
	if err != nil {
		return nil, internalf("stack %s: %w", r.st.StackName, err)
	}
	var c *store.ResourceRecord
	if rec == nil {
		c = &store.ResourceRecord{Num: r.st.Num, StackId: r.st.StackId, LogicalResourceId: logicalID}
	} else {
		c = rec.Clone()
	}
	c.ResourceStatus = to
	c.LastUpdatedTimestamp = r.tx.now()
	return c, nil
}

// put writes a record back where it lives (current or retired).
func (r *run) put(rec *store.ResourceRecord) {
	if rec.Retired != "" {
		r.tx.PutRetired(rec)
	} else {
		r.tx.PutResource(rec)
	}
}

// event writes a resource event for rec's status now.
func (r *run) event(rec *store.ResourceRecord, reason string, props map[string]any) {
	rec.ResourceStatusReason = reason
	r.tx.resourceEvent(r.st, resourceEvent{LogicalID: rec.LogicalResourceId, PhysicalID: rec.PhysicalResourceId,
		Type: rec.ResourceType, Status: rec.ResourceStatus, Reason: reason, Properties: props})
}

// moveTo fires ev on rec, writes the event and the record, and returns the
// new record.
func (r *run) moveTo(rec *store.ResourceRecord, logicalID string, ev statemachine.ResourceEvent, reason string, props map[string]any) (*store.ResourceRecord, error) {
	c, err := r.fireResource(rec, logicalID, ev)
	if err != nil {
		return nil, err
	}
	r.event(c, reason, props)
	r.put(c)
	return c, nil
}

// applyTemplate copies what the template says of a resource into its
// record: type, dependencies, policies, Metadata, CreationPolicy and
// UpdatePolicy.
func (r *run) applyTemplate(rec *store.ResourceRecord, s *plan.Step) {
	rec.ResourceType = s.ResourceType
	b, err := r.template()
	if err != nil || !b.Enabled(s.LogicalID) {
		return
	}
	rec.DependsOn = b.DependsOn(s.LogicalID)
	rec.DeletionPolicy = b.DeletionPolicy(s.LogicalID)
	rec.UpdateReplacePolicy = b.UpdateReplacePolicy(s.LogicalID)
	rec.Metadata, rec.CreationPolicy, rec.UpdatePolicy = "", nil, nil
	var live template.Resolver = r.live(true) // boxed once, not per attribute
	if v, err := b.ResourceAttribute(s.LogicalID, "Metadata", live); err == nil && v != nil && template.IsKnown(v) {
		if text, err := json.Marshal(v); err == nil {
			rec.Metadata = string(text)
		}
	}
	if v, err := b.ResourceAttribute(s.LogicalID, "CreationPolicy", live); err == nil && template.IsKnown(v) {
		rec.CreationPolicy = v
	}
	if v, err := b.ResourceAttribute(s.LogicalID, "UpdatePolicy", live); err == nil && template.IsKnown(v) {
		rec.UpdatePolicy = v
	}
}

// resourceUpdatePolicy is a resource's UpdatePolicy in the operation's template,
// resolved against the live values (nil when it has none, or it is not
// known).
func (r *run) resourceUpdatePolicy(logicalID string) any {
	b, err := r.template()
	if err != nil || !b.Enabled(logicalID) {
		return nil
	}
	v, err := b.ResourceAttribute(logicalID, "UpdatePolicy", r.live(true))
	if err != nil || !template.IsKnown(v) {
		return nil
	}
	return v
}

// resolve resolves a step's template properties against the live values;
// reason is a template error found (the step fails with it).
func (r *run) resolve(s *plan.Step) (props map[string]any, reason string, err error) {
	b, err := r.template()
	if err != nil {
		return nil, "", internalf("stack %s: binding its template: %w", r.st.StackName, err)
	}
	if p, ok := r.kept.of(s.LogicalID); ok && template.IsKnown(p) {
		// it read no resource, export or output: the live resolver
		// makes the same properties (resolveTrace)
		return p, "", nil
	}
	props, perr := b.Properties(s.LogicalID, r.live(false))
	if perr != nil {
		return nil, templateReason(perr), nil
	}
	if !template.IsKnown(props) {
		u, _ := template.FirstUnknown(props)
		return nil, "Unable to resolve " + u.String() + ": the resource it refers to has no value yet", nil
	}
	return props, "", nil
}

// templateReason words a template error found while a stack runs.
func templateReason(err error) string {
	if list := template.AsList(err); len(list) > 0 {
		return list[0].Message
	}
	return err.Error()
}

// --- ends

// putRow writes a step's row.
func (r *run) putRow(row *store.StepRecord) { r.tx.PutStep(row) }

// succeed ends a step well.
func (r *run) succeed(row *store.StepRecord) error {
	wasLaunched := row.Launched
	row.State, row.Entry.Outcome = store.StepDone, plan.Done
	row.Launched, row.Desired, row.Previous, row.Model = false, nil, nil, nil
	r.putRow(row)
	if wasLaunched {
		r.oper().Running--
	}
	r.stepDone(int(row.Index))
	return nil
}

// fail ends a step that failed; verb says what failed ("create", "update",
// "delete") for the stack's reason.
func (r *run) fail(row *store.StepRecord, verb string) error {
	wasLaunched := row.Launched
	row.State, row.Entry.Outcome = store.StepFailed, plan.Failed
	row.Launched = false
	r.putRow(row)
	if wasLaunched {
		r.oper().Running--
	}
	r.recordFailure(row.LogicalId, verb)
	switch r.phase() {
	case plan.PhaseCreate, plan.PhaseUpdate, plan.PhaseImport:
		return r.stopPhase("")
	case plan.PhaseUpdateCleanup, plan.PhaseUpdateRollbackCleanup:
		r.oper().CleanupFailed = true
	}
	return nil
}

// launch sends a step to its handler: an invoke task now, with the
// action's deadline.
func (r *run) launch(row *store.StepRecord, s *plan.Step, part string, timeout time.Duration) {
	row.Part = part
	row.Attempt = 1
	row.Reads = 0
	row.Deadline = r.tx.now().Add(timeout)
	if !row.Launched {
		row.Launched = true
		r.oper().Running++
	}
	r.putRow(row)
	r.scheduleInvoke(row, 0)
}

// timeoutOf is how long an action of a step may run.
func (r *run) timeoutOf(typeName string, a resources.Action, props map[string]any) time.Duration {
	p, err := r.e.providerOf(typeName)
	if err != nil {
		return resources.DefaultTimeout
	}
	d := p.Timeout(a, props)
	if d <= 0 {
		d = resources.DefaultTimeout
	}
	return d
}

// --- create

func (r *run) startCreate(row *store.StepRecord, s *plan.Step) error {
	cur := r.current(s.LogicalID)
	if cur != nil && (cur.ResourceStatus == statemachine.ResourceStatusDeleteComplete || cur.ResourceStatus == statemachine.ResourceStatusDeleteSkipped) {
		cur = nil // no longer the stack's: created again
	}
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	rec, err := r.fireResource(cur, s.LogicalID, statemachine.ResourceCreate)
	if err != nil {
		return err
	}
	rec.PhysicalResourceId, rec.Model, rec.Properties = "", nil, nil
	r.applyTemplate(rec, s)
	r.event(rec, "", props)
	r.put(rec)
	row.Props = props
	var desired map[string]any
	if reason == "" {
		desired, reason = r.handlerState(s.ResourceType, props)
	}
	if reason == "" {
		reason = r.stepValidation(s, desired)
	}
	if reason != "" {
		return r.createFailedAt(row, rec, reason)
	}
	row.Desired = desired
	r.launch(row, s, partCreate, r.timeoutOf(s.ResourceType, resources.ActionCreate, props))
	return nil
}

// createFailedAt fails the create (or the create of a replacement) of a
// step's resource with reason.
func (r *run) createFailedAt(row *store.StepRecord, rec *store.ResourceRecord, reason string) error {
	rec = r.keepMade(row, rec)
	ev, verb := statemachine.ResourceCreateFailed, "create"
	if rec.ResourceStatus == statemachine.ResourceStatusUpdateInProgress {
		ev, verb = statemachine.ResourceUpdateFailed, "update"
	}
	if _, err := r.moveTo(rec, rec.LogicalResourceId, ev, reason, row.Props); err != nil {
		return err
	}
	return r.fail(row, verb)
}

// keepMade records, on a resource whose create stops (failed or
// cancelled) after its handler named the physical resource, what was
// asked of it: the resource exists with (about) those properties, and a
// later update starts from them. A custom resource's create that stops
// may have made something even without naming it (Entry.Created): its
// properties are kept too, for the Delete the rollback sends it.
func (r *run) keepMade(row *store.StepRecord, rec *store.ResourceRecord) *store.ResourceRecord {
	if (!row.Initiated || rec.PhysicalResourceId == "") && !row.Entry.Created {
		return rec
	}
	c := rec.Clone()
	c.Properties = row.Props
	if row.Model != nil {
		c.Model = row.Model
	}
	return c
}

// keepAsked records, on a custom resource whose forward Update stops
// (failed, timed out or cancelled), the properties that Update asked for:
// CloudFormation cannot know how far the target got, so the rollback's
// Update goes from them, with ResourceProperties = the old properties and
// OldResourceProperties = these (seed 001: "If an Update fails,
// CloudFormation will trigger a second Update during rollback. The
// rollback update will have ResourceProperties=OLD and
// OldResourceProperties=NEW"). A registry type keeps the properties last
// applied; so does a custom resource whose rollback Update fails (a
// continued rollback still goes from NEW), and one whose Update was refused
// before it was sent (a changed ServiceToken).
func (r *run) keepAsked(row *store.StepRecord, s *plan.Step, rec *store.ResourceRecord) *store.ResourceRecord {
	if !s.Custom || row.Part != partUpdate || row.Props == nil || r.phase() != plan.PhaseUpdate {
		return rec
	}
	if !resources.LooseEqual(row.Props["ServiceToken"], rec.Properties["ServiceToken"]) {
		// "Modifying service token is not allowed.": refused before any
		// request was sent.
		return rec
	}
	c := rec.Clone()
	c.Properties = row.Props
	return c
}

// --- update

func (r *run) startUpdate(row *store.StepRecord, s *plan.Step) error {
	cur := r.current(s.LogicalID)
	if cur == nil {
		return internalf("stack %s: step %d updates %s, which has no record", r.st.StackName, s.ID, s.LogicalID)
	}
	if _, ok := statemachine.NextResource(cur.ResourceStatus, statemachine.ResourceUpdate); !ok {
		// Nothing complete to update: a resource whose create failed with
		// rollback disabled. (A rollback's cascade no longer plans Updates
		// of such resources — PriorResource.Status — but a plan stored
		// before it did may.)
		return r.succeed(row)
	}
	if !s.CallsHandler() {
		// Metadata, CreationPolicy, UpdatePolicy or policies only: what
		// CloudFormation records changes, no handler is called.
		rec, err := r.moveTo(cur, s.LogicalID, statemachine.ResourceUpdate, "", nil)
		if err != nil {
			return err
		}
		r.applyTemplate(rec, s)
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdateSucceeded, "", nil); err != nil {
			return err
		}
		return r.succeed(row)
	}
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	if isNestedStack(s.ResourceType) {
		// A nested stack whose properties stay the same is updated when
		// something in its child changes (its template may have changed
		// at the same URL); else nothing happens, and its resource shows
		// no event (nested_update.go). One whose properties change (a
		// new TemplateURL with the same template, say) is updated, and
		// its child with it when the child changes.
		same := plan.Decide(r.e.planSchema(s.ResourceType), s.Custom, cur.Properties, props).Action == plan.NoOp
		if same && reason == "" && r.phase() == plan.PhaseUpdate && cur.ResourceStatus != statemachine.ResourceStatusUpdateFailed {
			if state, why := r.handlerState(s.ResourceType, props); why == "" && !r.childChanges(cur, state) {
				row.Entry.Action = plan.NoOp
				row.Action = plan.NoOp
				return r.succeed(row)
			}
		}
	} else if reason == "" && cur.ResourceStatus != statemachine.ResourceStatusUpdateFailed {
		// Decide again with the values now known (plan/doc.go), the
		// UpdatePolicy's replacing update included.
		dec := plan.Decide(r.e.planSchema(s.ResourceType), s.Custom, cur.Properties, props)
		if dec.Action == plan.Update && plan.UpdatePolicyReplaces(s.ResourceType) {
			dec = plan.ReplacingUpdate(s.ResourceType, r.resourceUpdatePolicy(s.LogicalID), dec, dec.ChangedProperties())
		}
		switch dec.Action {
		case plan.NoOp:
			row.Entry.Action = plan.NoOp
			row.Action = plan.NoOp
			return r.succeed(row)
		case plan.CreateThenDelete, plan.DeleteThenCreate:
			if denied, err := r.replaceDenied(s); denied || err != nil {
				return err
			}
			row.Entry.Action = dec.Action
			row.Action = dec.Action
			return r.startReplace(row, s, dec.Action)
		}
	}
	rec, err := r.fireResource(cur, s.LogicalID, statemachine.ResourceUpdate)
	if err != nil {
		return err
	}
	r.applyTemplate(rec, s)
	r.event(rec, "", props)
	r.put(rec)
	row.Props = props
	row.Entry.OldPhysicalID = cur.PhysicalResourceId
	row.PhysicalID = cur.PhysicalResourceId
	var desired, previous map[string]any
	if reason == "" {
		desired, reason = r.handlerState(s.ResourceType, props)
	}
	if reason == "" && r.phase() == plan.PhaseUpdate {
		reason = r.stepValidation(s, desired)
	}
	if reason == "" {
		previous, reason = r.handlerState(s.ResourceType, cur.Properties)
	}
	if reason != "" {
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdateFailed, reason, props); err != nil {
			return err
		}
		return r.fail(row, "update")
	}
	p, _ := r.e.providerOf(s.ResourceType)
	row.Desired = withIdentifiers(p, desired, cur.Model)
	row.Previous = withIdentifiers(p, previous, cur.Model)
	r.launch(row, s, partUpdate, r.timeoutOf(s.ResourceType, resources.ActionUpdate, props))
	return nil
}

// withIdentifiers lays the primary identifier of a model over a state, as
// CloudFormation sends it to update and delete handlers.
func withIdentifiers(p resources.Provider, state, model map[string]any) map[string]any {
	if p == nil || model == nil {
		return state
	}
	s := p.Schema()
	if s == nil || plan.IsCustom(p.TypeName()) {
		return state
	}
	if state == nil {
		state = map[string]any{}
	}
	for _, ptr := range s.PrimaryIdentifier {
		if v, ok := resources.Get(model, ptr); ok {
			_ = resources.Set(state, ptr, resources.Stringify(v))
		}
	}
	return state
}

// --- replacements

// startReplace starts a replacement: the logical resource moves to a new
// physical resource (UPDATE_IN_PROGRESS "Requested update requires the
// creation of a new physical resource; hence creating one."), its old one
// is retired — deleted first for DeleteThenCreate, in a cleanup phase for
// CreateThenDelete. A rollback's Create (the old physical resource of a
// delete-then-create replacement is gone) starts the same way.
func (r *run) startReplace(row *store.StepRecord, s *plan.Step, action plan.Action) error {
	old := r.current(s.LogicalID)
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	oldPhys := ""
	if old != nil {
		oldPhys = old.PhysicalResourceId
	}
	rec, err := r.fireResource(nil, s.LogicalID, statemachine.ResourceReplace)
	if err != nil {
		return err
	}
	r.applyTemplate(rec, s)
	rec.PhysicalResourceId = oldPhys // the event names the old physical resource
	r.event(rec, reasonReplacing, props)
	rec.PhysicalResourceId = ""
	if old != nil {
		switch {
		case oldPhys != "" && old.ResourceStatus != statemachine.ResourceStatusDeleteComplete:
			r.tx.Retire(old, "Replaced")
		default:
			// Nothing stands behind it (a create that failed before a
			// physical resource existed, a deleted one): it goes.
			r.tx.DeleteResource(old.Num, old.LogicalResourceId)
		}
	}
	r.put(rec)
	row.Props = props
	row.Entry.OldPhysicalID = oldPhys
	var desired map[string]any
	if reason == "" {
		// Read before anything is deleted: a reference that cannot be
		// read fails the replacement while the old resource still stands.
		desired, reason = r.handlerState(s.ResourceType, props)
	}
	if reason == "" && r.phase() == plan.PhaseUpdate {
		reason = r.stepValidation(s, desired)
	}
	if reason != "" {
		return r.createFailedAt(row, rec, reason)
	}
	if action == plan.DeleteThenCreate && oldPhys != "" {
		row.PhysicalID = oldPhys
		row.Desired = old.Model
		if row.Desired == nil {
			row.Desired = resources.StringifyModel(old.Properties)
		}
		r.launch(row, s, partDeleteOld, r.timeoutOf(s.ResourceType, resources.ActionDelete, old.Properties))
		return nil
	}
	row.Desired = desired
	r.launch(row, s, partCreate, r.timeoutOf(s.ResourceType, resources.ActionCreate, props))
	return nil
}

// --- restore (rollback of a replacement)

// startRestore points the logical resource back at its old physical
// resource. A registry type needs no handler call (UPDATE_IN_PROGRESS,
// UPDATE_COMPLETE with the old physical id); a custom resource gets an
// Update with ResourceProperties = the old properties and
// OldResourceProperties = the new ones (seeds 001, 004).
func (r *run) startRestore(row *store.StepRecord, s *plan.Step) error {
	cur := r.current(s.LogicalID)
	old := r.bringBack(s, cur)
	if old == nil {
		// The old physical resource is no longer known: nothing to go back
		// to (it was deleted outside the engine's plan).
		return r.succeed(row)
	}
	if _, ok := statemachine.NextResource(old.ResourceStatus, statemachine.ResourceUpdate); !ok {
		// It never was complete (a create that failed with rollback
		// disabled, which the update replaced): the logical resource points
		// at it again, as it was.
		return r.succeed(row)
	}
	if !s.Custom {
		rec, err := r.moveTo(old, s.LogicalID, statemachine.ResourceUpdate, "", old.Properties)
		if err != nil {
			return err
		}
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdateSucceeded, "", old.Properties); err != nil {
			return err
		}
		return r.succeed(row)
	}
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	rec, err := r.moveTo(old, s.LogicalID, statemachine.ResourceUpdate, "", props)
	if err != nil {
		return err
	}
	row.Props = props
	row.Entry.OldPhysicalID = s.PhysicalID
	row.PhysicalID = s.PhysicalID
	newProps := old.Properties
	if cur != nil && cur.PhysicalResourceId != s.PhysicalID && cur.Properties != nil {
		newProps = cur.Properties
	}
	var desired, previous map[string]any
	if reason == "" {
		desired, reason = r.handlerState(s.ResourceType, props)
	}
	if reason == "" {
		previous, reason = r.handlerState(s.ResourceType, newProps)
	}
	if reason != "" {
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdateFailed, reason, props); err != nil {
			return err
		}
		return r.fail(row, "update")
	}
	row.Desired = desired
	row.Previous = previous
	r.launch(row, s, partUpdate, r.timeoutOf(s.ResourceType, resources.ActionUpdate, props))
	return nil
}

// bringBack makes the old physical resource s.PhysicalID the logical
// resource's current one again, retiring the one cur names (the rollback's
// cleanup deletes it) or dropping it when nothing stands behind it.
func (r *run) bringBack(s *plan.Step, cur *store.ResourceRecord) *store.ResourceRecord {
	if cur != nil && cur.PhysicalResourceId == s.PhysicalID {
		return cur
	}
	old := r.tx.RetiredRecord(r.st.Num, s.LogicalID, s.PhysicalID)
	if old == nil {
		return nil
	}
	if cur != nil {
		if cur.PhysicalResourceId != "" {
			r.tx.Retire(cur, "Replaced")
		} else {
			r.tx.DeleteResource(cur.Num, cur.LogicalResourceId)
		}
	}
	r.tx.DeleteRetired(old)
	back := old.Clone()
	back.Retired = ""
	r.tx.PutResource(back)
	return back
}

// --- skip (ContinueUpdateRollback's ResourcesToSkip)

func (r *run) startSkip(row *store.StepRecord, s *plan.Step) error {
	cur := r.current(s.LogicalID)
	if cur == nil || cur.ResourceStatus != statemachine.ResourceStatusUpdateFailed {
		return r.succeed(row)
	}
	rec, err := r.fireResource(cur, s.LogicalID, statemachine.ResourceSkipRollback)
	if err != nil {
		return err
	}
	rec.RollbackFailed, rec.Skipped = false, true
	if rec.PhysicalResourceId == "" && s.PhysicalID != "" {
		// A skipped Restore of a replacement whose new physical resource
		// never got an id (cancelled before its handler named one): the
		// logical resource points back at its old one (plan.Skip), which
		// leaves the retired records.
		if old := r.tx.RetiredRecord(r.st.Num, s.LogicalID, s.PhysicalID); old != nil {
			rec.PhysicalResourceId, rec.Model = old.PhysicalResourceId, old.Model
			r.tx.DeleteRetired(old)
		}
	}
	// CloudFormation records a skipped resource as rolled back: what the
	// stack holds of it is the template rolled back to (a later update is
	// planned against that, and its rollback returns there), while the
	// resource itself keeps what its failed rollback left (docs/planning.md,
	// "Continuing a rollback that failed").
	props, reason, err := r.resolve(s)
	if err != nil {
		return err
	}
	if reason == "" {
		r.applyTemplate(rec, s)
		rec.Properties = props
	}
	r.event(rec, reasonSkipped, nil)
	r.put(rec)
	return r.succeed(row)
}

// --- removals: Delete, Retain, Snapshot, Forget

// target finds the record a removal acts on: the current one when it is
// the physical resource the step names, else the retired one.
func (r *run) target(s *plan.Step) *store.ResourceRecord {
	cur := r.current(s.LogicalID)
	if cur != nil && (cur.PhysicalResourceId == s.PhysicalID || s.PhysicalID == "") {
		return cur
	}
	if s.PhysicalID != "" {
		if old := r.tx.RetiredRecord(r.st.Num, s.LogicalID, s.PhysicalID); old != nil {
			return old
		}
	}
	return nil
}

func (r *run) startRemove(row *store.StepRecord, s *plan.Step) error {
	if s.Replaces != 0 {
		replacing := r.step(s.Replaces)
		prow := r.tx.Step(r.op.Id, uint32(s.Replaces))
		if replacing == nil || prow == nil || !plan.NeedsCleanup(s, replacing, prow.Entry) {
			return r.succeed(row)
		}
	}
	rec := r.target(s)
	if rec == nil {
		return r.succeed(row)
	}
	if rec.Retired == "" && r.phase().IsCleanup() {
		// A cleanup deletes what the stack no longer wants: removed
		// resources and old physical resources. The current physical
		// resource of a resource the template still has is wanted (a
		// custom resource whose rollback answered, again, the id the
		// cleanup was to delete).
		if b, err := r.template(); err == nil && b.Enabled(s.LogicalID) {
			return r.succeed(row)
		}
	}
	switch rec.ResourceStatus {
	case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
		return r.succeed(row)
	}
	props := rec.Properties
	if r.phase().IsCleanup() {
		// The events of a cleanup's deletes carry no ResourceProperties:
		// recorded from AWS for the old physical resource of a replacement
		// (LocalStack's tests/aws/services/cloudformation/
		// test_change_set_parameters.snapshot.json, per-resource-events,
		// 2025-04-17: its DELETE_IN_PROGRESS and DELETE_COMPLETE have no
		// ResourceProperties, its other events do) and for the
		// resources an update rollback's cleanup deletes (an events
		// fixture recorded from AWS in the code corpus, case
		// stack_update_create_rollback_then_update, 2020-10-22: its
		// DELETE_IN_PROGRESS and DELETE_COMPLETE rows have no
		// ResourceProperties, while the stack delete's rows of the same
		// file have them). The handler is still sent the record's model.
		props = nil
	}
	row.Entry.OldPhysicalID = rec.PhysicalResourceId
	switch s.Action {
	case plan.Retain, plan.Snapshot:
		c, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceRetain, "", props)
		if err != nil {
			return err
		}
		r.release(c, releaseRetained)
		return r.succeed(row)
	case plan.Forget:
		if rec.ResourceStatus == statemachine.ResourceStatusCreateFailed || rec.ResourceStatus == statemachine.ResourceStatusUpdateFailed {
			if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceDiscard, "", nil); err != nil {
				return err
			}
			return r.succeed(row)
		}
		if rec.PhysicalResourceId == "" {
			return r.succeed(row)
		}
		// It has a physical resource after all: delete it.
	}
	c, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceDelete, "", props)
	if err != nil {
		return err
	}
	row.PhysicalID = c.PhysicalResourceId
	row.Desired = c.Model
	if row.Desired == nil {
		// A resource without a model (a custom resource) is sent its
		// properties; a reference that cannot be read any more is sent
		// as written, so that the delete still goes.
		row.Desired = resources.StringifyModel(c.Properties)
		if state, reason := r.handlerState(s.ResourceType, c.Properties); reason == "" {
			row.Desired = state
		}
	}
	r.launch(row, s, partDelete, r.timeoutOf(s.ResourceType, resources.ActionDelete, c.Properties))
	return nil
}
