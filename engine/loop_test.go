package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// loopWorld is an engine with test task kinds:
//
//	"note"   writes a resource event (Step = logical id, Data = status)
//	"chain"  writes an event, then schedules itself Attempt-1 more times,
//	         5 s apart, carrying a callbackContext that counts calls
//	"fail"   writes an event, then fails (an engine bug)
//	"panic"  panics
type loopWorld struct {
	e   *Engine
	st  *store.StackRecord
	ran []string
}

func newLoopWorld(t *testing.T, e *Engine) *loopWorld {
	t.Helper()
	w := &loopWorld{e: e}
	w.st = seed(t, e).stack("app")
	w.register()
	return w
}

func (w *loopWorld) register() {
	note := func(tx *txn, t *Task, status string) {
		st := tx.StackByID(t.StackId)
		tx.resourceEvent(st, resourceEvent{LogicalID: t.Step, Type: "Test::Thing", Status: statemachine.ResourceStatus(status)})
	}
	w.e.handle("note", func(_ context.Context, tx *txn, t *Task) error {
		w.ran = append(w.ran, fmt.Sprintf("%s@%s", t.Step, tx.now().Sub(DefaultEpoch)))
		status := "CREATE_COMPLETE"
		if len(t.Data) > 0 {
			if err := json.Unmarshal(t.Data, &status); err != nil {
				return err
			}
		}
		note(tx, t, status)
		return nil
	})
	w.e.handle("chain", func(_ context.Context, tx *txn, t *Task) error {
		var cc struct{ Calls int }
		if len(t.CallbackContext) > 0 {
			if err := json.Unmarshal(t.CallbackContext, &cc); err != nil {
				return err
			}
		}
		cc.Calls++
		w.ran = append(w.ran, fmt.Sprintf("%s#%d@%s", t.Step, cc.Calls, tx.now().Sub(DefaultEpoch)))
		note(tx, t, "CREATE_IN_PROGRESS")
		if t.Attempt > 1 {
			raw, _ := json.Marshal(cc)
			tx.ScheduleAfter(5*time.Second, &Task{Kind: "chain", StackId: t.StackId, Step: t.Step, Attempt: t.Attempt - 1, CallbackContext: raw})
		}
		return nil
	})
	w.e.handle("fail", func(_ context.Context, tx *txn, t *Task) error {
		note(tx, t, "CREATE_FAILED")
		tx.Schedule(&Task{Kind: "note", StackId: t.StackId, Step: "never"})
		return errors.New("illegal transition")
	})
	w.e.handle("panic", func(context.Context, *txn, *Task) error { panic("boom") })
}

// queue schedules tasks: each is "kind:step:+seconds".
func (w *loopWorld) queue(t *testing.T, specs ...string) {
	t.Helper()
	seed(t, w.e).do(func(tx *txn) error {
		for _, s := range specs {
			var kind, step string
			var secs, attempt int
			if _, err := fmt.Sscanf(s, "%s %s %d %d", &kind, &step, &secs, &attempt); err != nil {
				return fmt.Errorf("spec %q: %w", s, err)
			}
			tx.ScheduleAfter(time.Duration(secs)*time.Second, &Task{Kind: TaskKind(kind), StackId: w.st.StackId, Step: step, Attempt: attempt})
		}
		return nil
	})
}

func TestLoopOrderAndVirtualTime(t *testing.T) {
	w := newLoopWorld(t, newTestEngine(t, Options{}))
	w.queue(t, "note C 10 1", "note A 0 1", "note B 10 1", "chain X 3 3", "note D 0 1")
	res, err := w.e.Run(ctx())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"A@0s", "D@0s", "X#1@3s", "X#2@8s", "C@10s", "B@10s", "X#3@13s"}
	if !reflect.DeepEqual(w.ran, want) {
		t.Fatalf("ran %v, want %v", w.ran, want)
	}
	if res.Stopped != StopRest || res.Tasks != 7 || res.Events != 7 || res.Pending != 0 {
		t.Fatalf("result %+v", res)
	}
	if !res.Now.Equal(DefaultEpoch.Add(13 * time.Second)) {
		t.Fatalf("clock %s", res.Now)
	}
}

