package engine

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

func newTestStore(t testing.TB) *store {
	t.Helper()
	s, err := newStore(identity{Region: "us-east-1", AccountID: "123456789012", Partition: "aws"}, DefaultEpoch.UnixNano())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func addStack(t testing.TB, tx *txn, name string) *stackRecord {
	t.Helper()
	st := &stackRecord{StackId: tx.newStackID(name), StackName: name, StackStatus: statemachine.StackStatusCreateComplete}
	if err := tx.putStack(st); err != nil {
		t.Fatal(err)
	}
	return st
}

func logicalIDs(rs []*resourceRecord) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.LogicalResourceId+"="+r.PhysicalResourceId)
	}
	return out
}

func TestStoreReadsItsOwnWritesAndCommits(t *testing.T) {
	s := newTestStore(t)
	tx := s.begin()
	st := addStack(t, tx, "app")
	for _, id := range []string{"B", "A", "C"} {
		tx.putResource(&resourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, PhysicalResourceId: "p" + id})
	}
	if got := tx.resource(st.Num, "A"); got == nil || got.PhysicalResourceId != "pA" {
		t.Fatalf("read of an uncommitted write: %+v", got)
	}
	// Nothing is visible outside before the commit.
	if r := s.read().stackByName("app"); r != nil {
		t.Fatal("an uncommitted stack is visible to a read transaction")
	}
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	rd := s.read()
	if got := logicalIDs(rd.resourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("resources after commit = %v", got)
	}

	// A second transaction: overlay and snapshot merge in key order.
	tx = s.begin()
	r := tx.resource(st.Num, "B").clone()
	r.PhysicalResourceId = "pB2"
	tx.putResource(r)
	tx.deleteResource(st.Num, "C")
	tx.putResource(&resourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "AA", PhysicalResourceId: "pAA"})
	if got := logicalIDs(tx.resourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "AA=pAA", "B=pB2"}) {
		t.Fatalf("merged scan = %v", got)
	}
	// The snapshot still holds the old rows.
	if got := logicalIDs(s.read().resourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("a read transaction saw uncommitted changes: %v", got)
	}
	tx.abort()
	if got := logicalIDs(s.read().resourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "B=pB", "C=pC"}) {
		t.Fatalf("after abort = %v", got)
	}
	if s.cur != nil {
		t.Fatal("abort left the transaction open")
	}
}

