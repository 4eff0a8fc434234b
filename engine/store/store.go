package store

import (
	"fmt"
	"slices"
	"strings"

	memdb "github.com/hashicorp/go-memdb"
)

// Store is everything the simulated world knows: the go-memdb database of
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
type Store struct {
	db   *memdb.MemDB
	ID   Identity
	Meta meta
	// Queue is the task queue (queue.go), committed state: a write
	// transaction changes it in place and journals the change.
	Queue TaskQueue
	// Dups is, per stack Num, the event-id bookkeeping of the stack's
	// latest instant (events.go); changed in place, journaled.
	Dups map[uint32]*DupState
	// Cur is the write transaction in progress, if any: the simulated cloud
	// writes through it when a provider calls it during a handler
	// invocation.
	Cur  *Txn
	secs [numTables][]secondary
	// buf holds the committed rows not yet written into db, by table
	// (buffer.go); Buffered counts them.
	buf      [numTables]buffer
	Buffered int
	// dbHas says memdb may hold rows of a table (it has been given some):
	// a lookup in a table it has never had a row of skips memdb.
	dbHas [numTables]bool
	// loopHint is how many rows the last loop transaction wrote to each
	// table (beginLoop).
	loopHint [numTables]int
	// tails is, per stack Num, the last event chunk committed (chunks are
	// never deleted, and a stack's next chunk is always a later one).
	tails map[uint32]*EventChunk
	// lz is the bookkeeping of a store over a backing (backing.go), nil
	// for a store held whole in memory; dirty the rows changed since the
	// last save (nil without a backing).
	lz    *lazy
	dirty *dirtyRows
}

// maxBuffered is how many committed rows the store keeps out of memdb
// before it writes them in (bounding what a scan merges).
var MaxBuffered = 1 << 17

