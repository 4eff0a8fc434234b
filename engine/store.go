package engine

import (
	"fmt"
	"slices"
	"strings"

	memdb "github.com/hashicorp/go-memdb"
)

// store is everything the simulated world knows: the go-memdb database of
// tables (stacks, resources, events, exports, cloud objects, operations...),
// plus what changes on every step and is cheaper kept beside it: the
// virtual clock and counters (meta), the task queue, and the bookkeeping
// that keeps event ids unique.
//
// Transactions. A write transaction (begin) keeps its writes in an
// overlay — a map per table — that its own reads consult first. Writes are
// buffered because go-memdb copies a path of its radix tree on every write
// and a read in the same memdb transaction forgets which nodes it already
// copied: interleaving reads and writes, as the engine does, costs
// kilobytes and microseconds per write (measured: 17 µs and 12 KiB to pop
// and push one queue entry), where a map costs a hundred nanoseconds. The
// queue and the event-id bookkeeping are changed in place and undone from a
// journal; the overlay is journaled too, which gives savepoints: the loop
// rolls back a failed task alone.
//
// Commit moves the overlay into the store's buffer (buf): committed rows,
// a map per table again, laid over memdb. Every read consults the overlay,
// then the buffer, then memdb. The buffer is written into memdb (flush)
// only when it holds more than maxBuffered rows: a row changed by every
// task of a session then costs a map entry, not a memdb insert per commit
// (about 2 µs and a radix node, leaf and index entries each), and a row
// made and deleted in the session never reaches memdb. Scans merge the
// three in key order.
//
// One write transaction at a time: the engine's mutex guarantees it.
// Read transactions (read) see the last commit; the buffer is shared, not
// copied, so a read transaction must end before the next commit — every
// call runs under the engine's mutex, and none keeps a transaction.
type store struct {
	db   *memdb.MemDB
	id   identity
	meta meta
	// queue is the task queue (loop.go), committed state: a write
	// transaction changes it in place and journals the change.
	queue taskQueue
	// dups is, per stack Num, the event-id bookkeeping of the stack's
	// latest instant (events.go); changed in place, journaled.
	dups map[uint32]*dupState
	// cur is the write transaction in progress, if any: the simulated cloud
	// writes through it when a provider calls it during a handler
	// invocation.
	cur  *txn
	secs [numTables][]secondary
	// buf holds the committed rows not yet written into db, by table and
	// primary key; nil marks a row deleted from db. buffered counts them.
	buf      [numTables]map[string]record
	buffered int
	// tails is, per stack Num, the last event chunk committed (chunks are
	// never deleted, and a stack's next chunk is always a later one).
	tails map[uint32]*eventChunk
}

// maxBuffered is how many committed rows the store keeps out of memdb
// before it writes them in (bounding what a scan merges).
var maxBuffered = 1 << 17

// identity is the simulated account the store belongs to. It never changes
// once the store exists, and the state file keeps it.
type identity struct {
	Region    string
	AccountID string
	Partition string
	Seed      int64
}

// meta is what moves on every step: the virtual clock and the counters that
// make identifiers.
type meta struct {
	// Now is the virtual time, in nanoseconds since the Unix epoch.
	Now int64
	// IDs counts generated identifiers (UUIDs of stacks, change sets,
	// tokens).
	IDs uint64
	// Tasks counts scheduled tasks: the next task's Seq is Tasks+1.
	Tasks uint64
	// Stacks counts created stacks: the next stack's Num is Stacks+1.
	Stacks uint32
}

func newStore(id identity, now int64) (*store, error) {
	primary, err := memdb.NewMemDB(schema())
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// The store works on a snapshot of an empty database: a MemDB that is
	// not the primary does not track mutations for watchers (it closes no
	// channels on commit), and the store never watches.
	db := primary.Snapshot()
	s := &store{db: db, id: id, meta: meta{Now: now}, dups: map[uint32]*dupState{}, tails: map[uint32]*eventChunk{}}
	for _, ix := range secondaries() {
		s.secs[ix.table] = append(s.secs[ix.table], ix)
	}
	return s, nil
}

// txn is a transaction on the store. Every write transaction ends in commit
// or abort (Engine.update and the loop make sure of it).
type txn struct {
	s     *store
	snap  *memdb.Txn
	write bool
	done  bool
	meta  meta
	ov    [numTables]map[string]record
	// journal undoes, newest last, what the transaction changed since its
	// last release.
	journal []undo
	// chunks is, per stack Num, the event chunk this transaction appends to
	// (a copy it owns, also in the overlay).
	chunks map[uint32]*eventChunk
	// events are the events written and not yet handed to observers.
	events []pendingEvent
	// stackCache remembers the stacks read from the snapshot (nil: none).
	stackCache map[string]record
}

