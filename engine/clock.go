package engine

import (
	"context"
	"fmt"
	"time"
)

// Virtual time. The clock is part of the store (saved with the state file)
// and moves only forward: when the loop runs a task due later than now, and
// when a caller advances it. An API call happens at the current instant; a
// handler call takes no virtual time; a callback after callbackDelaySeconds
// is a task due that much later.

// now returns the transaction's virtual time.
func (tx *txn) now() time.Time { return time.Unix(0, tx.Meta.Now).UTC() }

// advanceTo moves the transaction's clock forward to t (never back).
func (tx *txn) advanceTo(t int64) {
	if t > tx.Meta.Now {
		tx.Meta.Now = t
	}
}

// SetClock sets the virtual time to t, which may not be earlier than now.
// Tasks due in between run when the loop next runs, at their own times; a
// task due before t runs at t (the clock never goes back).
func (e *Engine) SetClock(t time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.update(func(tx *txn) error {
		if t.UnixNano() < tx.Meta.Now {
			return fmt.Errorf("engine: the clock cannot go back from %s to %s", tx.now().Format(time.RFC3339Nano), t.UTC().Format(time.RFC3339Nano))
		}
		tx.Meta.Now = t.UnixNano()
		return nil
	})
}

// Advance runs the tasks due within d of now, then moves the clock to now+d
// (a scenario's "wait 5 minutes").
func (e *Engine) Advance(ctx context.Context, d time.Duration) (RunResult, error) {
	if d < 0 {
		return RunResult{}, fmt.Errorf("engine: cannot advance the clock by a negative duration (%s)", d)
	}
	return e.Drive(ctx, RunOptions{Through: e.Now().Add(d)})
}

// Sleeper waits in real time; Pace uses it between virtual instants.
// Tests inject one that records and does not sleep.
type Sleeper interface {
	Sleep(ctx context.Context, d time.Duration) error
}

// RealSleeper sleeps on the wall clock, or until the context is done.
type RealSleeper struct{}

// Sleep implements Sleeper.
func (RealSleeper) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
