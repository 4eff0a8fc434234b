package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// Handler calls: one invoke task per call. The answer decides what
// follows: IN_PROGRESS calls again after callbackDelaySeconds with the
// callbackContext (and the model laid over the desired state); SUCCESS ends
// the part (a create is then read back, as Cloud Control does, retrying
// NotFound for eventual consistency); FAILED with a retriable code calls
// again with exponential backoff, up to Options.MaxAttempts; FAILED
// otherwise fails the step. A handler that never answers
// (resources.ErrNoResponse) leaves the step waiting for its deadline.

const (
	// minCallbackDelay is the least virtual time between two calls of an
	// action that answered IN_PROGRESS: a handler answering
	// callbackDelaySeconds 0 is called again a second later, so that time
	// moves and its timeout can come.
	minCallbackDelay = time.Second
	// maxBackoff caps the backoff between retries.
	maxBackoff = 60 * time.Second
	// maxNotFoundReads is how many reads after a create may answer
	// NotFound before the create fails NotStabilized (as
	// terraform-plugin-sdk's StateChangeConf counts NotFoundChecks).
	maxNotFoundReads = 20
)

// backoff is the wait before call n+1 of an action after n failed calls:
// 1 s, 2 s, 4 s... at most maxBackoff.
func backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	if n > 7 {
		return maxBackoff
	}
	return min(time.Duration(1<<(n-1))*time.Second, maxBackoff)
}

// scheduleInvoke queues the next call of a step's handler after delay
// (never past its deadline: the call at the deadline times out).
func (r *run) scheduleInvoke(row *store.StepRecord, delay time.Duration, callback ...map[string]any) {
	at := r.tx.now().Add(delay)
	if !row.Deadline.IsZero() && at.After(row.Deadline) {
		at = row.Deadline
	}
	t := &Task{At: at, Kind: taskInvoke, StackId: r.st.StackId, OperationId: r.op.Id, Attempt: row.Attempt}
	t.SetStep(row.Index, row.Gen)
	if len(callback) > 0 {
		t.SetCallback(callback[0])
	}
	r.tx.Schedule(t)
}

// loadStep gives an invoke or deadline task read from a state file the
// numbers of its Step and Data (setStep).
func loadStep(t *Task) {
	if t.Kind != taskInvoke && t.Kind != taskDeadline && t.Kind != taskSignal {
		return
	}
	id, err := strconv.ParseUint(t.Step, 10, 32)
	if err != nil {
		return
	}
	g, err := strconv.ParseUint(string(t.Data), 10, 32)
	if err != nil {
		return
	}
	t.SetStep(uint32(id), uint32(g))
}

// taskRow returns the step a task works on, or nil when the task is stale.
func (r *run) taskRow(t *Task) (*store.StepRecord, *plan.Step) {
	index, gen, ok := t.StepGen()
	if !ok {
		return nil, nil
	}
	row := r.tx.Step(r.op.Id, index)
	if row == nil || row.State != store.StepRunning || !row.Launched || gen != row.Gen {
		return nil, nil
	}
	s := r.step(int(index))
	if s == nil {
		return nil, nil
	}
	return row.Clone(), s
}

// action is the handler action of a part.
func stepAction(row *store.StepRecord) resources.Action {
	switch row.Part {
	case partCreate:
		return resources.ActionCreate
	case partRead, partImport:
		return resources.ActionRead
	case partUpdate, partRolling:
		return resources.ActionUpdate
	}
	return resources.ActionDelete
}

// runInvoke calls a step's handler once.
func (e *Engine) runInvoke(ctx context.Context, tx *txn, t *Task) error {
	var rv run
	r := &rv
	if ok, err := e.loadRun(r, ctx, tx, t); err != nil || !ok {
		return err
	}
	row, s := r.taskRow(t)
	if row == nil {
		return nil
	}
	if err := r.invoke(row, s, t); err != nil {
		return err
	}
	if err := r.drain(); err != nil {
		return err
	}
	return r.flush()
}

// runDeadline fails a step whose handler never answered.
func (e *Engine) runDeadline(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	row, s := r.taskRow(t)
	if row == nil {
		return nil
	}
	if err := r.timedOut(row, s); err != nil {
		return err
	}
	if err := r.drain(); err != nil {
		return err
	}
	return r.flush()
}

