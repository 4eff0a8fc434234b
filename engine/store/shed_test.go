package store

import (
	"slices"
	"strings"
	"testing"
)

// mapBacking is a Backing over a map of saved rows, counting its Gets.
type mapBacking struct {
	rows [numTables]map[string]Record
	gets int
}

func (b *mapBacking) Get(t TableID, k string) (Record, error) {
	b.gets++
	return b.rows[t][k], nil
}

func (b *mapBacking) Scan(t TableID, ix, prefix string, fn func(r Record) bool) error {
	if ix != IxID {
		return nil
	}
	for k, r := range b.rows[t] {
		if strings.HasPrefix(k, prefix) && !fn(r) {
			return nil
		}
	}
	return nil
}

func (b *mapBacking) LastChunk(uint32) (*EventChunk, error) { return nil, nil }

// save writes the store's dirty rows to the backing, as a state file does.
func (b *mapBacking) save(t *testing.T, s *Store) {
	t.Helper()
	if err := s.Dirty(func(tb TableID, k string, r Record) error {
		if b.rows[tb] == nil {
			b.rows[tb] = map[string]Record{}
		}
		if r == nil {
			delete(b.rows[tb], k)
		} else {
			b.rows[tb][k] = r
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s.MarkSaved()
}

// A save forgets the keys of the rows commits deleted (memory no longer
// answers for them: the backing does, with no row), and keeps those of the
// rows that are there.
func TestSaveForgetsDeletedKeys(t *testing.T) {
	s := newTestStore(t)
	b := &mapBacking{}
	s.SetBacking(b)
	tx := s.Begin()
	tx.PutStep(&StepRecord{OperationId: "op1", Index: 1})
	tx.PutStep(&StepRecord{OperationId: "op1", Index: 2})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = s.Begin()
	tx.Del(TSteps, StepKey("op1", 1))
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	b.save(t, s)
	gone, kept := StepKey("op1", 1), StepKey("op1", 2)
	if _, ok := s.lz.known[TSteps][gone]; ok {
		t.Fatal("the key of a deleted row is still known after the save")
	}
	if _, ok := s.lz.known[TSteps][kept]; !ok {
		t.Fatal("the key of a saved row was forgotten")
	}
	before := b.gets
	r := s.Read()
	if r.Step("op1", 1) != nil || r.Step("op1", 2) == nil {
		t.Fatal("the steps read back are not what was saved")
	}
	if b.gets != before+1 {
		t.Fatalf("%d reads of the backing for the forgotten key and the kept one, want 1", b.gets-before)
	}
	// A row deleted by one commit and written again by the next is not
	// forgotten.
	tx = s.Begin()
	tx.Del(TSteps, kept)
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	tx = s.Begin()
	tx.PutStep(&StepRecord{OperationId: "op1", Index: 2, LogicalId: "again"})
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	b.save(t, s)
	if _, ok := s.lz.known[TSteps][kept]; !ok {
		t.Fatal("a row written again after its delete was forgotten")
	}
}

// dirtyKeys are the rows a save would write: "key" for a row, "-key" for
// a delete.
func dirtyKeys(t *testing.T, s *Store, tb TableID) []string {
	t.Helper()
	var out []string
	if err := s.Dirty(func(got TableID, k string, r Record) error {
		if got != tb {
			return nil
		}
		if r == nil {
			k = "-" + k
		}
		out = append(out, k)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// A row the backing never had, made and deleted again between two saves,
// is not written at all; a delete memory cannot vouch for (a blind write,
// a row the backing holds, a row saved before) is.
func TestSaveSkipsRowsBornAndGone(t *testing.T) {
	s := newTestStore(t)
	b := &mapBacking{rows: [numTables]map[string]Record{TSteps: {StepKey("old", 1): &StepRecord{OperationId: "old", Index: 1}}}}
	s.SetBacking(b)
	commit := func(fn func(tx *Txn)) {
		t.Helper()
		tx := s.Begin()
		fn(tx)
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	commit(func(tx *Txn) {
		if tx.Step("read", 1) != nil || tx.Step("read", 2) != nil || tx.Step("read", 3) != nil || tx.Step("old", 1) == nil {
			t.Fatal("the backing's steps read wrong")
		}
		tx.PutStep(&StepRecord{OperationId: "read", Index: 1}) // read absent, made, then deleted
		tx.PutStep(&StepRecord{OperationId: "read", Index: 2}) // read absent, made, deleted, made again
		tx.PutStep(&StepRecord{OperationId: "read", Index: 3}) // read absent, made and kept
		tx.PutStep(&StepRecord{OperationId: "blind", Index: 1})
	})
	commit(func(tx *Txn) {
		tx.Del(TSteps, StepKey("read", 1))
		tx.Del(TSteps, StepKey("read", 2))
		tx.Del(TSteps, StepKey("blind", 1))
		tx.Del(TSteps, StepKey("old", 1))
	})
	commit(func(tx *Txn) { tx.PutStep(&StepRecord{OperationId: "read", Index: 2, LogicalId: "again"}) })
	want := []string{"-" + StepKey("blind", 1), "-" + StepKey("old", 1), StepKey("read", 2), StepKey("read", 3)}
	slices.Sort(want)
	if got := dirtyKeys(t, s, TSteps); !slices.Equal(got, want) {
		t.Fatalf("a save writes %q, want %q", got, want)
	}
	b.save(t, s)
	if len(b.rows[TSteps]) != 2 || b.rows[TSteps][StepKey("read", 2)] == nil || b.rows[TSteps][StepKey("read", 3)] == nil {
		t.Fatalf("saved steps %v", b.rows[TSteps])
	}
	// Once saved, a row is the backing's: its delete is written.
	commit(func(tx *Txn) { tx.Del(TSteps, StepKey("read", 3)) })
	if got := dirtyKeys(t, s, TSteps); !slices.Equal(got, []string{"-" + StepKey("read", 3)}) {
		t.Fatalf("after a save, the delete of a saved row: %q", got)
	}
}
