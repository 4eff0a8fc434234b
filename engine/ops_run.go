package engine

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// The executor: an operation runs its plan's phases one after the other on
// the event loop. Everything it knows is in the store (the operation's
// record with its plan, a row per started step, the queued tasks), so an
// operation saved and loaded between any two tasks goes on identically.
//
// Tasks:
//
//	start          the operation's first task: run-time template checks,
//	               the stack timeout, then its first phase
//	phase-end      every step of the phase has ended: move to the next
//	               phase, to a rollback, or to rest
//	invoke         one handler call of a step (Step = the step ID,
//	               Attempt, CallbackContext; Data = the step's generation)
//	deadline       the action of a step whose handler never answered
//	               timed out
//	stack-timeout  the create ran past TimeoutInMinutes
//	alarm-check    a check of the operation's rollback triggers (an alarm
//	               went to ALARM)
//	monitoring-end the monitoring time after a create's or an update's
//	               last resource is over (Data = the phase's generation)
//	signal         one of the simulation's own signals to a resource that
//	               waits for them (Step, Data as invoke's; CallbackContext
//	               = {UniqueId, Status})
const (
	taskStart        TaskKind = "start"
	taskPhaseEnd     TaskKind = "phase-end"
	taskInvoke       TaskKind = "invoke"
	taskDeadline     TaskKind = "deadline"
	taskStackTimeout TaskKind = "stack-timeout"
	taskSignal       TaskKind = "signal"
)

// registerOperations registers the executor's task kinds.
func (e *Engine) registerOperations() {
	e.handle(taskStart, e.runStart)
	e.handle(taskPhaseEnd, e.runPhaseEnd)
	e.handle(taskInvoke, e.runInvoke)
	e.handle(taskDeadline, e.runDeadline)
	e.handle(taskStackTimeout, e.runStackTimeout)
	e.handle(taskAlarmCheck, e.runAlarmCheck)
	e.handle(taskMonitoringEnd, e.runMonitoringEnd)
	e.handle(taskSignal, e.runSignal)
	e.handle(taskNestedRelease, e.runNestedRelease)
}

// run is one task's (or API call's) view of an operation: the stack and the
// operation as they stand, copied on first change and written back by
// flush.
type run struct {
	e   *Engine
	ctx context.Context
	tx  *txn
	st  *store.StackRecord
	op  *store.OperationRecord
	idx *planIndex

	stMine, opMine bool
	// ready are the steps found ready to start, in the order found.
	ready []int
	// tpl is the bound template the stack is on (lazily).
	tpl boundTemplate
	// kept are the properties the create's template check resolved in
	// this task (runtimeTemplateCheck): a step that starts in the same
	// task and whose kept properties are all known resolves them no more.
	kept *keptProperties
}

// newRun loads the stack and operation a task works for; ok is false when
// the task is stale (the operation is gone or no longer in motion).
func (e *Engine) newRun(ctx context.Context, tx *txn, t *Task) (*run, bool, error) {
	r := &run{}
	ok, err := e.loadRun(r, ctx, tx, t)
	return r, ok, err
}

// loadRun is newRun into a run the caller has (on its stack: the loop's
// commonest task, an invoke, makes no garbage for it).
func (e *Engine) loadRun(r *run, ctx context.Context, tx *txn, t *Task) (bool, error) {
	op := tx.Operation(t.OperationId)
	if op == nil || !op.InMotion {
		return false, nil
	}
	st := tx.StackByID(op.StackId)
	if st == nil {
		return false, fmt.Errorf("operation %s names stack %s, which does not exist", op.Id, op.StackId)
	}
	if st.OperationId != op.Id {
		return false, nil
	}
	*r = run{e: e, ctx: ctx, tx: tx, st: st, op: op}
	if op.Plan != nil {
		r.idx = e.planIndexOf(op.Plan)
	}
	return true, nil
}

// stack returns the stack record to change (a copy owned by the run).
func (r *run) stack() *store.StackRecord {
	if !r.stMine {
		r.st = r.st.Clone()
		r.stMine = true
	}
	return r.st
}

// oper returns the operation record to change (a copy owned by the run).
func (r *run) oper() *store.OperationRecord {
	if !r.opMine {
		r.op = r.op.Clone()
		r.opMine = true
	}
	return r.op
}

// flush writes the stack and the operation back when they changed.
func (r *run) flush() error {
	if r.stMine {
		if err := r.tx.PutStack(r.st); err != nil {
			return err
		}
		r.stMine = false
	}
	if r.opMine {
		r.tx.Put(r.op)
		r.opMine = false
	}
	return nil
}

