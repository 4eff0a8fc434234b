package store

import (
	"encoding/binary"
	"fmt"
	"strings"

	memdb "github.com/hashicorp/go-memdb"
)

// Shedding. A store over a backing keeps in memory every row it read or
// committed, and a deleted stack keeps its rows (DescribeStackEvents and
// DescribeStackResources answer for it by its ARN), so a long session —
// serve, driven by a test suite that creates and deletes stacks all day —
// would hold the rows of every stack it ever deleted: about 2.4 KB per
// resource, 1.2 MB per 500-resource stack. After a save, when every row is
// in the backing, ShedDeleted drops the rows of the stacks deleted since
// from memory; a read that needs them again reads them from the backing,
// as it reads any row it was not given.
//
// Only the tables partitioned by stack Num are shed (resources, retired
// resources, events: nearly all of a stack's rows). They have no secondary
// index, and a partition shed is dropped whole: its rows from the buffer
// and from memdb, their keys from the known keys, its last event chunk and
// event-id bookkeeping. The ranges read whole stay as they were; the
// partition is marked shed (lazy.shed) and a scan that meets it reads the
// backing again, until a read of the whole partition clears the mark.

// ShedDeleted drops from memory the rows of the stacks that commits made
// DELETE_COMPLETE since it last ran, and of deleted stacks whose rows were
// read back since. It does nothing for a store held whole in memory, and
// while rows are dirty (call it right after a save) or a write transaction
// is open. It returns how many rows it dropped.
func (s *Store) ShedDeleted() (int, error) {
	lz := s.lz
	if lz == nil || lz.err != nil || s.Cur != nil || len(lz.pending) == 0 || !s.saved() {
		return 0, nil
	}
	// memdb first, in one write transaction: when it fails, nothing is
	// dropped.
	var w *memdb.Txn
	type row struct {
		t TableID
		k string
	}
	var rows []row
	for num := range lz.pending {
		p := []byte(NumKey(num))
		for _, t := range stackTables {
			if !s.dbHas[t] {
				continue
			}
			if w == nil {
				w = s.db.Txn(true)
			}
			it, err := s.db.Txn(false).Get(t.String(), IxID+"_prefix", p)
			for err == nil {
				raw := it.Next()
				if raw == nil {
					break
				}
				if err = w.Delete(t.String(), raw); err == nil {
					rows = append(rows, row{t, raw.(Record).Key()})
				}
			}
			if err != nil {
				w.Abort()
				return 0, fmt.Errorf("store: shed the %s rows of stack %d: %w", t, num, err)
			}
		}
	}
	if w != nil {
		w.Commit()
	}
	dropped := len(rows)
	for _, r := range rows {
		delete(lz.known[r.t], r.k)
	}
	for num := range lz.pending {
		p := NumKey(num)
		for _, t := range stackTables {
			known := lz.known[t]
			n := s.buf[t].drop(p, func(k string) { delete(known, k) })
			s.Buffered -= n
			dropped += n
			if lz.shed[t] == nil {
				lz.shed[t] = map[string]struct{}{}
			}
			lz.shed[t][p] = struct{}{}
		}
		delete(s.tails, num)
		delete(s.Dups, num)
		delete(lz.tails, num)
		delete(lz.dups, num)
		lz.shedNums[num] = struct{}{}
	}
	clear(lz.pending)
	return dropped, nil
}

// stackTables are the tables partitioned by stack Num, which are shed.
var stackTables = func() []TableID {
	var out []TableID
	for t := TableID(0); t < numTables; t++ {
		if partitioningOf(t) == byStackNum {
			out = append(out, t)
		}
	}
	return out
}()

// saved reports whether no row changed since the last save.
func (s *Store) saved() bool {
	if s.dirty == nil {
		return true
	}
	for _, d := range s.dirty.keys {
		if len(d) > 0 {
			return false
		}
	}
	return true
}

// noteDeleted remembers, for the next ShedDeleted, the stacks a commit
// made DELETE_COMPLETE.
func (lz *lazy) noteDeleted(ov map[string]Record) {
	for _, r := range ov {
		if st, ok := r.(*StackRecord); ok && !st.Live() && st.Num != 0 {
			lz.pending[st.Num] = struct{}{}
		}
	}
}

// noteLaid remembers, for the next ShedDeleted, a shed stack whose row was
// read back from the backing.
func (lz *lazy) noteLaid(t TableID, k string) {
	if len(lz.shedNums) == 0 || partitioningOf(t) != byStackNum || len(k) < 4 {
		return
	}
	if num := binary.BigEndian.Uint32([]byte(k[:4])); hasNum(lz.shedNums, num) {
		lz.pending[num] = struct{}{}
	}
}

func hasNum(m map[uint32]struct{}, n uint32) bool { _, ok := m[n]; return ok }

// fresh reports whether stack num has no rows in the backing: it was made
// since the backing was opened, and never shed (a stack shed was saved).
func (lz *lazy) fresh(num uint32) bool { return num > lz.maxNum && !hasNum(lz.shedNums, num) }

// meetsShed reports whether a scan of table t in index ix from prefix
// meets a partition that was shed and not read whole since: memory does
// not answer for it, whatever the ranges say.
func (lz *lazy) meetsShed(t TableID, ix, prefix string) bool {
	sh := lz.shed[t]
	if len(sh) == 0 {
		return false
	}
	if ix != IxID {
		return true
	}
	if p := partition(t, prefix); p != "" {
		_, ok := sh[p]
		return ok
	}
	for p := range sh {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// readBack clears the shed marks of the partitions a scan of the primary
// index from prefix read whole.
func (lz *lazy) readBack(t TableID, ix, prefix string) {
	sh := lz.shed[t]
	if len(sh) == 0 || ix != IxID {
		return
	}
	if p := partition(t, prefix); p != "" {
		if len(prefix) == len(p) {
			delete(sh, p)
		}
		return
	}
	for p := range sh {
		if strings.HasPrefix(p, prefix) {
			delete(sh, p)
		}
	}
}

// Resident counts the rows of table t whose key starts with prefix that
// memory holds, in the buffer or in memdb (deletion marks included): what
// shedding leaves (for tests and diagnostics).
func (s *Store) Resident(t TableID, prefix string) int {
	keys := map[string]struct{}{}
	s.buf[t].eachIn(prefix, func(k string, _ Record) {
		if strings.HasPrefix(k, prefix) {
			keys[k] = struct{}{}
		}
	})
	if s.dbHas[t] {
		it, err := s.db.Txn(false).Get(t.String(), IxID+"_prefix", []byte(prefix))
		for raw := any(nil); err == nil; {
			if raw = it.Next(); raw == nil {
				break
			}
			keys[raw.(Record).Key()] = struct{}{}
		}
	}
	return len(keys)
}
