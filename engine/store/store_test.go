package store

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stacksim/stacksim/statemachine"
)

func newTestStore(t testing.TB) *Store {
	t.Helper()
	s, err := New(Identity{Region: "us-east-1", AccountID: "123456789012", Partition: "aws"}, time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func addStack(t testing.TB, tx *Txn, name string) *StackRecord {
	t.Helper()
	st := &StackRecord{StackId: "arn:aws:cloudformation:us-east-1:123456789012:stack/" + name + "/" + name, StackName: name, StackStatus: statemachine.StackStatusCreateComplete}
	if err := tx.PutStack(st); err != nil {
		t.Fatal(err)
	}
	return st
}

func logicalIDs(rs []*ResourceRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.LogicalResourceId+"="+r.PhysicalResourceId)
	}
	return out
}

func TestStoreReadsItsOwnWritesAndCommits(t *testing.T) {
	s := newTestStore(t)
	tx := s.Begin()
	st := addStack(t, tx, "app")
	for _, id := range []string{"B", "A", "C"} {
		tx.PutResource(&ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, PhysicalResourceId: "p" + id})
	}
	if got := tx.Resource(st.Num, "A"); got == nil || got.PhysicalResourceId != "pA" {
		t.Fatalf("read of an uncommitted write: %+v", got)
	}
	// Nothing is visible outside before the commit.
	if r := s.Read().StackByName("app"); r != nil {
		t.Fatal("an uncommitted stack is visible to a read transaction")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	rd := s.Read()
	if got := logicalIDs(rd.ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("resources after commit = %v", got)
	}

	// A second transaction: overlay and snapshot merge in key order.
	tx = s.Begin()
	r := tx.Resource(st.Num, "B").Clone()
	r.PhysicalResourceId = "pB2"
	tx.PutResource(r)
	tx.DeleteResource(st.Num, "C")
	tx.PutResource(&ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "AA", PhysicalResourceId: "pAA"})
	if got := logicalIDs(tx.ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "AA=pAA", "B=pB2"}) {
		t.Fatalf("merged scan = %v", got)
	}
	// The snapshot still holds the old rows.
	if got := logicalIDs(s.Read().ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("a read transaction saw uncommitted changes: %v", got)
	}
	tx.Abort()
	if got := logicalIDs(s.Read().ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("after abort = %v", got)
	}
	if s.Cur != nil {
		t.Fatal("abort left the transaction open")
	}
}

