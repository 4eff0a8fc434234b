package engine

import (
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

func TestStoreAbortChangesNothing(t *testing.T) {
	s := newTestStore(t)
	tx := &txn{s.Begin()}
	st := addStack(t, tx, "app")
	tx.stackEvent(st, statemachine.StackStatusCreateInProgress, "User Initiated")
	tx.Schedule(&Task{Kind: "k"})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	before := s.Meta
	beforeQueue := s.Queue.Len()
	beforeState, err := statefile.Encode(s)
	if err != nil {
		t.Fatal(err)
	}

	tx = &txn{s.Begin()}
	addStack(t, tx, "other")
	tx.stackEvent(st, statemachine.StackStatusCreateComplete, "")
	tx.resourceEvent(st, resourceEvent{LogicalID: "R", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	tx.Schedule(&Task{Kind: "k2"})
	tx.Unschedule(tx.NextTask())
	tx.PutObject(&resources.Object{Type: "T", ID: "x"})
	tx.newToken("x")
	tx.Meta.Now += 5
	tx.Abort()

	if s.Meta != before || s.Queue.Len() != beforeQueue {
		t.Fatalf("abort left meta %+v (was %+v) and %d tasks (was %d)", s.Meta, before, s.Queue.Len(), beforeQueue)
	}
	after, err := statefile.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(beforeState) {
		t.Fatalf("abort changed the state:\n%s", lineDiff(string(beforeState), string(after)))
	}
	if d := s.Dups[st.Num]; d != nil && len(d.N) != 0 {
		t.Fatalf("abort left event-id bookkeeping: %+v", d.N)
	}
}

func TestStoreSavepoint(t *testing.T) {
	s := newTestStore(t)
	tx := &txn{s.Begin()}
	st := addStack(t, tx, "app")
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	t1 := tx.Schedule(&Task{Kind: "first"})
	tx.Release()

	sp := tx.Savepoint()
	tx.Unschedule(t1)
	tx.Schedule(&Task{Kind: "second"})
	tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "A"})
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	tx.Meta.Now += 10
	tx.RollbackTo(sp)

	if got := tx.Tasks(nil); len(got) != 1 || got[0] != t1 {
		t.Fatalf("queue after rollback: %v", got)
	}
	if tx.Resource(st.Num, "A") != nil {
		t.Fatal("a row written after the savepoint survived")
	}
	if n := tx.EventCount(st.Num); n != 1 {
		t.Fatalf("events after rollback = %d, want 1", n)
	}
	if tx.Meta != sp.Meta {
		t.Fatal("meta not restored")
	}
	// The event-id counter is back: the next CREATE_IN_PROGRESS of A at
	// this instant is the second, not the third.
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	rd := s.Read()
	rd.EventsForward(st.Num, func(seq uint64, r *store.EventRecord) bool {
		ids = append(ids, stackEventOf(s, st, seq, r).EventId)
		return true
	})
	want := []string{"A-CREATE_IN_PROGRESS-2025-01-01T00:00:00.000Z", "A-CREATE_IN_PROGRESS-2025-01-01T00:00:00.000Z-2"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("event ids = %v, want %v", ids, want)
	}
}

func TestStoreStackNames(t *testing.T) {
	s := newTestStore(t)
	tx := &txn{s.Begin()}
	first := addStack(t, tx, "app")
	dup := &store.StackRecord{StackId: tx.newStackID("app"), StackName: "app", StackStatus: statemachine.StackStatusCreateInProgress}
	if err := tx.PutStack(dup); err == nil {
		t.Fatal("two live stacks with one name")
	}
	// Deleted, the name is free again; the old stack stays findable by id.
	gone := first.Clone()
	gone.StackStatus = statemachine.StackStatusDeleteComplete
	if err := tx.PutStack(gone); err != nil {
		t.Fatal(err)
	}
	second := addStack(t, tx, "app")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rd := s.Read()
	if got := rd.FindStack("app"); got == nil || got.StackId != second.StackId {
		t.Fatalf("by name: %+v", got)
	}
	if got := rd.FindStack(first.StackId); got == nil || got.StackStatus != statemachine.StackStatusDeleteComplete {
		t.Fatalf("deleted stack by id: %+v", got)
	}
	if got := rd.StackByNum(second.Num); got == nil || got.StackId != second.StackId {
		t.Fatalf("by num: %+v", got)
	}
	if n := len(rd.AllStacks()); n != 2 {
		t.Fatalf("allStacks = %d", n)
	}
}

// Committed rows wait in the store's buffer, laid over memdb: reads and
// scans (primary and secondary indexes, from a key) merge the overlay, the
// buffer and memdb in key order; a row made and deleted before memdb had it
// never reaches memdb; a deleted row memdb holds is hidden until the
// buffer is written in (flush, when it holds more than maxBuffered rows).
func TestStoreBuffer(t *testing.T) {
	s := newTestStore(t)
	defer func(n int) { store.MaxBuffered = n }(store.MaxBuffered)
	store.MaxBuffered = 1 << 20
	put := func(tx *txn, st *store.StackRecord, ids ...string) {
		for _, id := range ids {
			tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, PhysicalResourceId: "p" + id})
		}
	}
	tx := &txn{s.Begin()}
	st := addStack(t, tx, "app")
	put(tx, st, "B", "D")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil { // B, D in memdb
		t.Fatal(err)
	}
	tx = &txn{s.Begin()}
	put(tx, st, "A", "C", "E")
	tx.DeleteResource(st.Num, "D")
	if err := tx.Commit(); err != nil { // A, C, E and D's deletion in the buffer
		t.Fatal(err)
	}
	if n, _ := s.BufferedRows(store.TResources, ""); n != 4 {
		t.Fatalf("%d resource rows buffered, want 4", n)
	}
	if raw, _ := s.Read().Snap.First(store.TResources.String(), store.IxID, []byte(store.ResourceKey(st.Num, "A"))); raw != nil {
		t.Fatal("a buffered row is in memdb")
	}
	tx = &txn{s.Begin()}
	put(tx, st, "AA")
	tx.DeleteResource(st.Num, "E") // only ever in the buffer
	r := tx.Resource(st.Num, "C").Clone()
	r.PhysicalResourceId = "pC2"
	tx.PutResource(r)
	if got := logicalIDs(tx.ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "AA=pAA", "B=pB", "C=pC2"}) {
		t.Fatalf("three layers merged: %v", got)
	}
	var from []string
	tx.ScanFrom(store.TResources, store.IxID, store.NumKey(st.Num), store.ResourceKey(st.Num, "AA"), func(r store.Record) bool {
		from = append(from, r.(*store.ResourceRecord).LogicalResourceId)
		return true
	})
	if !reflect.DeepEqual(from, []string{"AA", "B", "C"}) {
		t.Fatalf("scan from AA: %v", from)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, kept := s.BufferedRows(store.TResources, store.ResourceKey(st.Num, "E")); kept {
		t.Fatal("a row made and deleted before memdb had it is still buffered")
	}
	rd := s.Read()
	if rd.Resource(st.Num, "D") != nil || rd.Resource(st.Num, "C").PhysicalResourceId != "pC2" {
		t.Fatal("a read transaction does not see the buffer")
	}
	// A secondary index over buffered rows: the stack by name and by Num.
	if rd.StackByName("app") == nil || rd.StackByNum(st.Num) == nil {
		t.Fatal("secondary index scans miss the buffered stack")
	}
	before := logicalIDs(rd.ResourcesOf(st.Num))
	state, err := statefile.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.BufferedRows(store.TResources, ""); s.Buffered != 0 || n != 0 {
		t.Fatalf("flush left %d rows", s.Buffered)
	}
	if got := logicalIDs(s.Read().ResourcesOf(st.Num)); !reflect.DeepEqual(got, before) {
		t.Fatalf("after flush: %v, before: %v", got, before)
	}
	if again, err := statefile.Encode(s); err != nil || string(again) != string(state) {
		t.Fatalf("the state file differs after the flush: %v", err)
	}
	// A full buffer is written in at commit.
	store.MaxBuffered = 2
	tx = &txn{s.Begin()}
	put(tx, st, "F", "G", "H")
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if s.Buffered != 0 {
		t.Fatalf("%d rows buffered past the bound", s.Buffered)
	}
	if got := logicalIDs(s.Read().ResourcesOf(st.Num)); len(got) != 7 {
		t.Fatalf("after the bound: %v", got)
	}
}

func newTestStore(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.New(store.Identity{Region: "us-east-1", AccountID: "123456789012", Partition: "aws"}, DefaultEpoch.UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func addStack(t testing.TB, tx *txn, name string) *store.StackRecord {
	t.Helper()
	st := &store.StackRecord{StackId: tx.newStackID(name), StackName: name, StackStatus: statemachine.StackStatusCreateComplete}
	if err := tx.PutStack(st); err != nil {
		t.Fatal(err)
	}
	return st
}

func logicalIDs(rs []*store.ResourceRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.LogicalResourceId+"="+r.PhysicalResourceId)
	}
	return out
}