// Identity is the simulated account the store belongs to. It never changes
// once the store exists, and the state file keeps it.
type Identity struct {
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

func New(id Identity, now int64) (*Store, error) {
	primary, err := memdb.NewMemDB(schema())
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	// The store works on a snapshot of an empty database: a MemDB that is
	// not the primary does not track mutations for watchers (it closes no
	// channels on commit), and the store never watches.
	db := primary.Snapshot()
	s := &Store{db: db, ID: id, Meta: meta{Now: now}, Dups: map[uint32]*DupState{}, tails: map[uint32]*EventChunk{}}
	for t := range s.buf {
		s.buf[t].t = TableID(t)
	}
	for _, ix := range secondaries() {
		s.secs[ix.table] = append(s.secs[ix.table], ix)
		if !partitioned(ix.table) {
			s.buf[ix.table].secs = s.secs[ix.table]
		}
	}
	return s, nil
}

// Txn is a transaction on the store. Every write transaction ends in commit
// or abort (Engine.update and the loop make sure of it).
type Txn struct {
	Store *Store
	Snap  *memdb.Txn
	write bool
	done  bool
	Meta  meta
	ov    [numTables]map[string]Record
	// journal undoes, newest last, what the transaction changed since its
	// last release.
	journal []undo
	// chunks is, per stack Num, the event chunk this transaction appends to
	// (a copy it owns, also in the overlay).
	chunks map[uint32]*EventChunk
	// Events are the events written and not yet handed to observers.
	Events []PendingEvent
	// stackCache remembers the stacks read from the snapshot (nil: none).
	stackCache map[string]Record
	// hint sizes the overlay's maps (beginLoop): as many rows as the last
	// loop transaction wrote to each table.
	hint [numTables]int
	loop bool
}

// Read begins a read transaction: a snapshot of the last commit.
func (s *Store) Read() *Txn {
	return &Txn{Store: s, Snap: s.db.Txn(false), Meta: s.Meta}
}

// Begin begins the write transaction. There is at most one.
func (s *Store) Begin() *Txn {
	if s.Cur != nil {
		panic("store: a write transaction is already open")
	}
	tx := &Txn{Store: s, Snap: s.db.Txn(false), write: true, Meta: s.Meta}
	s.Cur = tx
	return tx
}

// BeginLoop begins the loop's write transaction: like begin, with the
// overlay's maps sized for as many rows as the last loop transaction wrote
// (an operation writes a row or more per resource, and growing a map of
// thousands of rows rehashes it over and over).
func (s *Store) BeginLoop() *Txn {
	tx := s.Begin()
	tx.hint = s.loopHint
	tx.loop = true
	return tx
}

// Commit makes the transaction's changes the store's state: the overlay
// goes into the buffer (memdb gets it when the buffer is full).
func (tx *Txn) Commit() error {
	if !tx.write || tx.done {
		return nil
	}
	tx.done = true
	tx.Store.Cur = nil
	s := tx.Store
	for t := TableID(0); t < numTables; t++ {
		ov := tx.ov[t]
		if len(ov) == 0 {
			continue
		}
		s.markDirty(t, ov)
		if t == TEvents {
			for _, r := range ov {
				if c, ok := r.(*EventChunk); ok {
					if tail := s.tails[c.Num]; tail == nil || c.Chunk >= tail.Chunk {
						s.tails[c.Num] = c
					}
				}
			}
		}
		if tx.loop {
			s.loopHint[t] = len(ov)
		}
		buf := &s.buf[t]
		s.Buffered -= buf.len()
		buf.merge(ov, func(k string) bool { return tx.inDB(t, k) })
		s.Buffered += buf.len()
		tx.ov[t] = nil
	}
	s.Meta = tx.Meta
	tx.journal = nil
	if s.Buffered > MaxBuffered {
		return s.Flush()
	}
	return nil
}

// inDB tells whether memdb holds a row of table t with key k.
func (tx *Txn) inDB(t TableID, k string) bool {
	if !tx.Store.dbHas[t] {
		return false
	}
	raw, err := tx.Snap.First(t.String(), IxID, []byte(k))
	return err == nil && raw != nil
}

// Flush writes the buffer into memdb, in one memdb write transaction.
func (s *Store) Flush() error {
	if s.Buffered == 0 {
		return nil
	}
	w := s.db.Txn(true)
	for t := TableID(0); t < numTables; t++ {
		name := t.String()
		var err error
		s.buf[t].each(func(k string, r Record) {
			if err != nil {
				return
			}
			if r == nil {
				var old any
				if old, err = w.First(name, IxID, []byte(k)); err == nil && old != nil {
					err = w.Delete(name, old)
				}
			} else {
				err = w.Insert(name, r)
				s.dbHas[t] = true
			}
			if err != nil {
				err = fmt.Errorf("store: flush %s %q: %w", name, k, err)
			}
		})
		if err != nil {
			w.Abort()
			return err
		}
	}
	w.Commit()
	for t := range s.buf {
		s.buf[t].reset()
	}
	s.Buffered = 0
	return nil
}

// Abort undoes everything the transaction changed since its last release.
func (tx *Txn) Abort() {
	if !tx.write || tx.done {
		return
	}
	tx.RollbackTo(savepoint{Meta: tx.Store.Meta})
	tx.done = true
	tx.Store.Cur = nil
}

// End aborts the transaction unless it was committed: defer it.
func (tx *Txn) End() { tx.Abort() }

// savepoint marks a point a write transaction can roll back to.
type savepoint struct {
	journal int
	events  int
	Meta    meta
}

func (tx *Txn) Savepoint() savepoint {
	return savepoint{journal: len(tx.journal), events: len(tx.Events), Meta: tx.Meta}
}

// RollbackTo undoes every change made since sp, which must have been taken
// after the last release.
func (tx *Txn) RollbackTo(sp savepoint) {
	for i := len(tx.journal) - 1; i >= sp.journal; i-- {
		tx.journal[i].apply(tx)
		tx.journal[i] = undo{}
	}
	tx.journal = tx.journal[:sp.journal]
	tx.Events = tx.Events[:sp.events]
	tx.Meta = sp.Meta
}

// Release forgets the journal: what was done so far can no longer be rolled
// back, and the transaction keeps no memory of it beyond the overlay. The
// loop releases after each task that succeeds.
func (tx *Txn) Release() {
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
	t    TableID
	had  bool
	c    uint16 // an old event-id count
	num  uint32
	n    uint64 // an old length, an old count, or an event-id hash
	key  string
	// obj is the old row (undoRow), the chunk (undoChunk, undoAppend), the
	// task (undoQueue*) or the old bookkeeping (undoDups).
	obj any
}

func (u *undo) apply(tx *Txn) {
	switch u.kind {
	case undoRow:
		if u.had {
			r, _ := u.obj.(Record)
			tx.ov[u.t][u.key] = r
		} else {
			delete(tx.ov[u.t], u.key)
		}
	case undoChunk:
		if c, _ := u.obj.(*EventChunk); c != nil {
			tx.chunks[u.num] = c
		} else {
			delete(tx.chunks, u.num)
		}
	case undoAppend:
		c := u.obj.(*EventChunk)
		clear(c.Events[u.n:])
		c.Events = c.Events[:u.n]
	case undoQueuePush:
		tx.Store.Queue.Remove(u.obj.(*Task))
	case undoQueuePop:
		tx.Store.Queue.Push(u.obj.(*Task))
	case undoDups:
		if d, _ := u.obj.(*DupState); d != nil {
			tx.Store.Dups[u.num] = d
		} else {
			delete(tx.Store.Dups, u.num)
		}
	case undoDupCount:
		if d := tx.Store.Dups[u.num]; d != nil {
			if u.had {
				d.N[u.n] = u.c
			} else {
				delete(d.N, u.n)
			}
		}
	}
}

func (tx *Txn) MustWrite() {
	if !tx.write || tx.done {
		panic("store: write outside an open write transaction")
	}
}

// get returns the row of table t with primary key k, or nil.
func (tx *Txn) get(t TableID, k string) Record {
	if ov := tx.ov[t]; ov != nil {
		if r, ok := ov[k]; ok {
			return r
		}
	}
	if r, ok := tx.Store.buf[t].get(k); ok {
		return r
	}
	return tx.first(t, []byte(k))
}

// getb is get with the key in a buffer the caller keeps: nothing is
// allocated when the row is in the overlay.
func (tx *Txn) getb(t TableID, k []byte) Record {
	if ov := tx.ov[t]; ov != nil {
		if r, ok := ov[string(k)]; ok {
			return r
		}
	}
	if r, ok := tx.Store.buf[t].getb(k); ok {
		return r
	}
	// memdb's lookup takes its key as an interface and so makes it escape:
	// copy it here, on the miss path only, so that the caller's buffer can
	// stay on its stack (a hit in the overlay allocates nothing).
	if !tx.Store.dbHas[t] && tx.Store.lz == nil {
		return nil
	}
	return tx.first(t, append(make([]byte, 0, len(k)), k...))
}

// first reads a row from the snapshot. Stacks, read on every step, are
// remembered for the rest of a write transaction.
func (tx *Txn) first(t TableID, k []byte) Record {
	if t == TStacks && tx.stackCache != nil {
		if r, ok := tx.stackCache[string(k)]; ok {
			return r
		}
	}
	if lz := tx.Store.lz; lz != nil {
		if _, ok := lz.known[t][string(k)]; !ok {
			tx.Store.fault(t, string(k))
			if r, ok := tx.Store.buf[t].get(string(k)); ok {
				return r
			}
		}
	}
	if !tx.Store.dbHas[t] {
		return nil
	}
	raw, err := tx.Snap.First(t.String(), IxID, k)
	if err != nil {
		panic(fmt.Sprintf("store: get %s: %v", t, err)) // a schema bug
	}
	var r Record
	if raw != nil {
		r = raw.(Record)
	}
	if t == TStacks && tx.write {
		if tx.stackCache == nil {
			tx.stackCache = map[string]Record{}
		}
		tx.stackCache[string(k)] = r
	}
	return r
}

// Put writes a row (inserting or replacing the row with its key). The row
// must be a fresh copy: see the note in records.go.
func (tx *Txn) Put(r Record) {
	tx.MustWrite()
	tx.setRow(r.Table(), r.Key(), r)
}

// Del deletes the row of table t with primary key k (if there is one).
func (tx *Txn) Del(t TableID, k string) {
	tx.MustWrite()
	tx.setRow(t, k, nil)
}

// Expect sizes the overlay's map of table t for n rows when the
// transaction has written none of t's yet and its hint is smaller: an
// operation that starts knows how many rows its steps will write (one or
// more per resource), and a map grown row by row rehashes as it goes.
func (tx *Txn) Expect(t TableID, n int) {
	if tx.write && tx.ov[t] == nil && n > tx.hint[t] {
		tx.ov[t] = make(map[string]Record, n)
	}
}

// ExpectChanges makes room in the journal for n more entries: a task that
// starts many steps at once (the first of a create whose resources wait on
// nothing) journals several entries a step, and a journal grown entry by
// entry copies itself over and over.
func (tx *Txn) ExpectChanges(n int) {
	if tx.write && n > 0 {
		tx.journal = slices.Grow(tx.journal, n)
	}
}

func (tx *Txn) setRow(t TableID, k string, r Record) {
	ov := tx.ov[t]
	if ov == nil {
		ov = make(map[string]Record, tx.hint[t])
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

// Scan calls fn, in index order, for every row of table t whose key in
// index ix starts with prefix, until fn returns false. ix is ixID or a
// secondary index. With rows of t in the overlay or the buffer it costs
// O(rows in range + those rows): iterate in bulk, not per step.
func (tx *Txn) Scan(t TableID, ix string, prefix string, fn func(r Record) bool) {
	tx.ScanFrom(t, ix, prefix, "", fn)
}

// ScanFrom is scan starting at the first key (of the primary index, ix
// ixID) at or after from.
func (tx *Txn) ScanFrom(t TableID, ix string, prefix, from string, fn func(r Record) bool) {
	if from != "" && ix != IxID {
		panic("store: scanFrom works on the primary index")
	}
	tx.Store.faultRange(t, ix, prefix)
	var it memdb.ResultIterator = emptyIterator{}
	if tx.Store.dbHas[t] {
		var err error
		if from != "" {
			it, err = tx.Snap.LowerBound(t.String(), IxID, []byte(from))
		} else {
			it, err = tx.Snap.Get(t.String(), ix+"_prefix", []byte(prefix))
		}
		if err != nil {
			panic(fmt.Sprintf("store: scan %s.%s: %v", t, ix, err)) // a schema bug
		}
	}
	ov, buf := tx.ov[t], &tx.Store.buf[t]
	inRange := func(k string) bool { return strings.HasPrefix(k, prefix) && k >= from }
	if len(ov) == 0 && buf.len() == 0 {
		for raw := it.Next(); raw != nil; raw = it.Next() {
			r := raw.(Record)
			if from != "" && !strings.HasPrefix(r.Key(), prefix) {
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
		r Record
	}
	// Sized for the buffer's rows in range (a bound) and the overlay's: all
	// of them where an operation's rows share a range (one stack's
	// resources or events, one operation's steps); a few otherwise (the
	// objects of one type, among those of every type the operation made:
	// a slice for all of them on every scan would cost as much as the
	// operation wrote).
	size := buf.len()
	keyed := ix != IxID && buf.indexed(ix, prefix)
	switch {
	case ix == IxID:
		size = buf.sizeIn(prefix)
	case keyed:
		size = buf.sizeKeyed(ix, prefix)
	}
	fromOverlay := len(ov)
	if t == TObjects {
		fromOverlay = min(fromOverlay, 64)
	}
	extra := make([]row, 0, size+fromOverlay)
	keyOf := tx.indexKey(t, ix)
	add := func(pk string, r Record) {
		if ix == IxID {
			if inRange(pk) {
				extra = append(extra, row{pk, r})
			}
			return
		}
		if k, ok := keyOf(r); ok && inRange(k) {
			extra = append(extra, row{k, r})
		}
	}
	each := buf.each
	switch {
	case ix == IxID:
		each = func(fn func(string, Record)) { buf.eachIn(prefix, fn) }
	case keyed:
		each = func(fn func(string, Record)) { buf.eachKeyed(ix, prefix, fn) }
	}
	each(func(pk string, r Record) {
		if r == nil {
			return
		}
		if _, shadowed := ov[pk]; !shadowed {
			add(pk, r)
		}
	})
	for pk, r := range ov {
		if r != nil {
			add(pk, r)
		}
	}
	slices.SortFunc(extra, func(a, b row) int { return strings.Compare(a.k, b.k) })
	// Merge them with memdb's rows (those not shadowed), already in order.
	next := func() (string, Record) {
		for raw := it.Next(); raw != nil; raw = it.Next() {
			r := raw.(Record)
			pk := r.Key()
			if from != "" && !strings.HasPrefix(pk, prefix) {
				return "", nil
			}
			if _, shadowed := ov[pk]; shadowed {
				continue
			}
			if _, shadowed := buf.get(pk); shadowed {
				continue
			}
			if ix == IxID {
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

// emptyIterator iterates a table memdb has never had a row of.
type emptyIterator struct{}

func (emptyIterator) WatchCh() <-chan struct{} { return nil }
func (emptyIterator) Next() any                { return nil }

// indexKey returns the function giving a row's full key in index ix of t,
// as memdb orders it (a secondary key followed by the primary key).
func (tx *Txn) indexKey(t TableID, ix string) func(Record) (string, bool) {
	if ix == IxID {
		return func(r Record) (string, bool) { return r.Key(), true }
	}
	for _, s := range tx.Store.secs[t] {
		if s.name == ix {
			return func(r Record) (string, bool) {
				k, ok := s.of(r)
				if !ok {
					return "", false
				}
				return k + r.Key(), true
			}
		}
	}
	panic(fmt.Sprintf("store: no index %s.%s", t, ix))
}

// Loader fills a new store with rows in one memdb transaction: a state
// file being loaded. Nothing is checked but what memdb checks (a key
// given twice): the caller checks the rows.
type Loader struct {
	s *Store
	w *memdb.Txn
}

// Load begins filling the store. Commit or Abort the loader.
func (s *Store) Load() *Loader { return &Loader{s: s, w: s.db.Txn(true)} }

// Insert adds a row.
func (l *Loader) Insert(r Record) error {
	if err := l.w.Insert(r.Table().String(), r); err != nil {
		return fmt.Errorf("%s %q: %w", r.Table(), r.Key(), err)
	}
	l.s.dbHas[r.Table()] = true
	return nil
}

// Commit makes the rows inserted the store's.
func (l *Loader) Commit() { l.w.Commit() }

// Abort forgets the rows inserted (a no-op after Commit).
func (l *Loader) Abort() { l.w.Abort() }

// LoadTask queues a task read from a state file, due at its At.
func (s *Store) LoadTask(t *Task) {
	t.at = t.At.UnixNano()
	t.At = t.At.UTC()
	s.Queue.Push(t)
}
