package store

import (
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