// template returns the bound template the stack is on: the operation's
// desired template while it runs forward, the previous one once an update
// rolls back (the stack's record swaps them then).
func (r *run) template() (boundTemplate, error) {
	if r.tpl == nil {
		b, err := r.e.currentTemplate(r.st)
		if err != nil {
			return nil, err
		}
		r.tpl = b
	}
	return r.tpl, nil
}

// phase is the phase running.
func (r *run) phase() plan.Phase {
	phases := r.op.Plan.Phases()
	if r.op.Phase < len(phases) {
		return phases[r.op.Phase]
	}
	return ""
}

// reqPhase is the resources.Phase of the requests of the running phase.
func (r *run) reqPhase() resources.Phase {
	switch r.phase() {
	case plan.PhaseRollback, plan.PhaseUpdateRollback:
		return resources.PhaseRollback
	case plan.PhaseUpdateCleanup, plan.PhaseUpdateRollbackCleanup:
		return resources.PhaseCleanup
	}
	return resources.PhaseForward
}

// fireStack moves the stack with a state machine event and writes its
// event. An illegal transition is an engine bug.
func (r *run) fireStack(ev statemachine.StackEvent, reason string) error {
	st := r.stack()
	to, err := statemachine.FireStack(st.StackName, st.StackStatus, ev)
	if err != nil {
		return internalf("stack %s: %w", st.StackName, err)
	}
	st.StackStatus, st.StackStatusReason = to, reason
	enteredStatus(st, to, r.tx.now())
	r.tx.stackEvent(st, to, reason)
	r.wakeParent(st)
	return nil
}

// --- plan indexes

// planIndex is derived from a plan once per process: where each step is,
// and which steps wait on it. The planner numbers a plan's steps from 1
// up, so where a step is, by ID, is a slice about as long as the plan; a
// plan whose IDs are sparse (a state file's, edited) has a map instead.
type planIndex struct {
	byID   []int32       // ID → position in Plan.Steps + 1 (0: no step)
	sparse map[int]int32 // ID → position, when byID is nil
	// dependents are, by position, the IDs of the steps that wait on the
	// step: slices of one backing array.
	dependents [][]int
}

const maxPlanIndexes = 64

// journalPerStart is about how many journal entries the start of a step
// writes (its row, its resource's, its event and the event's bookkeeping,
// its task; ExpectChanges).
const journalPerStart = 8

func (e *Engine) planIndexOf(p *plan.Plan) *planIndex {
	if ix, ok := e.plans[p]; ok {
		return ix
	}
	ix := newPlanIndex(p)
	if len(e.plans) >= maxPlanIndexes {
		clear(e.plans)
	}
	e.plans[p] = ix
	return ix
}

func newPlanIndex(p *plan.Plan) *planIndex {
	n := len(p.Steps)
	maxID, edges := 0, 0
	for i := range p.Steps {
		maxID = max(maxID, p.Steps[i].ID)
		edges += len(p.Steps[i].After)
	}
	ix := &planIndex{dependents: make([][]int, n)}
	if maxID <= 2*n+64 {
		ix.byID = make([]int32, maxID+1)
	} else {
		ix.sparse = make(map[int]int32, n)
	}
	for i := range p.Steps {
		if id := p.Steps[i].ID; id >= 0 {
			if ix.byID != nil {
				ix.byID[id] = int32(i) + 1
			} else {
				ix.sparse[id] = int32(i)
			}
		}
	}
	// the dependents of every step in one backing array: counted, then
	// filled in plan order
	count := make([]int, n)
	for i := range p.Steps {
		for _, a := range p.Steps[i].After {
			if at, ok := ix.stepAt(a); ok {
				count[at]++
			}
		}
	}
	flat := make([]int, edges)
	for at, c := range count {
		ix.dependents[at], flat = flat[:0:c], flat[c:]
	}
	for i := range p.Steps {
		for _, a := range p.Steps[i].After {
			if at, ok := ix.stepAt(a); ok {
				ix.dependents[at] = append(ix.dependents[at], p.Steps[i].ID)
			}
		}
	}
	return ix
}

// stepAt is the position in Plan.Steps of the step with an ID.
func (ix *planIndex) stepAt(id int) (int, bool) {
	if ix.byID == nil {
		at, ok := ix.sparse[id]
		return int(at), ok
	}
	if id < 0 || id >= len(ix.byID) || ix.byID[id] == 0 {
		return 0, false
	}
	return int(ix.byID[id]) - 1, true
}

// dependentsOf are the IDs of the steps that wait on the step with an ID.
func (ix *planIndex) dependentsOf(id int) []int {
	if at, ok := ix.stepAt(id); ok {
		return ix.dependents[at]
	}
	return nil
}

