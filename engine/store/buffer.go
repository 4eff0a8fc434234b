package store

import "strings"

// buffer holds one table's committed rows not yet written into memdb, by
// primary key; a nil row hides a row memdb holds (deleted since). The rows
// are grouped by their key's partition (partition: a stack's Num for
// resources, retired resources and events, the first part of a two-part
// key), so that a scan of one partition's range — a stack's resources, an
// operation's steps — visits that partition's rows only, not every row the
// table has buffered. Without the grouping a scan of one stack's 500
// resources would cost as much as the buffer holds: up to MaxBuffered rows
// of every stack of the account, deleted ones included.
//
// A table read by key only (stacks, operations, exports, change sets) is
// one partition, "".
type buffer struct {
	t     TableID
	parts map[string]map[string]Record
	n     int
}

// len is the number of rows (and deletion marks) buffered.
func (b *buffer) len() int { return b.n }

// get returns the buffered row with key k: ok says whether the buffer has
// one (r is nil for a deletion mark).
func (b *buffer) get(k string) (r Record, ok bool) {
	if b.n == 0 {
		return nil, false
	}
	r, ok = b.parts[partition(b.t, k)][k]
	return r, ok
}

// getb is get with the key as bytes (nothing allocated).
func (b *buffer) getb(k []byte) (r Record, ok bool) {
	if b.n == 0 {
		return nil, false
	}
	// The conversions are in the index expressions, where they allocate
	// nothing (a string(k) passed to partition would be copied).
	n := partitionLen(b.t, k)
	r, ok = b.parts[string(k[:n])][string(k)]
	return r, ok
}

// set buffers r (nil: a deletion mark) under key k.
func (b *buffer) set(k string, r Record) {
	p := partition(b.t, k)
	m := b.parts[p]
	if m == nil {
		if b.parts == nil {
			b.parts = map[string]map[string]Record{}
		}
		m = map[string]Record{}
		b.parts[p] = m
	}
	if _, had := m[k]; !had {
		b.n++
	}
	m[k] = r
}

// del forgets the row (or mark) buffered under key k.
func (b *buffer) del(k string) {
	p := partition(b.t, k)
	m := b.parts[p]
	if _, had := m[k]; !had {
		return
	}
	delete(m, k)
	b.n--
	if len(m) == 0 {
		delete(b.parts, p)
	}
}

// merge lays a committed transaction's overlay (its rows of the table, nil
// for a deleted row) over the buffer. A row deleted that memdb does not
// hold (inDB) was made and deleted before memdb had it: it is forgotten; a
// deleted row memdb holds is marked. When the overlay's rows are all of
// one partition and it is at least as large as that partition, it becomes
// the partition with the rows it does not replace (the smaller map is the
// one copied: an operation's overlay, sized for its rows, is not copied
// row by row into a map that grows and rehashes).
func (b *buffer) merge(ov map[string]Record, inDB func(k string) bool) {
	p, one, first := "", true, true
	for k := range ov {
		if q := partition(b.t, k); first {
			p, first = q, false
		} else if q != p {
			one = false
			break
		}
	}
	if !one || len(ov) < len(b.parts[p]) {
		for k, r := range ov {
			switch {
			case r != nil:
				b.set(k, r)
			case inDB(k):
				b.set(k, nil)
			default:
				b.del(k)
			}
		}
		return
	}
	old := b.parts[p]
	for k, r := range old {
		if _, ok := ov[k]; !ok {
			ov[k] = r
		}
	}
	for k, r := range ov {
		if r == nil && !inDB(k) {
			delete(ov, k)
		}
	}
	b.n += len(ov) - len(old)
	switch {
	case len(ov) == 0:
		delete(b.parts, p)
	case b.parts == nil:
		b.parts = map[string]map[string]Record{p: ov}
	default:
		b.parts[p] = ov
	}
}

// reset empties the buffer.
// drop removes partition p's rows (and deletion marks), calling fn with
// each key, and returns how many there were.
func (b *buffer) drop(p string, fn func(k string)) int {
	m := b.parts[p]
	for k := range m {
		fn(k)
	}
	delete(b.parts, p)
	b.n -= len(m)
	return len(m)
}

func (b *buffer) reset() { b.parts, b.n = nil, 0 }

// each calls fn for every buffered row and mark, in no order.
func (b *buffer) each(fn func(k string, r Record)) {
	for _, m := range b.parts {
		for k, r := range m {
			fn(k, r)
		}
	}
}

// eachIn calls fn for the buffered rows and marks a scan of the primary
// index from prefix may need: those of prefix's partition when prefix
// names one (it is at least a partition long), those of the partitions it
// starts when it is shorter, every one in a table that is not partitioned.
// fn filters by the full prefix itself.
func (b *buffer) eachIn(prefix string, fn func(k string, r Record)) {
	switch {
	case b.n == 0:
	case prefix == "" || !partitioned(b.t):
		b.each(fn)
	case partition(b.t, prefix) != "":
		for k, r := range b.parts[partition(b.t, prefix)] {
			fn(k, r)
		}
	default:
		for q, m := range b.parts {
			if q == "" || strings.HasPrefix(q, prefix) {
				for k, r := range m {
					fn(k, r)
				}
			}
		}
	}
}

// sizeIn is how many rows eachIn(prefix) may visit at most (a bound to size
// a scan's merge by).
func (b *buffer) sizeIn(prefix string) int {
	if p := partition(b.t, prefix); p != "" {
		return len(b.parts[p])
	}
	return b.n
}

// partitioned tells whether table t's keys have a partition (partition
// gives "" for every key of the other tables).
func partitioned(t TableID) bool { return partitioningOf(t) != byKeyOnly }

// bufferedRow is the row buffered under key k of table t, or nil.
func (s *Store) bufferedRow(t TableID, k string) Record {
	r, _ := s.buf[t].get(k)
	return r
}

// BufferedRows reports how many rows (and deletion marks) table t holds
// in the buffer, and whether key k is one of them (for tests).
func (s *Store) BufferedRows(t TableID, k string) (n int, has bool) {
	_, has = s.buf[t].get(k)
	return s.buf[t].len(), has
}