func (r *run) invoke(row *store.StepRecord, s *plan.Step, t *Task) error {
	if isNestedStack(s.ResourceType) {
		return r.invokeNested(row, s)
	}
	if row.Part == partRolling {
		return r.roll(row, s)
	}
	now := r.tx.now()
	if !row.Deadline.IsZero() && !now.Before(row.Deadline) {
		return r.timedOut(row, s)
	}
	p, err := r.provider(s.ResourceType)
	if err != nil {
		return r.partFailed(row, s, fmt.Sprintf("Resource type %s has no handler: %v", s.ResourceType, err))
	}
	req := r.request(row, s, t)
	ev, herr := r.e.invoke(r.invokeContext(), p, req)
	r.collect()
	if errors.Is(herr, resources.ErrNoResponse) {
		// No answer: only the deadline ends the action.
		dl := &Task{At: row.Deadline, Kind: taskDeadline, StackId: r.st.StackId, OperationId: r.op.Id, Attempt: row.Attempt}
		dl.SetStep(row.Index, row.Gen)
		r.tx.Schedule(dl)
		return nil
	}
	if herr != nil {
		if r.ctx.Err() != nil {
			return fmt.Errorf("handler call interrupted: %w", r.ctx.Err())
		}
		ev = resources.ErrorEvent(herr)
	}
	switch ev.Status {
	case resources.StatusInProgress:
		return r.inProgress(row, s, p, ev)
	case resources.StatusSuccess:
		return r.partSucceeded(row, s, p, ev)
	case resources.StatusFailed:
		return r.handlerFailed(row, s, p, ev, req)
	}
	return r.handlerFailed(row, s, p, resources.Failed(resources.ErrHandlerInternalFailure,
		"the handler answered status %q, which is not IN_PROGRESS, SUCCESS or FAILED", ev.Status), req)
}

// request builds the handler request of a step's part.
func (r *run) request(row *store.StepRecord, s *plan.Step, t *Task) *resources.Request {
	st := r.st
	req := &resources.Request{
		Action:                    stepAction(row),
		ClientRequestToken:        r.requestToken(row),
		OperationToken:            r.op.ClientRequestToken,
		DesiredResourceState:      row.Desired,
		PreviousResourceState:     row.Previous,
		DesiredResourceTags:       r.stackTags(),
		SystemTags:                systemTags(row, st, s.LogicalID),
		AWSAccountID:              r.e.opts.AccountID,
		AWSPartition:              r.e.opts.Partition,
		LogicalResourceIdentifier: s.LogicalID,
		Region:                    r.e.opts.Region,
		StackID:                   st.StackId,
		ResourceType:              s.ResourceType,
		PhysicalResourceID:        row.PhysicalID,
		Phase:                     r.reqPhase(),
		Attempt:                   t.Attempt,
	}
	if req.Attempt < 1 {
		req.Attempt = 1
	}
	if row.Part == partCreate {
		req.PhysicalResourceID = ""
	}
	if isCustom(s.ResourceType) {
		req.Attributes = r.readAttributes(s.LogicalID)
	}
	req.CallbackContext = t.Callback()
	return req
}

// requestToken is the clientRequestToken of the handler requests of the
// part of a step in flight (its create, its read back, its update, its
// delete), in the operation's current phase: one token per resource action,
// the same in its IN_PROGRESS re-invocations and its retries, another for
// the next part, the rollback or the cleanup. CloudFormation's providers use
// it as the idempotency token of the service calls they make (AWS's own
// AWS::EC2::FlowLog handler passes it as CreateFlowLogs' ClientToken), so it
// cannot be the operation's token, which every resource of the operation
// would share; and the RequestToken a handler failure's reason quotes is it,
// as Cloud Control's RequestToken names one resource operation. Derived
// from the operation's id, the step and the part, never counted: a state
// reopened in the middle of the part makes the same token.
func (r *run) requestToken(row *store.StepRecord) string {
	if phase := r.phase(); row.Token == "" || row.TokenPart != row.Part || row.TokenPhase != phase {
		row.Token = deriveUUID(r.tx.Store.ID.Seed, uint64(row.Index), "request", r.op.Id, string(phase), row.Part)
		row.TokenPart, row.TokenPhase = row.Part, phase
	}
	return row.Token
}