// read begins a read transaction: a snapshot of the last commit.
func (s *store) read() *txn {
	return &txn{s: s, snap: s.db.Txn(false), meta: s.meta}
}

// begin begins the write transaction. There is at most one.
func (s *store) begin() *txn {
	if s.cur != nil {
		panic("store: a write transaction is already open")
	}
	tx := &txn{s: s, snap: s.db.Txn(false), write: true, meta: s.meta}
	s.cur = tx
	return tx
}

// commit makes the transaction's changes the store's state: the overlay
// goes into the buffer (memdb gets it when the buffer is full).
func (tx *txn) commit() error {
	if !tx.write || tx.done {
		return nil
	}
	tx.done = true
	tx.s.cur = nil
	s := tx.s
	for t := tableID(0); t < numTables; t++ {
		if len(tx.ov[t]) == 0 {
			continue
		}
		buf := s.buf[t]
		if buf == nil {
			buf = make(map[string]record, len(tx.ov[t]))
			s.buf[t] = buf
		}
		for k, r := range tx.ov[t] {
			_, had := buf[k]
			switch {
			case r != nil:
				buf[k] = r
				if c, ok := r.(*eventChunk); ok {
					if tail := s.tails[c.Num]; tail == nil || c.Chunk >= tail.Chunk {
						s.tails[c.Num] = c
					}
				}
			case tx.inDB(t, k):
				buf[k] = nil // hides the row memdb holds
			default:
				// Made and deleted before memdb ever had it.
				delete(buf, k)
				if had {
					s.buffered--
				}
				continue
			}
			if !had {
				s.buffered++
			}
		}
	}
	s.meta = tx.meta
	tx.journal = nil
	if s.buffered > maxBuffered {
		return s.flush()
	}
	return nil
}

// inDB tells whether memdb holds a row of table t with key k.
func (tx *txn) inDB(t tableID, k string) bool {
	raw, err := tx.snap.First(t.String(), ixID, []byte(k))
	return err == nil && raw != nil
}

// flush writes the buffer into memdb, in one memdb write transaction.
func (s *store) flush() error {
	if s.buffered == 0 {
		return nil
	}
	w := s.db.Txn(true)
	for t := tableID(0); t < numTables; t++ {
		name := t.String()
		for k, r := range s.buf[t] {
			var err error
			if r == nil {
				var old any
				if old, err = w.First(name, ixID, []byte(k)); err == nil && old != nil {
					err = w.Delete(name, old)
				}
			} else {
				err = w.Insert(name, r)
			}
			if err != nil {
				w.Abort()
				return fmt.Errorf("store: flush %s %q: %w", name, k, err)
			}
		}
	}
	w.Commit()
	for t := range s.buf {
		s.buf[t] = nil
	}
	s.buffered = 0
	return nil
}

// clean reports whether the transaction wrote no row.
func (tx *txn) clean() bool {
	for _, ov := range tx.ov {
		if len(ov) > 0 {
			return false
		}
	}
	return true
}

// abort undoes everything the transaction changed since its last release.
func (tx *txn) abort() {
	if !tx.write || tx.done {
		return
	}
	tx.rollbackTo(savepoint{meta: tx.s.meta})
	tx.done = true
	tx.s.cur = nil
}

// end aborts the transaction unless it was committed: defer it.
func (tx *txn) end() { tx.abort() }

// savepoint marks a point a write transaction can roll back to.
type savepoint struct {
	journal int
	events  int
	meta    meta
}

func (tx *txn) savepoint() savepoint {
	return savepoint{journal: len(tx.journal), events: len(tx.events), meta: tx.meta}
}

// rollbackTo undoes every change made since sp, which must have been taken
// after the last release.
func (tx *txn) rollbackTo(sp savepoint) {
	for i := len(tx.journal) - 1; i >= sp.journal; i-- {
		tx.journal[i].apply(tx)
		tx.journal[i] = undo{}
	}
	tx.journal = tx.journal[:sp.journal]
	tx.events = tx.events[:sp.events]
	tx.meta = sp.meta
}

// release forgets the journal: what was done so far can no longer be rolled
// back, and the transaction keeps no memory of it beyond the overlay. The
// loop releases after each task that succeeds.
func (tx *txn) release() {
	clear(tx.journal)
	tx.journal = tx.journal[:0]
}

