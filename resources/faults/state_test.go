package faults_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
)

// An injector made from the saved state of another goes on exactly where
// the other stopped: counts, pending eventual-consistency reads and
// firings survive a trip through JSON.
func TestStateRoundTrip(t *testing.T) {
	const yml = `
faults:
  - match: {logicalId: Queue, action: create}
    fail: {code: InternalFailure}
    times: 2
  - match: {logicalId: Queue}
    eventualConsistency: {reads: 2}
`
	a := load(t, yml)
	pa := queue(t, a)
	v0 := a.Version()
	call(t, pa, req(resources.ActionCreate, "Queue", 1, 0, map[string]any{"QueueName": "q1"}))
	if a.Version() == v0 {
		t.Fatal("a firing did not move the version")
	}

	raw, err := json.Marshal(a.State())
	if err != nil {
		t.Fatal(err)
	}
	var st faults.State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	b, err := faults.NewWithState(a.Faults(), st)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.State(), b.State()) {
		t.Fatalf("state differs after the trip:\n%+v\n%+v", a.State(), b.State())
	}
	pb := queue(t, b)
	// Both injectors answer the next calls the same way: the second (and
	// last) failure, then a create that arms two NotFound reads.
	for _, p := range []resources.Provider{pa, pb} {
		ev, _ := call(t, p, req(resources.ActionCreate, "Queue", 1, 0, map[string]any{"QueueName": "q1"}))
		if ev.Status != resources.StatusFailed {
			t.Fatalf("second create: %v", ev)
		}
	}
	ev, _ := resources.Drive(ctx(), pa, req(resources.ActionCreate, "Queue", 1, 0, map[string]any{"QueueName": "q1"}), 0)
	if ev.Last().Status != resources.StatusSuccess {
		t.Fatalf("third create: %v", ev.Last())
	}
	model := ev.Last().ResourceModel
	c, err := faults.NewWithState(a.Faults(), a.State())
	if err != nil {
		t.Fatal(err)
	}
	pc := queue(t, c)
	for i := 0; i < 2; i++ {
		ev, _ := call(t, pc, req(resources.ActionRead, "Queue", 1, 0, model))
		if ev.Status != resources.StatusFailed || ev.ErrorCode != resources.ErrNotFound {
			t.Fatalf("read %d after the trip: %v", i, ev)
		}
	}
	if len(c.Fired()) != len(a.Fired())+2 {
		t.Fatalf("firings: %d then %d", len(a.Fired()), len(c.Fired()))
	}
	if _, err := faults.NewWithState(a.Faults(), faults.State{Counts: []faults.Count{{Fault: 9}}}); err == nil {
		t.Fatal("a state naming a fault the list lacks was accepted")
	}
}

func ctx() context.Context { return context.Background() }