// systemTags are the systemTags of a step's requests: made once per step
// and shared by its requests (a request's maps are never changed, see
// resources/doc.go).
func systemTags(row *store.StepRecord, st *store.StackRecord, logicalID string) map[string]string {
	if row.Sys == nil {
		row.Sys = map[string]string{"aws:cloudformation:stack-name": st.StackName, "aws:cloudformation:stack-id": st.StackId, "aws:cloudformation:logical-id": logicalID}
	}
	return row.Sys
}

// stackTags are the stack's tags as a handler's desiredResourceTags.
func (r *run) stackTags() map[string]string {
	if len(r.st.Tags) == 0 {
		return nil
	}
	m := make(map[string]string, len(r.st.Tags))
	for _, t := range r.st.Tags {
		m[t.Key] = t.Value
	}
	return m
}

// inProgress handles an IN_PROGRESS answer: the model is laid over the
// desired state, the resource is named when the model says who it is, and
// the handler is called again later with the callback context.
func (r *run) inProgress(row *store.StepRecord, s *plan.Step, p resources.Provider, ev *resources.ProgressEvent) error {
	if row.Part == partRead {
		// Read never answers IN_PROGRESS (the contract); take it as the
		// create's model and go on.
		return r.createSucceeded(row, s, row.Model)
	}
	if ev.ResourceModel != nil {
		// The same model as the last answer's (providers share their
		// answers: resources/doc.go) is laid over the desired state already.
		again := row.Model != nil && resources.SameModel(row.Model, ev.ResourceModel)
		row.Model = ev.ResourceModel
		if row.Part != partDelete && row.Part != partDeleteOld && !again {
			row.Desired = mergeModels(row.Desired, ev.ResourceModel)
		}
		if row.Part == partCreate {
			if err := r.initiated(row, s, p, ev.ResourceModel); err != nil {
				return err
			}
		}
	}
	cc, err := callbackOf(ev.CallbackContext)
	if err != nil {
		return r.handlerFailed(row, s, p, resources.Failed(resources.ErrHandlerInternalFailure, "the callbackContext is not JSON: %v", err), nil)
	}
	delay := time.Duration(ev.CallbackDelaySeconds) * time.Second
	if delay < minCallbackDelay {
		delay = minCallbackDelay
	}
	r.putRow(row)
	r.scheduleInvoke(row, delay, cc)
	return nil
}

