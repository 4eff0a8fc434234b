package engine

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestIDsAreDeterministicUUIDs(t *testing.T) {
	a := deriveUUID(7, 1, "stack", "app")
	if !uuidV4.MatchString(a) {
		t.Fatalf("%q is not v4-shaped", a)
	}
	if b := deriveUUID(7, 1, "stack", "app"); a != b {
		t.Fatal("same inputs, different ids")
	}
	for _, other := range []string{deriveUUID(8, 1, "stack", "app"), deriveUUID(7, 2, "stack", "app"),
		deriveUUID(7, 1, "stack", "ap"), deriveUUID(7, 1, "stac", "kapp")} {
		if other == a {
			t.Fatalf("different inputs gave %s", a)
		}
	}

	e := newTestEngine(t, Options{Seed: 42, Region: "eu-west-1", AccountID: "111122223333"})
	st := seed(t, e).stack("app")
	re := regexp.MustCompile(`^arn:aws:cloudformation:eu-west-1:111122223333:stack/app/[0-9a-f-]{36}$`)
	if !re.MatchString(st.StackId) {
		t.Fatalf("stack id %q", st.StackId)
	}
	e.mu.Lock()
	var cs string
	_ = e.update(func(tx *txn) error { cs = tx.newChangeSetID("app", "cs1"); return nil })
	e.mu.Unlock()
	if !regexp.MustCompile(`^arn:aws:cloudformation:eu-west-1:111122223333:changeSet/cs1/[0-9a-f-]{36}$`).MatchString(cs) {
		t.Fatalf("change set id %q", cs)
	}

	// Same seed and calls in another engine: the same ids.
	e2 := newTestEngine(t, Options{Seed: 42, Region: "eu-west-1", AccountID: "111122223333"})
	if st2 := seed(t, e2).stack("app"); st2.StackId != st.StackId {
		t.Fatalf("not deterministic: %s vs %s", st2.StackId, st.StackId)
	}
}

func TestEventShapesAndIDs(t *testing.T) {
	e := newTestEngine(t, Options{Seed: 3})
	s := seed(t, e)
	st := s.stack("app")
	s.advance(1500 * time.Millisecond)
	s.resource(st, "Topic", "AWS::SNS::Topic", "arn:aws:sns:us-east-1:123456789012:t", statemachine.ResourceStatusCreateComplete, "")
	out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	evs := out.StackEvents
	if len(evs) != 4 {
		t.Fatalf("%d events", len(evs))
	}
	// Newest first.
	last, first := evs[0], evs[3]
	if !first.IsStackEvent() || first.LogicalResourceId != "app" || first.PhysicalResourceId != st.StackId ||
		first.ResourceType != StackResourceType || first.ResourceStatusReason != "User Initiated" {
		t.Fatalf("stack event: %+v", first)
	}
	if !uuidV4.MatchString(first.EventId) {
		t.Fatalf("stack event id %q", first.EventId)
	}
	if first.ClientRequestToken == "" || last.ClientRequestToken != first.ClientRequestToken {
		t.Fatal("the events of an operation do not share its token")
	}
	wantIDs := []string{
		"Topic-CREATE_COMPLETE-2025-01-01T00:00:01.500Z",
		"Topic-CREATE_IN_PROGRESS-2025-01-01T00:00:01.500Z-2",
		"Topic-CREATE_IN_PROGRESS-2025-01-01T00:00:01.500Z",
	}
	for i, want := range wantIDs {
		if evs[i].EventId != want {
			t.Errorf("event %d id = %q, want %q", i, evs[i].EventId, want)
		}
		if evs[i].IsStackEvent() {
			t.Errorf("event %d is a resource event", i)
		}
	}
	if evs[2].PhysicalResourceId != "" || evs[1].PhysicalResourceId == "" {
		t.Fatal("physical ids of the two CREATE_IN_PROGRESS events")
	}
	if !evs[0].Timestamp.Equal(DefaultEpoch.Add(1500 * time.Millisecond)) {
		t.Fatalf("timestamp %s", evs[0].Timestamp)
	}
	golden(t, "describe-stack-events.json", mustJSON(t, out))
}

func TestEventsAcrossChunks(t *testing.T) {
	e := newTestEngine(t, Options{PageSize: 50})
	s := seed(t, e)
	st := s.stack("big")
	const n = 3*store.EventChunkSize + 7
	for i := 2; i <= n; i++ { // the stack's first event is "User Initiated"
		i := i
		s.do(func(tx *txn) error {
			tx.Meta.Now += int64(time.Second)
			tx.resourceEvent(st, resourceEvent{LogicalID: fmt.Sprintf("R%04d", i), Type: "T", Status: statemachine.ResourceStatusCreateComplete})
			return nil
		})
	}
	var seen []string
	token := ""
	pages := 0
	for {
		out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: st.StackId, NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, ev := range out.StackEvents {
			seen = append(seen, ev.LogicalResourceId)
		}
		if token = out.NextToken; token == "" {
			break
		}
	}
	if len(seen) != n || pages != (n+49)/50 {
		t.Fatalf("%d events in %d pages, want %d in %d", len(seen), pages, n, (n+49)/50)
	}
	for i, id := range seen[:n-1] {
		if want := fmt.Sprintf("R%04d", n-i); id != want {
			t.Fatalf("event %d is %s, want %s (newest first)", i, id, want)
		}
	}
	if seen[n-1] != "big" {
		t.Fatalf("oldest event is %s", seen[n-1])
	}
	e.mu.Lock()
	count := e.st.Read().EventCount(st.Num)
	var forward int
	e.st.Read().EventsForward(st.Num, func(seq uint64, _ *store.EventRecord) bool {
		forward++
		if seq != uint64(forward) {
			t.Fatalf("forward seq %d at position %d", seq, forward)
		}
		return true
	})
	e.mu.Unlock()
	if count != n || forward != n {
		t.Fatalf("eventCount %d, forward %d, want %d", count, forward, n)
	}
}

func TestSubscribeSeesCommittedEventsOnly(t *testing.T) {
	e := newTestEngine(t, Options{})
	var got []string
	unsubscribe := e.Subscribe(func(ev StackEvent) { got = append(got, ev.LogicalResourceId+" "+ev.ResourceStatus) })
	s := seed(t, e)
	st := s.stack("app")
	e.mu.Lock()
	_ = e.update(func(tx *txn) error {
		tx.resourceEvent(st, resourceEvent{LogicalID: "Lost", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
		return fmt.Errorf("refused")
	})
	e.mu.Unlock()
	s.resource(st, "R", "T", "p", statemachine.ResourceStatusCreateComplete, "")
	unsubscribe()
	s.setStatus(st, statemachine.StackStatusCreateComplete, "")
	want := []string{"app CREATE_IN_PROGRESS", "R CREATE_IN_PROGRESS", "R CREATE_IN_PROGRESS", "R CREATE_COMPLETE"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("observed %v, want %v", got, want)
	}
}
