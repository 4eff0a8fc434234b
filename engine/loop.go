package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// The event loop: a discrete-event scheduler in virtual time. Tasks (data,
// engine/store/queue.go) run one at a time in (At, Seq) order; each runs inside the
// loop's write transaction under a savepoint, so a task is atomic: when its
// handler fails (an engine bug), what it did is rolled back, the tasks
// before it stand, and the loop stops with an *InternalError. The loop
// commits when it stops, and before each pause when paced.

// taskHandler runs one task of a kind. It reads and writes through tx
// (which is also the transaction providers' cloud calls go through),
// schedules follow-up tasks with tx.Schedule, writes events with
// tx.stackEvent and tx.resourceEvent. An error is an engine bug: a handler
// failure is not an error but a FAILED event.
type taskHandler func(ctx context.Context, tx *txn, t *Task) error

// handle registers the handler of a task kind (the operations code calls it
// from newEngine). Registering a kind twice is a bug.
func (e *Engine) handle(kind TaskKind, h taskHandler) {
	if _, dup := e.handlers[kind]; dup {
		panic(fmt.Sprintf("engine: task kind %q registered twice", kind))
	}
	e.handlers[kind] = h
}

// RunOptions say when the loop stops. The zero value runs to rest.
type RunOptions struct {
	// MaxTasks stops the loop after this many tasks (0: no limit).
	MaxTasks int
	// Until stops the loop right after the task that wrote the first event
	// for which it returns true.
	Until func(StackEvent) bool
	// Through stops the loop before the first task due after this time,
	// and moves the clock to it (zero: no limit).
	Through time.Time
	// Speed paces the loop against the wall clock: Speed seconds of
	// virtual time per real second (0: as fast as possible). Between two
	// instants the loop commits, unlocks the engine and sleeps.
	Speed float64
	// Sleeper sleeps for pacing (RealSleeper when nil).
	Sleeper Sleeper
	// StopAtSignals, with Options.Signals SignalsManual, stops the loop
	// before the timeout of a resource waiting for signals nobody but the
	// user sends (SignalResource): a mutating command returns while it
	// waits, as AWS's calls return at once.
	StopAtSignals bool
}

// StopReason says why the loop stopped.
type StopReason string

// The reasons the loop stops.
const (
	// StopRest: the queue is empty; nothing is in motion.
	StopRest StopReason = "rest"
	// StopSteps: RunOptions.MaxTasks tasks ran.
	StopSteps StopReason = "steps"
	// StopUntil: an event matched RunOptions.Until.
	StopUntil StopReason = "until"
	// StopThrough: the next task is due after RunOptions.Through.
	StopThrough StopReason = "through"
	// StopCanceled: the context was done.
	StopCanceled StopReason = "canceled"
	// StopError: a task failed (an engine bug); see the error.
	StopError StopReason = "error"
	// StopSignals: the next task is the timeout of a resource waiting for
	// signals (RunOptions.StopAtSignals).
	StopSignals StopReason = "signals"
)

// RunResult is what a run of the loop did.
type RunResult struct {
	// Tasks and Events count the tasks run and the events they wrote.
	Tasks  int
	Events int
	// Stopped says why the loop stopped.
	Stopped StopReason
	// Match is the event that matched RunOptions.Until.
	Match *StackEvent
	// Now is the virtual time when the loop stopped.
	Now time.Time
	// Pending is how many tasks are still queued.
	Pending int
}

// Run runs the loop to rest: until no task is queued.
func (e *Engine) Run(ctx context.Context) (RunResult, error) {
	return e.Drive(ctx, RunOptions{})
}

// Step runs at most n tasks (at least one).
func (e *Engine) Step(ctx context.Context, n int) (RunResult, error) {
	if n < 1 {
		n = 1
	}
	return e.Drive(ctx, RunOptions{MaxTasks: n})
}

// RunUntil runs the loop until right after the first event for which cond
// is true (as `--until LOGICAL_ID:STATUS` does), or to rest.
func (e *Engine) RunUntil(ctx context.Context, cond func(StackEvent) bool) (RunResult, error) {
	return e.Drive(ctx, RunOptions{Until: cond})
}

// Pace runs the loop to rest, speed seconds of virtual time per second of
// real time, sleeping with sleeper (RealSleeper when nil).
func (e *Engine) Pace(ctx context.Context, speed float64, sleeper Sleeper) (RunResult, error) {
	if speed <= 0 {
		return RunResult{}, fmt.Errorf("engine: pace needs a speed above 0, got %g", speed)
	}
	return e.Drive(ctx, RunOptions{Speed: speed, Sleeper: sleeper})
}