// dropPlanIndex forgets the index of a plan no task runs any more (its
// operation at rest, or its plan replaced): the cache would otherwise keep
// the plans of finished operations alive, a plan and its index being
// hundreds of bytes per resource. An index dropped too soon (a savepoint
// rolled back) is made again when asked for.
func (e *Engine) dropPlanIndex(p *plan.Plan) {
	if p != nil {
		delete(e.plans, p)
	}
}

func (r *run) step(id int) *plan.Step {
	if i, ok := r.idx.stepAt(id); ok {
		return &r.op.Plan.Steps[i]
	}
	return nil
}

// --- starting operations

// newOperation makes the operation record of a call that starts one, and
// makes it the stack's. The caller puts the stack afterwards.
func (e *Engine) newOperation(tx *txn, st *store.StackRecord, kind OperationKind, token string, p *plan.Plan, ext Extensions) *store.OperationRecord {
	seq := uint32(1)
	if prev := tx.LastOperationOf(st.StackId); prev != nil {
		seq = prev.Seq + 1
	}
	op := &store.OperationRecord{
		Id:                 st.StackId + "/op/" + strconv.FormatUint(uint64(seq), 10),
		StackId:            st.StackId,
		Kind:               kind,
		ClientRequestToken: token,
		StartTime:          tx.now(),
		Seq:                seq,
		Open:               true,
		InMotion:           true,
		Plan:               p,
		Faults:             ext.Faults,
	}
	return op
}

// closeOperation ends the stack's open operation, if any, keeping its
// summary (without its plan and steps).
func (e *Engine) closeOperation(tx *txn, st *store.StackRecord) {
	if st.OperationId == "" {
		return
	}
	op := tx.Operation(st.OperationId)
	if op == nil {
		return
	}
	c := op.Clone()
	c.Open, c.InMotion, c.Plan, c.Forward = false, false, nil, nil
	if c.EndTime.IsZero() {
		c.EndTime = tx.now()
	}
	if c.Outcome == "" {
		c.Outcome = string(st.StackStatus)
	}
	for _, s := range tx.StepsOf(op.Id) {
		tx.Del(store.TSteps, s.Key())
	}
	tx.Put(c)
	e.dropInjector(op.Id)
}

// beginOperation stores a new operation as the stack's and queues its
// start. The stack (st, a copy the caller owns) gets the operation's id
// and is put.
func (e *Engine) beginOperation(tx *txn, st *store.StackRecord, op *store.OperationRecord) error {
	if st.OperationId != "" && st.OperationId != op.Id {
		e.closeOperation(tx, st)
	}
	st.OperationId = op.Id
	if err := tx.PutStack(st); err != nil {
		return err
	}
	if err := tx.PutOperation(op); err != nil {
		return err
	}
	tx.Schedule(&Task{Kind: taskStart, StackId: st.StackId, OperationId: op.Id})
	return nil
}

// runStart is an operation's first task.
func (e *Engine) runStart(ctx context.Context, tx *txn, t *Task) error {
	r, ok, err := e.newRun(ctx, tx, t)
	if err != nil || !ok {
		return err
	}
	if r.op.Stopping {
		// Stopped before its first task ran (CancelUpdateStack right
		// after the update, or a cancelled step of its parent's right
		// after the child's create or update began): nothing starts, and
		// the end of the phase the stop queued ends the operation.
		return r.flush()
	}
	if r.op.Phase == 0 {
		// every step writes its row, its resource's and its object's
		n := len(r.op.Plan.Steps)
		tx.Expect(store.TSteps, n)
		tx.Expect(store.TResources, n)
		tx.Expect(store.TObjects, n)
	}
	if r.op.Plan.Operation == plan.OpCreate && r.op.Phase == 0 {
		if r.op.Deadline.IsZero() && r.st.TimeoutInMinutes > 0 {
			op := r.oper()
			op.Deadline = tx.now().Add(time.Duration(r.st.TimeoutInMinutes) * time.Minute)
			tx.Schedule(&Task{At: op.Deadline, Kind: taskStackTimeout, StackId: r.st.StackId, OperationId: op.Id})
		}
		// A template error that only shows when the stack runs (an
		// attribute a type does not have) fails the create before any
		// resource starts (BEHAVIOUR.md §4 F).
		reason, kept, err := r.runtimeTemplateCheck()
		if err != nil {
			return err
		} else if reason != "" {
			op := r.oper()
			op.Stopping, op.StopCause = true, reason
			r.schedulePhaseEnd()
			return r.flush()
		}
		if refused, err := r.checkProperties(kept); err != nil {
			return err
		} else if refused {
			return r.flush()
		}
		if stopped, err := r.stopIfTriggered(); err != nil || stopped {
			if err != nil {
				return err
			}
			return r.flush()
		}
		r.kept = kept
	}
	if r.op.Plan.Operation == plan.OpUpdate && r.op.Phase == 0 {
		if stopped, err := r.stopIfTriggered(); err != nil || stopped {
			if err != nil {
				return err
			}
			return r.flush()
		}
		if refused, err := r.checkProperties(nil); err != nil {
			return err
		} else if refused {
			return r.flush()
		}
		if denied, err := r.checkStackPolicy(); err != nil {
			return err
		} else if denied {
			return r.flush()
		}
	}
	if r.op.Plan.Operation == plan.OpDelete && r.op.Phase == 0 {
		if refused, err := r.refuseDelete(); err != nil {
			return err
		} else if refused {
			return r.flush()
		}
	}
	if err := r.beginPhase(); err != nil {
		return err
	}
	return r.flush()
}