func TestLoopStepUntilThrough(t *testing.T) {
	w := newLoopWorld(t, newTestEngine(t, Options{}))
	w.queue(t, "note A 0 1", "note B 1 1", "note C 2 1", "note D 3 1")

	res, err := w.e.Step(ctx(), 1)
	if err != nil || res.Stopped != StopSteps || res.Tasks != 1 || res.Pending != 3 {
		t.Fatalf("step: %+v %v", res, err)
	}
	res, err = w.e.RunUntil(ctx(), func(ev StackEvent) bool { return ev.LogicalResourceId == "C" })
	if err != nil || res.Stopped != StopUntil || res.Match == nil || res.Match.LogicalResourceId != "C" || res.Pending != 1 {
		t.Fatalf("until: %+v %v", res, err)
	}
	if !res.Now.Equal(DefaultEpoch.Add(2 * time.Second)) {
		t.Fatalf("until stopped at %s", res.Now)
	}
	res, err = w.e.Advance(ctx(), 30*time.Second)
	if err != nil || res.Stopped != StopRest || res.Tasks != 1 || !res.Now.Equal(DefaultEpoch.Add(32*time.Second)) {
		t.Fatalf("advance: %+v %v", res, err)
	}
	w.queue(t, "note E 10 1")
	res, err = w.e.Drive(ctx(), RunOptions{Through: DefaultEpoch.Add(35 * time.Second)})
	if err != nil || res.Stopped != StopThrough || res.Tasks != 0 || !res.Now.Equal(DefaultEpoch.Add(35*time.Second)) {
		t.Fatalf("through: %+v %v", res, err)
	}
	if err := w.e.SetClock(DefaultEpoch); err == nil {
		t.Fatal("the clock went back")
	}
	// A task due in the past runs at now.
	if err := w.e.SetClock(DefaultEpoch.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	w.ran = nil
	if _, err := w.e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"E@1h0m0s"}; !reflect.DeepEqual(w.ran, want) {
		t.Fatalf("ran %v, want %v", w.ran, want)
	}
}

// recordingSleeper sleeps in no time and records how long it was asked to.
type recordingSleeper struct {
	slept []time.Duration
	err   error
}

func (s *recordingSleeper) Sleep(_ context.Context, d time.Duration) error {
	s.slept = append(s.slept, d)
	return s.err
}

