package store

import (
	"math"
	"slices"
)

// A store may lie over a Backing: rows that are not in memory are read
// from it when a transaction first needs them (a state file read by need),
// and the rows commits change are remembered (dirty) until the owner of
// the backing writes them to it and calls MarkSaved.
//
// What the store keeps in memory stays authoritative: a row is read from
// the backing only when memory cannot answer — the key was never read,
// written or covered by a range read before. Rows read are laid in the
// committed buffer as they are, clean; a scan first reads every row of its
// range that memory does not know (and remembers the range), then scans
// memory as it always did. So a store over a backing answers every read
// exactly as the same store loaded whole would.

// Backing is where the rows not in memory are. Its methods return the rows
// decoded; an error (a damaged row) stops the transaction: see Err.
type Backing interface {
	// Get returns the row of table t with primary key k, or nil.
	Get(t TableID, k string) (Record, error)
	// Scan calls fn with every row of table t whose key in index ix (IxID
	// or a secondary index) starts with prefix, in that index's order,
	// until fn returns false.
	Scan(t TableID, ix, prefix string, fn func(r Record) bool) error
	// LastChunk returns the stack's last event chunk, or nil.
	LastChunk(num uint32) (*EventChunk, error)
}

// lazy is the bookkeeping of a store over a backing.
type lazy struct {
	b Backing
	// known holds, per table, the keys memory answers for: read from the
	// backing (present or not), or written by a commit.
	known [numTables]map[string]struct{}
	// ranges holds, per table, the ranges read whole: "ix\x00prefix".
	ranges [numTables]map[string]struct{}
	// tails and dups say which stacks' last event chunk and event-id
	// bookkeeping were read.
	tails map[uint32]bool
	dups  map[uint32]bool
	// maxNum: stacks with a larger Num were made since the backing was
	// opened, and have no rows in it.
	maxNum uint32
	// allEvents: memory holds every event (AttachSaved).
	allEvents bool
	// shed holds, per table, the partitions ShedDeleted dropped and no
	// scan read whole since; shedNums the stacks ever shed; pending the
	// deleted stacks the next ShedDeleted drops (shed.go).
	shed     [numTables]map[string]struct{}
	shedNums map[uint32]struct{}
	pending  map[uint32]struct{}
	// err is the first error of the backing: every transaction after it
	// fails (the engine checks Err).
	err error
}

// SetBacking lays the store over b. The store must hold no rows yet; its
// Meta and queue are the backing's (the caller fills them).
func (s *Store) SetBacking(b Backing) {
	s.lz = &lazy{b: b, tails: map[uint32]bool{}, dups: map[uint32]bool{}, maxNum: s.Meta.Stacks,
		shedNums: map[uint32]struct{}{}, pending: map[uint32]struct{}{}}
	for t := range s.lz.known {
		s.lz.known[t] = map[string]struct{}{}
		s.lz.ranges[t] = map[string]struct{}{}
	}
	s.dirty = &dirtyRows{}
}

// AttachSaved lays a store held whole in memory over b, a backing that
// holds the same rows (it was just written from the store): nothing is
// ever read from it, and from now on commits are remembered as dirty for
// the next save.
func (s *Store) AttachSaved(b Backing) {
	s.SetBacking(b)
	for t := range s.lz.ranges {
		s.lz.ranges[t][rangeKey(IxID, "")] = struct{}{}
	}
	s.lz.maxNum = math.MaxUint32
	s.lz.allEvents = true
	for _, st := range s.Read().AllStacks() {
		if !st.Live() {
			s.lz.pending[st.Num] = struct{}{}
		}
	}
}

// Err is the first error the backing returned (a damaged row): the store
// cannot be trusted after it, and nothing should be saved.
func (s *Store) Err() error {
	if s.lz == nil {
		return nil
	}
	return s.lz.err
}

// fail records the backing's first error.
func (s *Store) fail(err error) {
	if s.lz.err == nil {
		s.lz.err = err
	}
}

// partition is the prefix of a key that ranges of its table are read by:
// the stack Num of a stack's rows, the first part of a two-part key. ""
// when the table is read by key only.
func partition(t TableID, k string) string { return k[:partitionLen(t, k)] }

// partitioning is how a table's keys are partitioned (partition).
type partitioning uint8

const (
	byKeyOnly   partitioning = iota // read by key only: no partition
	byStackNum                      // a stack's rows: its 4-byte Num
	byFirstPart                     // a two-part key: the first part and its NUL
)

// partitioningOf is the one list of which tables are partitioned, and how.
func partitioningOf(t TableID) partitioning {
	switch t {
	case TResources, TRetired, TEvents:
		return byStackNum
	case TSteps, TObjects, TImports:
		return byFirstPart
	}
	return byKeyOnly
}