// beginPhase starts the steps of the running phase that wait on nothing.
func (r *run) beginPhase() error {
	if r.phase().IsCleanup() {
		r.releaseChildren()
	}
	op := r.oper()
	op.Running, op.Stopping, op.Failures, op.StopCause = 0, false, nil, ""
	for _, s := range r.op.Plan.In(r.phase()) {
		if len(s.After) == 0 {
			r.ready = append(r.ready, s.ID)
		}
	}
	r.tx.ExpectChanges(journalPerStart * len(r.ready))
	return r.drain()
}

// drain starts the ready steps, and the steps they make ready, until none
// is left; then, when nothing runs, it ends the phase.
func (r *run) drain() error {
	for len(r.ready) > 0 {
		id := r.ready[0]
		r.ready = r.ready[1:]
		if r.op.Stopping {
			continue
		}
		if err := r.startStep(id); err != nil {
			return err
		}
	}
	if r.op.Running == 0 {
		r.schedulePhaseEnd()
	}
	return nil
}

// schedulePhaseEnd queues the end of the running phase.
func (r *run) schedulePhaseEnd() {
	r.tx.Schedule(&Task{Kind: taskPhaseEnd, StackId: r.st.StackId, OperationId: r.op.Id, Data: []byte(strconv.Itoa(r.op.PhaseGen))})
}

// stepDone is called when a step has ended well: its dependents that wait
// on nothing else become ready.
func (r *run) stepDone(id int) {
	deps := r.idx.dependentsOf(id)
	for _, d := range deps {
		s := r.step(d)
		if s == nil {
			continue
		}
		if row := r.tx.Step(r.op.Id, uint32(d)); row != nil {
			continue // started already
		}
		ready := true
		for _, a := range s.After {
			row := r.tx.Step(r.op.Id, uint32(a))
			if row == nil || row.State != store.StepDone {
				ready = false
				break
			}
		}
		if ready {
			r.ready = append(r.ready, d)
		}
	}
}

// journal is the journal of the running plan, from the step rows.
func (r *run) journal() plan.Journal {
	rows := r.tx.StepsOf(r.op.Id)
	j := make(plan.Journal, 0, len(rows))
	for _, row := range rows {
		// Rows of steps a continued rollback dropped (done before) stay
		// with the operation but are no longer its plan's.
		if _, ok := r.idx.stepAt(int(row.Index)); ok && row.Entry.Step != 0 {
			j = append(j, row.Entry)
		}
	}
	return j
}

// switchPlan makes p the plan the operation runs, from its first phase.
// The rows of the old plan's steps go (their journal has been read).
func (r *run) switchPlan(p *plan.Plan) {
	for _, s := range r.tx.StepsOf(r.op.Id) {
		r.tx.Del(store.TSteps, s.Key())
	}
	op := r.oper()
	r.e.dropPlanIndex(op.Plan)
	op.Plan, op.Phase = p, 0
	op.PhaseGen++
	op.Running, op.Stopping, op.Failures, op.StopCause, op.CleanupFailed = 0, false, nil, "", false
	r.idx = r.e.planIndexOf(p)
	r.tpl = nil
}

// recordFailure notes a resource that failed in the running phase.
func (r *run) recordFailure(logicalID, verb string) {
	op := r.oper()
	for _, f := range op.Failures {
		if f.LogicalId == logicalID && f.Verb == verb {
			return
		}
	}
	op.Failures = append(append([]store.StepFailure(nil), op.Failures...), store.StepFailure{LogicalId: logicalID, Verb: verb})
}

// stopPhase stops a forward phase: nothing new starts, and every step in
// flight is cancelled.
func (r *run) stopPhase(cause string) error {
	op := r.oper()
	if cause != "" && op.StopCause == "" {
		op.StopCause = cause
	}
	if op.Stopping {
		return nil
	}
	op.Stopping = true
	r.ready = nil
	return r.cancelRunning()
}