// Drive runs the loop until one of opts' conditions, or rest.
func (e *Engine) Drive(ctx context.Context, opts RunOptions) (res RunResult, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.broken != nil {
		return res, e.broken
	}
	if opts.Speed > 0 && opts.Sleeper == nil {
		opts.Sleeper = RealSleeper{}
	}
	through := int64(0)
	if !opts.Through.IsZero() {
		through = opts.Through.UnixNano()
	}
	e.forgetProviders()
	tx := &txn{e.st.BeginLoop()}
	defer func() { tx.End() }()
	if e.anyAlarmed() {
		e.scheduleAlarmChecks(tx)
	}
	for {
		if cerr := ctx.Err(); cerr != nil {
			res.Stopped, err = StopCanceled, cerr
			break
		}
		if opts.MaxTasks > 0 && res.Tasks >= opts.MaxTasks {
			res.Stopped = StopSteps
			break
		}
		t := tx.NextTask()
		if t == nil {
			res.Stopped = StopRest
			break
		}
		if through != 0 && t.Due() > through {
			res.Stopped = StopThrough
			break
		}
		if opts.StopAtSignals && e.opts.Signals == SignalsManual && signalTimeoutTask(tx, t) {
			res.Stopped = StopSignals
			break
		}
		if opts.Speed > 0 && t.Due() > tx.Meta.Now {
			wait := time.Duration(float64(t.Due()-tx.Meta.Now) / opts.Speed)
			if err := e.checkpoint(tx); err != nil {
				return res, err
			}
			serr := e.unlocked(func() error { return opts.Sleeper.Sleep(ctx, wait) })
			if e.broken != nil {
				return res, e.broken
			}
			e.forgetProviders()
			tx = &txn{e.st.BeginLoop()}
			if serr != nil {
				res.Stopped, err = StopCanceled, serr
				break
			}
			// The virtual time slept through has passed. Calls made while
			// the engine was unlocked may have changed the queue: look
			// again.
			tx.advanceTo(t.Due())
			continue
		}
		match, n, terr := e.runTask(ctx, tx, t, opts.Until)
		if terr != nil {
			res.Stopped, err = StopError, terr
			break
		}
		res.Tasks++
		res.Events += n
		if match != nil {
			res.Stopped, res.Match = StopUntil, match
			break
		}
	}
	if res.Stopped == StopThrough || (through != 0 && res.Stopped == StopRest) {
		tx.advanceTo(through)
	}
	if cerr := e.checkpoint(tx); cerr != nil {
		return res, cerr
	}
	res.Now = time.Unix(0, e.st.Meta.Now).UTC()
	res.Pending = e.st.Queue.Len()
	return res, err
}

// unlocked runs fn with the engine's mutex released (the caller holds it,
// and holds it again when unlocked returns, even if fn panics).
func (e *Engine) unlocked(fn func() error) error {
	e.mu.Unlock()
	defer e.mu.Lock()
	return fn()
}

// checkpoint commits the loop's transaction.
func (e *Engine) checkpoint(tx *txn) error {
	if err := e.damaged(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		e.broken = &InternalError{Err: err}
		return e.broken
	}
	return nil
}

// runTask runs one task atomically, hands its events to the observers, and
// returns the first of them that matches until, and how many it wrote.
func (e *Engine) runTask(ctx context.Context, tx *txn, t *Task, until func(StackEvent) bool) (*StackEvent, int, error) {
	sp := tx.Savepoint()
	tx.Unschedule(t)
	tx.advanceTo(t.Due())
	h := e.handlers[t.Kind]
	var err error
	if h == nil {
		err = fmt.Errorf("no handler is registered for task kind %q", t.Kind)
	} else {
		err = guard(func() error { return h(ctx, tx, t) })
	}
	if derr := e.damaged(); derr != nil {
		tx.RollbackTo(sp)
		tx.Release()
		return nil, 0, derr
	}
	if err != nil {
		tx.RollbackTo(sp)
		tx.Release()
		var stack string
		if inner := (*InternalError)(nil); errors.As(err, &inner) {
			stack = inner.Stack
		}
		e.log.Error("a task failed and was rolled back", zap.Uint64("task", t.Seq), zap.Error(err), zap.String("stack", stack))
		return nil, 0, &InternalError{Err: fmt.Errorf("task %d (%s, stack %s, operation %s, step %s) failed and was rolled back: %w",
			t.Seq, t.Kind, t.StackId, t.OperationId, t.StepName(), err), Stack: stack}
	}
	tx.Release()
	evs := tx.Events
	tx.Events = tx.Events[:0]
	e.deliver(tx, evs)
	if until == nil {
		return nil, len(evs), nil
	}
	for _, p := range evs {
		ev := stackEventOf(e.st, p.St, p.Seq, tx.EventAt(p.St.Num, p.Seq))
		if until(ev) {
			return &ev, len(evs), nil
		}
	}
	return nil, len(evs), nil
}

// Pending is how many tasks are queued: 0 when nothing is in motion and
// the loop has nothing to run.
func (e *Engine) Pending() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.st.Queue.Len()
}