// mergeModels lays over over base: a map with base's keys and over's, over's
// values where both have one.
func mergeModels(base, over map[string]any) map[string]any {
	if covers(over, base) {
		// over has every key of base, and its values win: the merge is
		// over itself, shared as the handler's answers are (a model is
		// never changed once made: resources/doc.go).
		return over
	}
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// covers tells whether m has every key of sub.
func covers(m, sub map[string]any) bool {
	if len(m) < len(sub) {
		return false
	}
	for k := range sub {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// initiated writes "Resource creation Initiated" once a create's model
// names the physical resource.
func (r *run) initiated(row *store.StepRecord, s *plan.Step, p resources.Provider, model map[string]any) error {
	if row.Initiated {
		return nil
	}
	id, err := p.PhysicalID(model)
	if err != nil || id == "" {
		return nil
	}
	row.Initiated = true
	row.PhysicalID = id
	row.Entry.NewPhysicalID = id
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was created", r.st.StackName, s.LogicalID)
	}
	c := rec.Clone()
	c.PhysicalResourceId = id
	c.Model = model
	r.event(c, reasonInitiated, row.Props)
	r.put(c)
	return nil
}

// partSucceeded handles a SUCCESS answer.
func (r *run) partSucceeded(row *store.StepRecord, s *plan.Step, p resources.Provider, ev *resources.ProgressEvent) error {
	switch row.Part {
	case partCreate:
		model := ev.ResourceModel
		if model == nil {
			model = row.Desired
		}
		if _, err := p.PhysicalID(model); err != nil {
			return r.partFailed(row, s, fmt.Sprintf("Resource handler returned message: \"the SUCCESS model has no primary identifier: %v\" (RequestToken: %s, HandlerErrorCode: %s)",
				err, r.requestToken(row), resources.ErrInternalFailure))
		}
		if err := r.initiated(row, s, p, model); err != nil {
			return err
		}
		row.Model = model
		if !s.Custom {
			// Read the resource back at once, as Cloud Control does after
			// a create, in the same task (the read is the create's last
			// call: nothing else of the operation comes between them). A
			// read that must be called again (NotFound while the resource
			// becomes visible, a retriable error) is scheduled as any
			// other call.
			row.Part, row.Attempt, row.Desired = partRead, 1, model
			return r.invoke(row, s, &Task{Attempt: 1})
		}
		return r.createSucceeded(row, s, model)
	case partRead:
		model := ev.ResourceModel
		if model == nil {
			model = row.Model
		}
		return r.createSucceeded(row, s, model)
	case partUpdate:
		model := ev.ResourceModel
		if model == nil {
			model = row.Desired
		}
		return r.updateSucceeded(row, s, p, model)
	case partDeleteOld:
		return r.oldDeleted(row, s)
	case partImport:
		model := ev.ResourceModel
		if model == nil {
			model = row.Desired
		}
		if id, err := p.PhysicalID(model); err != nil || id != row.PhysicalID {
			// The resource imported is the one ResourcesToImport named (a
			// handler that answers another breaks the contract, and the
			// checker reports it).
			model = withIdentifiers(p, resources.CopyModel(model), row.Desired)
		}
		return r.importSucceeded(row, s, model)
	}
	return r.deleteSucceeded(row, s)
}

// handlerFailed handles a FAILED answer (req is nil when the engine made
// the failure up).
func (r *run) handlerFailed(row *store.StepRecord, s *plan.Step, p resources.Provider, ev *resources.ProgressEvent, req *resources.Request) error {
	code := ev.ErrorCode
	switch row.Part {
	case partDelete, partDeleteOld:
		if code == resources.ErrNotFound {
			// Already gone: as good as deleted.
			if row.Part == partDeleteOld {
				return r.oldDeleted(row, s)
			}
			return r.deleteSucceeded(row, s)
		}
	case partRead:
		switch {
		case code == resources.ErrNotFound && row.Reads+1 < maxNotFoundReads:
			row.Reads++
			r.putRow(row)
			r.scheduleInvoke(row, backoff(row.Reads))
			return nil
		case code == resources.ErrNotFound:
			ev = resources.Failed(resources.ErrNotStabilized, "Resource of type '%s' with identifier '%s' was not found after %d reads; it did not stabilize.", s.ResourceType, row.PhysicalID, maxNotFoundReads)
		case code.Retriable() && row.Attempt < r.e.opts.MaxAttempts:
			row.Attempt++
			r.putRow(row)
			r.scheduleInvoke(row, backoff(row.Attempt-1))
			return nil
		default:
			// The handler cannot read (no read handler, say): the create's
			// own model stands.
			return r.createSucceeded(row, s, row.Model)
		}
	}
	if code.Retriable() && row.Part != partRead && row.Attempt < r.e.opts.MaxAttempts {
		row.Attempt++
		r.putRow(row)
		r.scheduleInvoke(row, backoff(row.Attempt-1))
		return nil
	}
	if row.Part == partCreate && s.Custom && ev.ResourceModel != nil {
		// A custom resource's FAILED answer to a Create names a physical
		// id too (the response needs one): the rollback's Delete goes to
		// it, with the properties (BEHAVIOUR.md §7).
		if err := r.initiated(row, s, p, ev.ResourceModel); err != nil {
			return err
		}
		if row.Initiated {
			row.Model = ev.ResourceModel
		}
	}
	return r.partFailed(row, s, r.failureMessage(row, s, ev))
}

// failureMessage words a handler's failure as the resource's reason: AWS's
// `Resource handler returned message: "MSG" (RequestToken: TOKEN,
// HandlerErrorCode: CODE)` for registry types; a custom resource's own
// message (Received response status [FAILED] from custom resource...); a
// raw service error as it is (ProgressEvent.Raw).
func (r *run) failureMessage(row *store.StepRecord, s *plan.Step, ev *resources.ProgressEvent) string {
	if s.Custom || ev.Raw {
		return ev.Message
	}
	return fmt.Sprintf("Resource handler returned message: %q (RequestToken: %s, HandlerErrorCode: %s)",
		ev.Message, r.requestToken(row), ev.ErrorCode)
}

// timedOut fails a step whose action ran past its deadline.
func (r *run) timedOut(row *store.StepRecord, s *plan.Step) error {
	if row.Part == partSignal {
		if r.enoughSignals(row, s) {
			return r.signalsDone(row, s)
		}
		r.endWait(row)
		return r.partFailed(row, s, r.signalTimeout(row, s))
	}
	if row.Part == partRolling {
		return r.rollTimedOut(row, s)
	}
	p, err := r.provider(s.ResourceType)
	msg := "Resource timed out waiting for completion"
	if err == nil {
		msg = resources.TimeoutMessage(p, stepAction(row))
	}
	return r.partFailed(row, s, msg)
}

// partFailed fails the part in flight with reason.
func (r *run) partFailed(row *store.StepRecord, s *plan.Step, reason string) error {
	row.Gen++
	switch row.Part {
	case partImport:
		rec := r.current(s.LogicalID)
		if rec == nil {
			return internalf("stack %s: %s lost its record while it was imported", r.st.StackName, s.LogicalID)
		}
		return r.importFailedAt(row, rec, reason)
	case partCreate, partRead, partSignal:
		if s.Custom {
			row.Entry.Created = true
		}
		rec := r.current(s.LogicalID)
		if rec == nil {
			return internalf("stack %s: %s lost its record while it was created", r.st.StackName, s.LogicalID)
		}
		return r.createFailedAt(row, rec, reason)
	case partUpdate, partDeleteOld, partRolling:
		rec := r.current(s.LogicalID)
		if rec == nil {
			return internalf("stack %s: %s lost its record while it was updated", r.st.StackName, s.LogicalID)
		}
		rec = r.keepAsked(row, s, rolledBack(row, rec))
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceUpdateFailed, reason, row.Props); err != nil {
			return err
		}
		return r.fail(row, "update")
	}
	rec := r.deleting(row, s)
	if rec != nil {
		if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceDeleteFailed, reason, nil); err != nil {
			return err
		}
	}
	return r.fail(row, "delete")
}