// partitionLen is the length of k's partition (partition), for a key as a
// string or as bytes.
func partitionLen[K string | []byte](t TableID, k K) int {
	switch partitioningOf(t) {
	case byStackNum:
		if len(k) >= 4 {
			return 4
		}
	case byFirstPart:
		for i := 0; i < len(k); i++ {
			if k[i] == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// newStack reports whether a key of a stack-partitioned table belongs to a
// stack made since the backing was opened (it has no rows there).
func (lz *lazy) newStack(t TableID, k string) bool {
	return partitioningOf(t) == byStackNum && len(k) >= 4 &&
		lz.fresh(uint32(k[0])<<24|uint32(k[1])<<16|uint32(k[2])<<8|uint32(k[3]))
}

func rangeKey(ix, prefix string) string { return ix + "\x00" + prefix }

// covered reports whether memory answers for every row of table t whose
// key in index ix starts with prefix: that range, or one holding it, was
// read whole.
func (lz *lazy) covered(t TableID, ix, prefix string) bool {
	if lz.meetsShed(t, ix, prefix) {
		return false
	}
	r := lz.ranges[t]
	if _, ok := r[rangeKey(IxID, "")]; ok {
		return true
	}
	if _, ok := r[rangeKey(ix, prefix)]; ok {
		return true
	}
	if _, ok := r[rangeKey(ix, "")]; ok {
		return true
	}
	return false
}

// fault reads the row of t with key k from the backing, when memory cannot
// answer for it, and lays it in the buffer.
func (s *Store) fault(t TableID, k string) {
	lz := s.lz
	if lz == nil || lz.err != nil {
		return
	}
	if _, ok := lz.known[t][k]; ok {
		return
	}
	if lz.newStack(t, k) || lz.covered(t, IxID, partition(t, k)) {
		lz.known[t][k] = struct{}{}
		return
	}
	r, err := lz.b.Get(t, k)
	if err != nil {
		s.fail(err)
		return
	}
	lz.known[t][k] = struct{}{}
	if r != nil {
		s.lay(t, k, r)
	}
}

// lay puts a row read from the backing in the committed buffer, clean.
func (s *Store) lay(t TableID, k string, r Record) {
	before := s.buf[t].len()
	s.buf[t].set(k, r)
	s.Buffered += s.buf[t].len() - before
	s.lz.noteLaid(t, k)
}

// faultRange reads, before a scan of table t in index ix from prefix,
// every row of the range that memory does not know.
func (s *Store) faultRange(t TableID, ix, prefix string) {
	lz := s.lz
	if lz == nil || lz.err != nil || lz.covered(t, ix, prefix) {
		return
	}
	if ix == IxID && lz.newStack(t, prefix) {
		lz.ranges[t][rangeKey(ix, prefix)] = struct{}{}
		return
	}
	err := lz.b.Scan(t, ix, prefix, func(r Record) bool {
		k := r.Key()
		if _, ok := lz.known[t][k]; !ok {
			lz.known[t][k] = struct{}{}
			if !s.inMemory(t, k) {
				s.lay(t, k, r)
			}
		}
		return true
	})
	if err != nil {
		s.fail(err)
		return
	}
	lz.ranges[t][rangeKey(ix, prefix)] = struct{}{}
	lz.readBack(t, ix, prefix)
}

// inMemory reports whether memory holds (or hides) a row with this key.
func (s *Store) inMemory(t TableID, k string) bool {
	if _, ok := s.buf[t].get(k); ok {
		return true
	}
	if !s.dbHas[t] {
		return false
	}
	raw, err := s.db.Txn(false).First(t.String(), IxID, []byte(k))
	return err == nil && raw != nil
}

// faultTail reads the stack's last event chunk from the backing, once.
func (s *Store) faultTail(num uint32) {
	lz := s.lz
	if lz == nil || lz.err != nil || lz.tails[num] || lz.allEvents && !hasNum(lz.shedNums, num) {
		return
	}
	lz.tails[num] = true
	if lz.fresh(num) {
		return
	}
	c, err := lz.b.LastChunk(num)
	if err != nil {
		s.fail(err)
		return
	}
	if c == nil {
		return
	}
	k := c.Key()
	if _, ok := lz.known[TEvents][k]; !ok {
		lz.known[TEvents][k] = struct{}{}
		if !s.inMemory(TEvents, k) {
			s.lay(TEvents, k, c)
		}
	}
	if cur := s.tails[num]; cur == nil || c.Chunk > cur.Chunk {
		// The chunk memory holds under that key (this one, unless memory
		// had it already); when memdb has it, lastChunk finds it there.
		if r, _ := s.bufferedRow(TEvents, k).(*EventChunk); r != nil {
			s.tails[num] = r
		}
	}
}

// faultDups counts again, once, the event-id bookkeeping of a stack read
// from the backing: the events of its latest instant.
func (s *Store) faultDups(tx *Txn, num uint32) {
	lz := s.lz
	if lz == nil || lz.dups[num] || lz.allEvents && !hasNum(lz.shedNums, num) {
		return
	}
	lz.dups[num] = true
	if lz.fresh(num) || s.Dups[num] != nil {
		return
	}
	var d *DupState
	tx.EventsBackward(num, 0, func(_ uint64, e *EventRecord) bool {
		if d == nil {
			d = &DupState{At: e.Time, N: map[uint64]uint16{}}
		}
		if e.Time != d.At {
			return false
		}
		if !e.OfStack {
			if c := d.N[DupHash(e.Logical, e.Status)]; c < math.MaxUint16 {
				d.N[DupHash(e.Logical, e.Status)] = c + 1
			}
		}
		return true
	})
	if d != nil {
		s.Dups[num] = d
	}
}

// dirtyRows are the keys commits changed since the last save, by table;
// gone those of them whose rows commits deleted (and did not write again);
// born those of them the backing had no row for when they were first
// changed (absent), so that a row born and deleted again between two saves
// is not written at all (an operation's steps, made and dropped in one
// call, were half the rows a create through serve wrote).
type dirtyRows struct {
	keys [numTables]map[string]struct{}
	gone [numTables]map[string]struct{}
	born [numTables]map[string]struct{}
}

// markDirty records what a commit changed.
func (s *Store) markDirty(t TableID, ov map[string]Record) {
	if s.dirty == nil {
		return
	}
	d := s.dirty.keys[t]
	if d == nil {
		d = make(map[string]struct{}, len(ov))
		s.dirty.keys[t] = d
	}
	if t == TStacks {
		s.lz.noteDeleted(ov)
	}
	known := s.lz.known[t]
	gone := s.dirty.gone[t]
	born := s.dirty.born[t]
	for k, r := range ov {
		if _, ok := d[k]; !ok && s.absent(t, k) {
			if born == nil {
				born = map[string]struct{}{}
				s.dirty.born[t] = born
			}
			born[k] = struct{}{}
		}
		d[k] = struct{}{}
		known[k] = struct{}{}
		switch {
		case r == nil && gone == nil:
			gone = map[string]struct{}{k: {}}
			s.dirty.gone[t] = gone
		case r == nil:
			gone[k] = struct{}{}
		case gone != nil:
			delete(gone, k)
		}
	}
}

// absent reports whether the backing has no row for key k of table t, as
// far as memory can tell without asking it: memory answers for k (a key
// read or written, a new stack's, a key of a range read whole) and holds
// no row for it. It is asked of keys not changed since the last save, for
// which memory and the backing agree. A key written blind (never read,
// its partition never scanned) is not known to be absent: its delete is
// written.
func (s *Store) absent(t TableID, k string) bool {
	lz := s.lz
	if _, ok := lz.known[t][k]; !ok && !lz.newStack(t, k) && !lz.covered(t, IxID, partition(t, k)) {
		return false
	}
	if r, ok := s.buf[t].get(k); ok {
		return r == nil
	}
	if !s.dbHas[t] {
		return true
	}
	raw, err := s.db.Txn(false).First(t.String(), IxID, []byte(k))
	return err == nil && raw == nil
}

// Dirty calls fn with every row changed since the last save, by table and
// key order: r is nil for a row deleted. A row born and deleted since the
// last save (the backing never had it) is not among them.
func (s *Store) Dirty(fn func(t TableID, k string, r Record) error) error {
	if s.dirty == nil {
		return nil
	}
	tx := s.Read()
	for t := TableID(0); t < numTables; t++ {
		keys := make([]string, 0, len(s.dirty.keys[t]))
		for k := range s.dirty.keys[t] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		born := s.dirty.born[t]
		for _, k := range keys {
			r := tx.get(t, k)
			if _, ok := born[k]; ok && r == nil {
				continue
			}
			if err := fn(t, k, r); err != nil {
				return err
			}
		}
	}
	return nil
}

// MarkSaved forgets the dirty rows: they are in the backing now. The keys
// of the rows deleted leave the known keys too: the backing answers for
// them now (it has no such row), and a session that makes and deletes rows
// all day (an operation's steps, a stack's cloud objects) would otherwise
// hold every key it ever deleted.
func (s *Store) MarkSaved() {
	if s.dirty == nil {
		return
	}
	for t, gone := range s.dirty.gone {
		for k := range gone {
			delete(s.lz.known[t], k)
		}
	}
	s.dirty = &dirtyRows{}
}

// LoadAll reads every row of the backing into memory (an export, a check
// of the whole state).
func (s *Store) LoadAll() error {
	if s.lz == nil {
		return nil
	}
	for t := TableID(0); t < numTables; t++ {
		s.faultRange(t, IxID, "")
	}
	tx := s.Read()
	for _, st := range tx.AllStacks() {
		s.faultTail(st.Num)
		s.faultDups(tx, st.Num)
	}
	return s.lz.err
}

// Tables lists the store's tables, in the order of their numbers.
func Tables() []TableID {
	out := make([]TableID, numTables)
	for t := range out {
		out[t] = TableID(t)
	}
	return out
}