func TestLoopPace(t *testing.T) {
	w := newLoopWorld(t, newTestEngine(t, Options{}))
	w.queue(t, "note A 0 1", "note B 30 1", "note C 30 1", "note D 90 1")
	sl := &recordingSleeper{}
	res, err := w.e.Pace(ctx(), 10, sl)
	if err != nil || res.Tasks != 4 {
		t.Fatalf("%+v %v", res, err)
	}
	if want := []time.Duration{3 * time.Second, 6 * time.Second}; !reflect.DeepEqual(sl.slept, want) {
		t.Fatalf("slept %v, want %v", sl.slept, want)
	}
	if _, err := w.e.Pace(ctx(), 0, sl); err == nil {
		t.Fatal("pace at speed 0")
	}
	// A sleep that is interrupted stops the loop, keeping what ran.
	w.queue(t, "note E 0 1", "note F 10 1")
	sl = &recordingSleeper{err: context.Canceled}
	res, err = w.e.Pace(ctx(), 1, sl)
	if !errors.Is(err, context.Canceled) || res.Stopped != StopCanceled || res.Tasks != 1 || res.Pending != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestLoopFailedTaskIsRolledBack(t *testing.T) {
	for _, kind := range []string{"fail", "panic", "unknown"} {
		t.Run(kind, func(t *testing.T) {
			e := newTestEngine(t, Options{})
			w := newLoopWorld(t, e)
			w.queue(t, "note A 0 1", kind+" B 5 1", "note C 10 1")
			res, err := e.Run(ctx())
			var ie *InternalError
			if !errors.As(err, &ie) || res.Stopped != StopError {
				t.Fatalf("%+v %v", res, err)
			}
			if res.Tasks != 1 || res.Pending != 2 {
				t.Fatalf("result %+v", res)
			}
			out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
			if err != nil {
				t.Fatal(err)
			}
			if len(out.StackEvents) != 2 || out.StackEvents[0].LogicalResourceId != "A" {
				t.Fatalf("events %+v", out.StackEvents)
			}
			// The clock stayed at the last task that succeeded.
			if !res.Now.Equal(DefaultEpoch) {
				t.Fatalf("clock %s", res.Now)
			}
			// The failed task is still queued: the bug shows again.
			if _, err := e.Run(ctx()); !errors.As(err, &ie) {
				t.Fatalf("second run: %v", err)
			}
		})
	}
}

func TestLoopCanceledContext(t *testing.T) {
	w := newLoopWorld(t, newTestEngine(t, Options{}))
	w.queue(t, "note A 0 1")
	c, cancel := context.WithCancel(ctx())
	cancel()
	res, err := w.e.Run(c)
	if !errors.Is(err, context.Canceled) || res.Stopped != StopCanceled || res.Pending != 1 {
		t.Fatalf("%+v %v", res, err)
	}
}

// An operation in motion is data: saved part way through, loaded by another
// engine, it continues to the same end as a run that never stopped.
func TestLoopContinuesAfterSaveAndLoad(t *testing.T) {
	specs := []string{"chain X 0 4", "note A 2 1", "chain Y 1 3", "note B 7 1"}

	whole := newLoopWorld(t, newTestEngine(t, Options{Seed: 9}))
	whole.queue(t, specs...)
	if _, err := whole.e.Run(ctx()); err != nil {
		t.Fatal(err)
	}

	part := newLoopWorld(t, newTestEngine(t, Options{Seed: 9}))
	part.queue(t, specs...)
	if _, err := part.e.Step(ctx(), 3); err != nil {
		t.Fatal(err)
	}
	mid := state(t, part.e)
	next := loadUnchecked(t, mid, Options{})
	rest := &loopWorld{e: next}
	rest.register()
	if _, err := next.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if got := append(part.ran, rest.ran...); !reflect.DeepEqual(got, whole.ran) {
		t.Fatalf("ran %v, want %v", got, whole.ran)
	}
	if a, b := state(t, whole.e), state(t, next); string(a) != string(b) {
		t.Fatalf("states differ:\n%s", lineDiff(string(a), string(b)))
	}
}

func TestLoopTaskHelpers(t *testing.T) {
	e := newTestEngine(t, Options{})
	w := newLoopWorld(t, e)
	w.queue(t, "note A 5 1", "note B 1 1", "chain C 1 2")
	seed(t, e).do(func(tx *txn) error {
		ts := tx.Tasks(func(t *Task) bool { return t.Kind == "note" })
		if len(ts) != 2 || ts[0].Step != "B" || ts[1].Step != "A" {
			return fmt.Errorf("tasks: %v", ts)
		}
		if n := tx.CancelTasks(func(t *Task) bool { return t.Step == "A" }); n != 1 {
			return fmt.Errorf("cancelled %d", n)
		}
		if next := tx.NextTask(); next.Step != "B" {
			return fmt.Errorf("next is %s", next.Step)
		}
		return nil
	})
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"B@1s", "C#1@1s", "C#2@6s"}; !reflect.DeepEqual(w.ran, want) {
		t.Fatalf("ran %v, want %v", w.ran, want)
	}
}