// deleting is the record a step's delete works on.
func (r *run) deleting(row *store.StepRecord, s *plan.Step) *store.ResourceRecord {
	cur := r.current(s.LogicalID)
	if cur != nil && cur.PhysicalResourceId == row.PhysicalID && cur.ResourceStatus == statemachine.ResourceStatusDeleteInProgress {
		return cur
	}
	if row.PhysicalID != "" {
		return r.tx.RetiredRecord(r.st.Num, s.LogicalID, row.PhysicalID)
	}
	return cur
}

// createSucceeded ends a create (or the create of a replacement): the
// record holds the new physical resource, its properties and model.
func (r *run) createSucceeded(row *store.StepRecord, s *plan.Step, model map[string]any) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was created", r.st.StackName, s.LogicalID)
	}
	if r.awaitsSignals(row, s) {
		// A creation policy's (or a wait condition's) signals first.
		pol, ok, reason := signalPolicyOf(rec, s.ResourceType, row.Props)
		if reason != "" {
			return r.partFailed(row, s, reason)
		}
		if ok {
			return r.waitForSignals(row, s, model, pol)
		}
	}
	ev := statemachine.ResourceCreateSucceeded
	if rec.ResourceStatus == statemachine.ResourceStatusUpdateInProgress {
		ev = statemachine.ResourceUpdateSucceeded
	}
	c, err := r.fireResource(rec, s.LogicalID, ev)
	if err != nil {
		return err
	}
	c.PhysicalResourceId = row.PhysicalID
	c.Properties, c.Model = row.Props, model
	c.RollbackFailed, c.Skipped = false, false
	r.event(c, "", row.Props)
	r.put(c)
	row.Entry.NewPhysicalID = row.PhysicalID
	return r.succeed(row)
}