type undoKind uint8

const (
	undoRow       undoKind = iota // restore an overlay entry
	undoChunk                     // restore the chunk cache entry of a stack
	undoAppend                    // truncate a chunk's events
	undoQueuePush                 // remove a task that was pushed
	undoQueuePop                  // push back a task that was popped or removed
	undoDups                      // restore a stack's event-id bookkeeping
	undoDupCount                  // restore one event-id counter
)

// undo is one journal entry (56 bytes). Which fields hold what depends on
// the kind.
type undo struct {
	kind undoKind
	t    tableID
	had  bool
	c    uint16 // an old event-id count
	num  uint32
	n    uint64 // an old length, an old count, or an event-id hash
	key  string
	// obj is the old row (undoRow), the chunk (undoChunk, undoAppend), the
	// task (undoQueue*) or the old bookkeeping (undoDups).
	obj any
}

func (u *undo) apply(tx *txn) {
	switch u.kind {
	case undoRow:
		if u.had {
			r, _ := u.obj.(record)
			tx.ov[u.t][u.key] = r
		} else {
			delete(tx.ov[u.t], u.key)
		}
	case undoChunk:
		if c, _ := u.obj.(*eventChunk); c != nil {
			tx.chunks[u.num] = c
		} else {
			delete(tx.chunks, u.num)
		}
	case undoAppend:
		c := u.obj.(*eventChunk)
		clear(c.Events[u.n:])
		c.Events = c.Events[:u.n]
	case undoQueuePush:
		tx.s.queue.remove(u.obj.(*Task))
	case undoQueuePop:
		tx.s.queue.push(u.obj.(*Task))
	case undoDups:
		if d, _ := u.obj.(*dupState); d != nil {
			tx.s.dups[u.num] = d
		} else {
			delete(tx.s.dups, u.num)
		}
	case undoDupCount:
		if d := tx.s.dups[u.num]; d != nil {
			if u.had {
				d.n[u.n] = u.c
			} else {
				delete(d.n, u.n)
			}
		}
	}
}

func (tx *txn) mustWrite() {
	if !tx.write || tx.done {
		panic("store: write outside an open write transaction")
	}
}

// get returns the row of table t with primary key k, or nil.
func (tx *txn) get(t tableID, k string) record {
	if ov := tx.ov[t]; ov != nil {
		if r, ok := ov[k]; ok {
			return r
		}
	}
	if buf := tx.s.buf[t]; buf != nil {
		if r, ok := buf[k]; ok {
			return r
		}
	}
	return tx.first(t, []byte(k))
}

// getb is get with the key in a buffer the caller keeps: nothing is
// allocated when the row is in the overlay.
func (tx *txn) getb(t tableID, k []byte) record {
	if ov := tx.ov[t]; ov != nil {
		if r, ok := ov[string(k)]; ok {
			return r
		}
	}
	if buf := tx.s.buf[t]; buf != nil {
		if r, ok := buf[string(k)]; ok {
			return r
		}
	}
	// memdb's lookup takes its key as an interface and so makes it escape:
	// copy it here, on the miss path only, so that the caller's buffer can
	// stay on its stack (a hit in the overlay allocates nothing).
	return tx.first(t, append(make([]byte, 0, len(k)), k...))
}

// first reads a row from the snapshot. Stacks, read on every step, are
// remembered for the rest of a write transaction.
func (tx *txn) first(t tableID, k []byte) record {
	if t == tStacks && tx.stackCache != nil {
		if r, ok := tx.stackCache[string(k)]; ok {
			return r
		}
	}
	raw, err := tx.snap.First(t.String(), ixID, k)
	if err != nil {
		panic(fmt.Sprintf("store: get %s: %v", t, err)) // a schema bug
	}
	var r record
	if raw != nil {
		r = raw.(record)
	}
	if t == tStacks && tx.write {
		if tx.stackCache == nil {
			tx.stackCache = map[string]record{}
		}
		tx.stackCache[string(k)] = r
	}
	return r
}

// put writes a row (inserting or replacing the row with its key). The row
// must be a fresh copy: see the note in store_records.go.
func (tx *txn) put(r record) {
	tx.mustWrite()
	tx.setRow(r.table(), r.key(), r)
}

// del deletes the row of table t with primary key k (if there is one).
func (tx *txn) del(t tableID, k string) {
	tx.mustWrite()
	tx.setRow(t, k, nil)
}