func TestStoreRetiredExportsImportsOperations(t *testing.T) {
	s := newTestStore(t)
	tx := s.Begin()
	a, b := addStack(t, tx, "a"), addStack(t, tx, "b")
	r := &ResourceRecord{Num: a.Num, StackId: a.StackId, LogicalResourceId: "T", PhysicalResourceId: "old"}
	tx.PutResource(r)
	old := tx.Retire(r, "Replaced")
	tx.PutResource(&ResourceRecord{Num: a.Num, StackId: a.StackId, LogicalResourceId: "T", PhysicalResourceId: "new"})
	if got := logicalIDs(tx.RetiredOf(a.Num)); !reflect.DeepEqual(got, []string{"T=old"}) {
		t.Fatalf("retired = %v", got)
	}
	if got := tx.Resource(a.Num, "T"); got.PhysicalResourceId != "new" {
		t.Fatalf("current = %+v", got)
	}
	tx.DeleteRetired(old)
	if len(tx.RetiredOf(a.Num)) != 0 {
		t.Fatal("deleteRetired")
	}

	if err := tx.PutExport(&ExportRecord{Name: "X", Value: "1", StackId: a.StackId}); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutExport(&ExportRecord{Name: "X", Value: "2", StackId: b.StackId}); err == nil {
		t.Fatal("an export name taken by another stack was accepted")
	}
	tx.SetImports(b.StackId, []string{"X", "Y"})
	tx.SetImports(b.StackId, []string{"X"})
	if got := tx.Importers("X"); !reflect.DeepEqual(got, []string{b.StackId}) {
		t.Fatalf("importers = %v", got)
	}
	if got := tx.Importers("Y"); len(got) != 0 {
		t.Fatalf("setImports kept an old import: %v", got)
	}

	op := &OperationRecord{Id: "op1", StackId: a.StackId, Kind: "CreateStack", Open: true}
	if err := tx.PutOperation(op); err != nil {
		t.Fatal(err)
	}
	if err := tx.PutOperation(&OperationRecord{Id: "op2", StackId: a.StackId, Open: true}); err == nil {
		t.Fatal("two open operations on one stack")
	}
	if err := tx.PutOperation(&OperationRecord{Id: "op0", StackId: a.StackId, Seq: 0}); err != nil {
		t.Fatalf("a closed operation beside an open one: %v", err)
	}
	for i := uint32(0); i < 3; i++ {
		tx.PutStep(&StepRecord{OperationId: "op1", Index: 2 - i, LogicalId: fmt.Sprint(i)})
	}
	if steps := tx.StepsOf("op1"); len(steps) != 3 || steps[0].Index != 0 {
		t.Fatalf("steps = %+v", steps)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = s.Begin()
	if got := tx.OperationOf(a.StackId); got == nil || got.Id != "op1" {
		t.Fatalf("operationOf = %+v", got)
	}
	tx.DeleteOperation("op1")
	if tx.OperationOf(a.StackId) != nil || len(tx.StepsOf("op1")) != 0 {
		t.Fatal("deleteOperation left rows")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := s.Read().ExportsOf(a.StackId); len(got) != 1 || got[0].Value != "1" {
		t.Fatalf("exportsOf = %+v", got)
	}
}

// TestExpectSizesOnlyAnEmptyOverlay: Expect makes the overlay's map of a
// table only while the transaction has written none of its rows (one with
// rows is never replaced, which would lose them), and the rows written
// after it read, roll back and commit as any others.
func TestExpectSizesOnlyAnEmptyOverlay(t *testing.T) {
	s := newTestStore(t)
	tx := s.BeginLoop()
	st := addStack(t, tx, "app")
	tx.Expect(TResources, 100)
	tx.PutResource(&ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "A", PhysicalResourceId: "pA"})
	tx.Expect(TResources, 1000) // has a row: kept
	tx.Expect(TStacks, 1000)    // has a row: kept
	sp := tx.Savepoint()
	tx.PutResource(&ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "B", PhysicalResourceId: "pB"})
	if got := logicalIDs(tx.ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB"}) {
		t.Fatalf("resources before the rollback = %v", got)
	}
	tx.RollbackTo(sp)
	tx.Release()
	if tx.StackByName("app") == nil {
		t.Fatal("Expect on a table with a row lost it")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := logicalIDs(s.Read().ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA"}) {
		t.Fatalf("resources after the commit = %v", got)
	}
	// A read transaction writes nothing: Expect does nothing.
	rd := s.Read()
	rd.Expect(TResources, 10)
	if rd.ov[TResources] != nil {
		t.Fatal("Expect made an overlay in a read transaction")
	}
}

// TestResourceKeyMadeOnce: PutResource gives a record its key once, its
// clones carry it, and a clone that names another resource (or stack) has
// that one's key, not the carried one.
func TestResourceKeyMadeOnce(t *testing.T) {
	s := newTestStore(t)
	tx := s.Begin()
	st := addStack(t, tx, "app")
	r := &ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "A", PhysicalResourceId: "pA"}
	tx.PutResource(r)
	if r.pk != ResourceKey(st.Num, "A") || r.Key() != r.pk {
		t.Fatalf("key %q, want %q", r.pk, ResourceKey(st.Num, "A"))
	}
	c := r.Clone()
	c.LogicalResourceId = "B"
	if c.Key() != ResourceKey(st.Num, "B") {
		t.Fatalf("a clone renamed B has key %q", c.Key())
	}
	d := r.Clone()
	d.Num++
	if d.Key() != ResourceKey(st.Num+1, "A") {
		t.Fatalf("a clone of another stack has key %q", d.Key())
	}
	tx.PutResource(c)
	if got := logicalIDs(tx.ResourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pA"}) {
		t.Fatalf("resources = %v", got)
	}
}