// updateSucceeded ends an update in place (or a custom resource's
// Restore). A custom resource that answered another physical id was
// replaced: its old physical resource is retired, for the cleanup.
func (r *run) updateSucceeded(row *store.StepRecord, s *plan.Step, p resources.Provider, model map[string]any) error {
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was updated", r.st.StackName, s.LogicalID)
	}
	if started, err := r.startRolling(row, s, rec, model); started || err != nil {
		// An Auto Scaling group's instances first (ops_rolling.go).
		return err
	}
	c, err := r.fireResource(rec, s.LogicalID, statemachine.ResourceUpdateSucceeded)
	if err != nil {
		return err
	}
	if !s.Custom {
		if id, err := p.PhysicalID(model); err != nil || id != rec.PhysicalResourceId {
			// A registry type's identifier cannot change in an update (a
			// handler that says otherwise breaks the contract, and the
			// checker reports it): the resource keeps the one it has.
			model = withIdentifiers(p, resources.CopyModel(model), rec.Model)
		}
	} else {
		if id, err := p.PhysicalID(model); err == nil && id != "" && id != rec.PhysicalResourceId {
			old := rec.Clone()
			old.ResourceStatus = statemachine.ResourceStatusUpdateComplete
			old.Retired = "Replaced"
			r.tx.PutRetired(old)
			c.PhysicalResourceId = id
			row.Entry.NewPhysicalID = id
			row.Entry.ReplacedAtRunTime = true
		}
	}
	c.Properties, c.Model = row.Props, model
	c.RollbackFailed, c.Skipped = false, false
	r.event(c, "", row.Props)
	r.put(c)
	return r.succeed(row)
}

// oldDeleted goes on with a delete-then-create replacement once the old
// physical resource is gone: the new one is created.
func (r *run) oldDeleted(row *store.StepRecord, s *plan.Step) error {
	if old := r.tx.RetiredRecord(r.st.Num, s.LogicalID, row.PhysicalID); old != nil {
		r.tx.DeleteRetired(old)
	}
	row.Entry.OldDeleted = true
	row.PhysicalID = ""
	row.Model = nil
	desired, reason := r.handlerState(s.ResourceType, row.Props)
	if reason != "" {
		if rec := r.current(s.LogicalID); rec != nil {
			return r.createFailedAt(row, rec, reason)
		}
		desired = resources.StringifyModel(row.Props)
	}
	row.Desired = desired
	row.Previous = nil
	r.launch(row, s, partCreate, r.timeoutOf(s.ResourceType, resources.ActionCreate, row.Props))
	return nil
}

// deleteSucceeded ends a delete: DELETE_COMPLETE; a retired physical
// resource leaves the store.
func (r *run) deleteSucceeded(row *store.StepRecord, s *plan.Step) error {
	rec := r.deleting(row, s)
	if rec != nil {
		c, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceDeleteSucceeded, "", nil)
		if err != nil {
			return err
		}
		if c.Retired != "" {
			r.tx.DeleteRetired(c)
		}
	}
	return r.succeed(row)
}

// cancelRunning cancels every step in flight: CREATE_FAILED "Resource
// creation cancelled" or UPDATE_FAILED "Resource update cancelled".
func (r *run) cancelRunning() error {
	var running []*store.StepRecord
	for _, row := range r.tx.StepsOf(r.op.Id) {
		if row.State == store.StepRunning && row.Launched {
			running = append(running, row)
		}
	}
	if len(running) == 0 {
		return nil
	}
	opID := r.op.Id
	r.tx.CancelTasks(func(t *Task) bool {
		return t.OperationId == opID && (t.Kind == taskInvoke || t.Kind == taskDeadline || t.Kind == taskSignal)
	})
	for _, old := range running {
		row := old.Clone()
		s := r.step(int(row.Index))
		if s == nil {
			continue
		}
		rec := r.current(s.LogicalID)
		if rec != nil {
			if row.Part == partCreate || row.Part == partRead || row.Part == partSignal {
				if s.Custom {
					row.Entry.Created = true
				}
				rec = r.keepMade(row, rec)
			}
			switch rec.ResourceStatus {
			case statemachine.ResourceStatusCreateInProgress:
				if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceCancel, reasonCreateCancelled, row.Props); err != nil {
					return err
				}
			case statemachine.ResourceStatusImportInProgress:
				if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceImportFailed, reasonImportCancelled, row.Props); err != nil {
					return err
				}
			case statemachine.ResourceStatusUpdateInProgress:
				rec = r.keepAsked(row, s, rolledBack(row, rec))
				if _, err := r.moveTo(rec, s.LogicalID, statemachine.ResourceCancel, reasonUpdateCancelled, row.Props); err != nil {
					return err
				}
			}
		}
		if isNestedStack(s.ResourceType) {
			if err := r.cancelChild(row); err != nil {
				return err
			}
		}
		row.State, row.Entry.Outcome = store.StepCancelled, plan.Cancelled
		row.Gen++
		row.Launched = false
		r.putRow(row)
		r.oper().Running--
	}
	return nil
}