func TestStoreAbortChangesNothing(t *testing.T) {
	s := newTestStore(t)
	tx := s.begin()
	st := addStack(t, tx, "app")
	tx.stackEvent(st, statemachine.StackStatusCreateInProgress, "User Initiated")
	tx.schedule(&Task{Kind: "k"})
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	before := s.meta
	beforeQueue := s.queue.len()
	beforeState, err := encodeState(s)
	if err != nil {
		t.Fatal(err)
	}

	tx = s.begin()
	addStack(t, tx, "other")
	tx.stackEvent(st, statemachine.StackStatusCreateComplete, "")
	tx.resourceEvent(st, resourceEvent{LogicalID: "R", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	tx.schedule(&Task{Kind: "k2"})
	tx.unschedule(tx.nextTask())
	tx.putObject(&resources.Object{Type: "T", ID: "x"})
	tx.newToken("x")
	tx.meta.Now += 5
	tx.abort()

	if s.meta != before || s.queue.len() != beforeQueue {
		t.Fatalf("abort left meta %+v (was %+v) and %d tasks (was %d)", s.meta, before, s.queue.len(), beforeQueue)
	}
	after, err := encodeState(s)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(beforeState) {
		t.Fatalf("abort changed the state:\n%s", lineDiff(string(beforeState), string(after)))
	}
	if d := s.dups[st.Num]; d != nil && len(d.n) != 0 {
		t.Fatalf("abort left event-id bookkeeping: %+v", d.n)
	}
}

func TestStoreSavepoint(t *testing.T) {
	s := newTestStore(t)
	tx := s.begin()
	st := addStack(t, tx, "app")
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	t1 := tx.schedule(&Task{Kind: "first"})
	tx.release()

	sp := tx.savepoint()
	tx.unschedule(t1)
	tx.schedule(&Task{Kind: "second"})
	tx.putResource(&resourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: "A"})
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	tx.meta.Now += 10
	tx.rollbackTo(sp)

	if got := tx.tasks(nil); len(got) != 1 || got[0] != t1 {
		t.Fatalf("queue after rollback: %v", got)
	}
	if tx.resource(st.Num, "A") != nil {
		t.Fatal("a row written after the savepoint survived")
	}
	if n := tx.eventCount(st.Num); n != 1 {
		t.Fatalf("events after rollback = %d, want 1", n)
	}
	if tx.meta != sp.meta {
		t.Fatal("meta not restored")
	}
	// The event-id counter is back: the next CREATE_IN_PROGRESS of A at
	// this instant is the second, not the third.
	tx.resourceEvent(st, resourceEvent{LogicalID: "A", Type: "T", Status: statemachine.ResourceStatusCreateInProgress})
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	var ids []string
	rd := s.read()
	rd.eventsForward(st.Num, func(seq uint64, r *eventRecord) bool {
		ids = append(ids, s.stackEventOf(st, seq, r).EventId)
		return true
	})
	want := []string{"A-CREATE_IN_PROGRESS-2025-01-01T00:00:00.000Z", "A-CREATE_IN_PROGRESS-2025-01-01T00:00:00.000Z-2"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("event ids = %v, want %v", ids, want)
	}
}

func TestStoreStackNames(t *testing.T) {
	s := newTestStore(t)
	tx := s.begin()
	first := addStack(t, tx, "app")
	dup := &stackRecord{StackId: tx.newStackID("app"), StackName: "app", StackStatus: statemachine.StackStatusCreateInProgress}
	if err := tx.putStack(dup); err == nil {
		t.Fatal("two live stacks with one name")
	}
	// Deleted, the name is free again; the old stack stays findable by id.
	gone := first.clone()
	gone.StackStatus = statemachine.StackStatusDeleteComplete
	if err := tx.putStack(gone); err != nil {
		t.Fatal(err)
	}
	second := addStack(t, tx, "app")
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	rd := s.read()
	if got := rd.findStack("app"); got == nil || got.StackId != second.StackId {
		t.Fatalf("by name: %+v", got)
	}
	if got := rd.findStack(first.StackId); got == nil || got.StackStatus != statemachine.StackStatusDeleteComplete {
		t.Fatalf("deleted stack by id: %+v", got)
	}
	if got := rd.stackByNum(second.Num); got == nil || got.StackId != second.StackId {
		t.Fatalf("by num: %+v", got)
	}
	if n := len(rd.allStacks()); n != 2 {
		t.Fatalf("allStacks = %d", n)
	}
}

func TestStoreRetiredExportsImportsOperations(t *testing.T) {
	s := newTestStore(t)
	tx := s.begin()
	a, b := addStack(t, tx, "a"), addStack(t, tx, "b")
	r := &resourceRecord{Num: a.Num, StackId: a.StackId, LogicalResourceId: "T", PhysicalResourceId: "old"}
	tx.putResource(r)
	old := tx.retire(r, "Replaced")
	tx.putResource(&resourceRecord{Num: a.Num, StackId: a.StackId, LogicalResourceId: "T", PhysicalResourceId: "new"})
	if got := logicalIDs(tx.retiredOf(a.Num)); !reflect.DeepEqual(got, []string{"T=old"}) {
		t.Fatalf("retired = %v", got)
	}
	if got := tx.resource(a.Num, "T"); got.PhysicalResourceId != "new" {
		t.Fatalf("current = %+v", got)
	}
	tx.deleteRetired(old)
	if len(tx.retiredOf(a.Num)) != 0 {
		t.Fatal("deleteRetired")
	}

	if err := tx.putExport(&exportRecord{Name: "X", Value: "1", StackId: a.StackId}); err != nil {
		t.Fatal(err)
	}
	if err := tx.putExport(&exportRecord{Name: "X", Value: "2", StackId: b.StackId}); err == nil {
		t.Fatal("an export name taken by another stack was accepted")
	}
	tx.setImports(b.StackId, []string{"X", "Y"})
	tx.setImports(b.StackId, []string{"X"})
	if got := tx.importers("X"); !reflect.DeepEqual(got, []string{b.StackId}) {
		t.Fatalf("importers = %v", got)
	}
	if got := tx.importers("Y"); len(got) != 0 {
		t.Fatalf("setImports kept an old import: %v", got)
	}

	op := &operationRecord{Id: "op1", StackId: a.StackId, Kind: "CreateStack", Open: true}
	if err := tx.putOperation(op); err != nil {
		t.Fatal(err)
	}
	if err := tx.putOperation(&operationRecord{Id: "op2", StackId: a.StackId, Open: true}); err == nil {
		t.Fatal("two open operations on one stack")
	}
	if err := tx.putOperation(&operationRecord{Id: "op0", StackId: a.StackId, Seq: 0}); err != nil {
		t.Fatalf("a closed operation beside an open one: %v", err)
	}
	for i := uint32(0); i < 3; i++ {
		tx.putStep(&stepRecord{OperationId: "op1", Index: 2 - i, LogicalId: fmt.Sprint(i)})
	}
	if steps := tx.stepsOf("op1"); len(steps) != 3 || steps[0].Index != 0 {
		t.Fatalf("steps = %+v", steps)
	}
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	tx = s.begin()
	if got := tx.operationOf(a.StackId); got == nil || got.Id != "op1" {
		t.Fatalf("operationOf = %+v", got)
	}
	tx.deleteOperation("op1")
	if tx.operationOf(a.StackId) != nil || len(tx.stepsOf("op1")) != 0 {
		t.Fatal("deleteOperation left rows")
	}
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	if got := s.read().exportsOf(a.StackId); len(got) != 1 || got[0].Value != "1" {
		t.Fatalf("exportsOf = %+v", got)
	}
}

func TestStoreCloud(t *testing.T) {
	e := newTestEngine(t, Options{})
	c := e.reg.Cloud()
	if _, ok := c.(*storeCloud); !ok {
		t.Fatalf("the registry's cloud is %T, not the store's", c)
	}
	st := seed(t, e).stack("app")
	// Outside any transaction, each call is its own.
	for _, id := range []string{"b", "a"} {
		if err := c.Put(&resources.Object{Type: "AWS::S3::Bucket", ID: id, StackID: st.StackId, LogicalID: "B",
			Model: map[string]any{"BucketName": id}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Put(&resources.Object{Type: "AWS::SNS::Topic", ID: "t"}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get("AWS::S3::Bucket", "a")
	if err != nil || got == nil || got.Model["BucketName"] != "a" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	got.Model["BucketName"] = "changed"
	if again, _ := c.Get("AWS::S3::Bucket", "a"); again.Model["BucketName"] != "a" {
		t.Fatal("Get returned the stored object, not a copy")
	}
	list, _ := c.List("AWS::S3::Bucket")
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "b" {
		t.Fatalf("List = %+v", list)
	}
	e.mu.Lock()
	objs := e.st.read().objectsOf(st)
	e.mu.Unlock()
	if len(objs) != 2 {
		t.Fatalf("objectsOf = %d objects, want 2", len(objs))
	}
	if ok, _ := c.Delete("AWS::S3::Bucket", "a"); !ok {
		t.Fatal("Delete of an existing object said false")
	}
	if ok, _ := c.Delete("AWS::S3::Bucket", "a"); ok {
		t.Fatal("Delete of a missing object said true")
	}
	if err := c.Put(&resources.Object{Type: "", ID: "x"}); err == nil {
		t.Fatal("an object without a type was stored")
	}

	// Inside a transaction (a handler invocation), the cloud writes through
	// it, and an abort takes the writes back.
	e.mu.Lock()
	err = e.update(func(tx *txn) error {
		if err := c.Put(&resources.Object{Type: "AWS::S3::Bucket", ID: "in-txn"}); err != nil {
			return err
		}
		if o, _ := c.Get("AWS::S3::Bucket", "in-txn"); o == nil {
			return errors.New("the cloud does not see its own write in the transaction")
		}
		return errors.New("refused")
	})
	e.mu.Unlock()
	if err == nil || err.Error() != "refused" {
		t.Fatal(err)
	}
	if o, _ := c.Get("AWS::S3::Bucket", "in-txn"); o != nil {
		t.Fatal("a cloud write of an aborted transaction survived")
	}
}

func TestStoreGenericProviderUsesTheStore(t *testing.T) {
	e := newTestEngine(t, Options{})
	st := seed(t, e).stack("app")
	p, err := e.reg.Provider("AWS::SNS::Topic")
	if err != nil {
		t.Fatal(err)
	}
	req := &resources.Request{Action: resources.ActionCreate, ClientRequestToken: "tok", StackID: st.StackId,
		LogicalResourceIdentifier: "Topic", ResourceType: "AWS::SNS::Topic", Region: "us-east-1",
		AWSAccountID: "123456789012", AWSPartition: "aws", Attempt: 1,
		DesiredResourceState: map[string]any{"TopicName": "t1"}}
	res, err := resources.Drive(ctx(), p, req, 0)
	if err != nil || res.Last().Status != resources.StatusSuccess {
		t.Fatalf("create: %+v %v", res.Last(), err)
	}
	e.mu.Lock()
	objs := e.st.read().objectsOf(st)
	e.mu.Unlock()
	if len(objs) != 1 || objs[0].Obj.LogicalID != "Topic" {
		t.Fatalf("objects of the stack: %+v", objs)
	}
}

// Committed rows wait in the store's buffer, laid over memdb: reads and
// scans (primary and secondary indexes, from a key) merge the overlay, the
// buffer and memdb in key order; a row made and deleted before memdb had it
// never reaches memdb; a deleted row memdb holds is hidden until the
// buffer is written in (flush, when it holds more than maxBuffered rows).
func TestStoreBuffer(t *testing.T) {
	s := newTestStore(t)
	defer func(n int) { maxBuffered = n }(maxBuffered)
	maxBuffered = 1 << 20
	put := func(tx *txn, st *stackRecord, ids ...string) {
		for _, id := range ids {
			tx.putResource(&resourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, PhysicalResourceId: "p" + id})
		}
	}
	tx := s.begin()
	st := addStack(t, tx, "app")
	put(tx, st, "B", "D")
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	if err := s.flush(); err != nil { // B, D in memdb
		t.Fatal(err)
	}
	tx = s.begin()
	put(tx, st, "A", "C", "E")
	tx.deleteResource(st.Num, "D")
	if err := tx.commit(); err != nil { // A, C, E and D's deletion in the buffer
		t.Fatal(err)
	}
	if s.buf[tResources] == nil || len(s.buf[tResources]) != 4 {
		t.Fatalf("buffer %v", s.buf[tResources])
	}
	if raw, _ := s.read().snap.First(tResources.String(), ixID, []byte(resourceKey(st.Num, "A"))); raw != nil {
		t.Fatal("a buffered row is in memdb")
	}
	tx = s.begin()
	put(tx, st, "AA")
	tx.deleteResource(st.Num, "E") // only ever in the buffer
	r := tx.resource(st.Num, "C").clone()
	r.PhysicalResourceId = "pC2"
	tx.putResource(r)
	if got := logicalIDs(tx.resourcesOf(st.Num)); !reflect.DeepEqual(got, []string{"A=pA", "AA=pAA", "B=pB", "C=pC2"}) {
		t.Fatalf("three layers merged: %v", got)
	}
	var from []string
	tx.scanFrom(tResources, ixID, numKey(st.Num), resourceKey(st.Num, "AA"), func(r record) bool {
		from = append(from, r.(*resourceRecord).LogicalResourceId)
		return true
	})
	if !reflect.DeepEqual(from, []string{"AA", "B", "C"}) {
		t.Fatalf("scan from AA: %v", from)
	}
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	if _, kept := s.buf[tResources][resourceKey(st.Num, "E")]; kept {
		t.Fatal("a row made and deleted before memdb had it is still buffered")
	}
	rd := s.read()
	if rd.resource(st.Num, "D") != nil || rd.resource(st.Num, "C").PhysicalResourceId != "pC2" {
		t.Fatal("a read transaction does not see the buffer")
	}
	// A secondary index over buffered rows: the stack by name and by Num.
	if rd.stackByName("app") == nil || rd.stackByNum(st.Num) == nil {
		t.Fatal("secondary index scans miss the buffered stack")
	}
	before := logicalIDs(rd.resourcesOf(st.Num))
	state, err := encodeState(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.flush(); err != nil {
		t.Fatal(err)
	}
	if s.buffered != 0 || s.buf[tResources] != nil {
		t.Fatalf("flush left %d rows", s.buffered)
	}
	if got := logicalIDs(s.read().resourcesOf(st.Num)); !reflect.DeepEqual(got, before) {
		t.Fatalf("after flush: %v, before: %v", got, before)
	}
	if again, err := encodeState(s); err != nil || string(again) != string(state) {
		t.Fatalf("the state file differs after the flush: %v", err)
	}
	// A full buffer is written in at commit.
	maxBuffered = 2
	tx = s.begin()
	put(tx, st, "F", "G", "H")
	if err := tx.commit(); err != nil {
		t.Fatal(err)
	}
	if s.buffered != 0 {
		t.Fatalf("%d rows buffered past the bound", s.buffered)
	}
	if got := logicalIDs(s.read().resourcesOf(st.Num)); len(got) != 7 {
		t.Fatalf("after the bound: %v", got)
	}
}