func (tx *txn) setRow(t tableID, k string, r record) {
	ov := tx.ov[t]
	if ov == nil {
		ov = map[string]record{}
		tx.ov[t] = ov
	}
	prev, had := ov[k]
	u := undo{kind: undoRow, t: t, key: k, had: had}
	if prev != nil {
		u.obj = prev
	}
	tx.journal = append(tx.journal, u)
	ov[k] = r
}

// scan calls fn, in index order, for every row of table t whose key in
// index ix starts with prefix, until fn returns false. ix is ixID or a
// secondary index. With rows of t in the overlay or the buffer it costs
// O(rows in range + those rows): iterate in bulk, not per step.
func (tx *txn) scan(t tableID, ix string, prefix string, fn func(r record) bool) {
	tx.scanFrom(t, ix, prefix, "", fn)
}

// scanFrom is scan starting at the first key (of the primary index, ix
// ixID) at or after from.
func (tx *txn) scanFrom(t tableID, ix string, prefix, from string, fn func(r record) bool) {
	var it memdb.ResultIterator
	var err error
	if from != "" {
		if ix != ixID {
			panic("store: scanFrom works on the primary index")
		}
		it, err = tx.snap.LowerBound(t.String(), ixID, []byte(from))
	} else {
		it, err = tx.snap.Get(t.String(), ix+"_prefix", []byte(prefix))
	}
	if err != nil {
		panic(fmt.Sprintf("store: scan %s.%s: %v", t, ix, err)) // a schema bug
	}
	ov, buf := tx.ov[t], tx.s.buf[t]
	inRange := func(k string) bool { return strings.HasPrefix(k, prefix) && k >= from }
	if len(ov) == 0 && len(buf) == 0 {
		for raw := it.Next(); raw != nil; raw = it.Next() {
			r := raw.(record)
			if from != "" && !strings.HasPrefix(r.key(), prefix) {
				return
			}
			if !fn(r) {
				return
			}
		}
		return
	}
	// The rows of the overlay and the buffer in range, in index order.
	type row struct {
		k string
		r record
	}
	var extra []row
	keyOf := tx.indexKey(t, ix)
	add := func(pk string, r record) {
		if ix == ixID {
			if inRange(pk) {
				extra = append(extra, row{pk, r})
			}
			return
		}
		if k, ok := keyOf(r); ok && inRange(k) {
			extra = append(extra, row{k, r})
		}
	}
	for pk, r := range buf {
		if r == nil {
			continue
		}
		if _, shadowed := ov[pk]; !shadowed {
			add(pk, r)
		}
	}
	for pk, r := range ov {
		if r != nil {
			add(pk, r)
		}
	}
	slices.SortFunc(extra, func(a, b row) int { return strings.Compare(a.k, b.k) })
	// Merge them with memdb's rows (those not shadowed), already in order.
	next := func() (string, record) {
		for raw := it.Next(); raw != nil; raw = it.Next() {
			r := raw.(record)
			pk := r.key()
			if from != "" && !strings.HasPrefix(pk, prefix) {
				return "", nil
			}
			if _, shadowed := ov[pk]; shadowed {
				continue
			}
			if _, shadowed := buf[pk]; shadowed {
				continue
			}
			if ix == ixID {
				return pk, r
			}
			k, _ := keyOf(r)
			return k, r
		}
		return "", nil
	}
	k, r := next()
	i := 0
	for r != nil || i < len(extra) {
		if r != nil && (i == len(extra) || k < extra[i].k) {
			if !fn(r) {
				return
			}
			k, r = next()
			continue
		}
		if !fn(extra[i].r) {
			return
		}
		i++
	}
}

// indexKey returns the function giving a row's full key in index ix of t,
// as memdb orders it (a secondary key followed by the primary key).
func (tx *txn) indexKey(t tableID, ix string) func(record) (string, bool) {
	if ix == ixID {
		return func(r record) (string, bool) { return r.key(), true }
	}
	for _, s := range tx.s.secs[t] {
		if s.name == ix {
			return func(r record) (string, bool) {
				k, ok := s.of(r)
				if !ok {
					return "", false
				}
				return k + r.key(), true
			}
		}
	}
	panic(fmt.Sprintf("store: no index %s.%s", t, ix))
}

// count returns the number of rows of table t whose primary key starts with
// prefix.
func (tx *txn) count(t tableID, prefix string) int {
	n := 0
	tx.scan(t, ixID, prefix, func(record) bool { n++; return true })
	return n
}
