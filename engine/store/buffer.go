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
//
// A table read by a secondary index (stacks by name and by Num, operations,
// change sets and exports by stack) also indexes its buffered rows by their
// keys in those indexes (ix), so that a scan of one key — the live stack of
// a name, a stack's operations — visits that key's rows, not a row of every
// stack the session ever made (a deleted stack's row stays: DescribeStacks
// finds it by its ARN).
type buffer struct {
	t     TableID
	parts map[string]map[string]Record
	n     int
	// secs are the secondary indexes of an unpartitioned table (nil for
	// the others); ix maps index name, key in that index, to the primary
	// keys of the buffered rows that have it.
	secs []secondary
	ix   map[string]map[string]map[string]struct{}
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
	old, had := m[k]
	if !had {
		b.n++
	}
	if b.secs != nil {
		if old != nil {
			b.unindex(k, old)
		}
		if r != nil {
			b.index(k, r)
		}
	}
	m[k] = r
}

// del forgets the row (or mark) buffered under key k.
func (b *buffer) del(k string) {
	p := partition(b.t, k)
	m := b.parts[p]
	old, had := m[k]
	if !had {
		return
	}
	if old != nil {
		b.unindex(k, old)
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
	if !one || len(ov) < len(b.parts[p]) || b.secs != nil {
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

// drop removes partition p's rows (and deletion marks), calling fn with
// each key, and returns how many there were.
func (b *buffer) drop(p string, fn func(k string)) int {
	m := b.parts[p]
	for k, r := range m {
		fn(k)
		if r != nil {
			b.unindex(k, r)
		}
	}
	delete(b.parts, p)
	b.n -= len(m)
	return len(m)
}

// reset empties the buffer.
func (b *buffer) reset() { b.parts, b.n, b.ix = nil, 0, nil }

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

// index and unindex add and remove the secondary-index entries of the row
// r buffered under primary key k.
func (b *buffer) index(k string, r Record) {
	for _, s := range b.secs {
		key, ok := s.of(r)
		if !ok {
			continue
		}
		if b.ix == nil {
			b.ix = map[string]map[string]map[string]struct{}{}
		}
		byKey := b.ix[s.name]
		if byKey == nil {
			byKey = map[string]map[string]struct{}{}
			b.ix[s.name] = byKey
		}
		pks := byKey[key]
		if pks == nil {
			pks = map[string]struct{}{}
			byKey[key] = pks
		}
		pks[k] = struct{}{}
	}
}

func (b *buffer) unindex(k string, r Record) {
	for _, s := range b.secs {
		if key, ok := s.of(r); ok {
			byKey := b.ix[s.name]
			delete(byKey[key], k)
			if len(byKey[key]) == 0 {
				delete(byKey, key)
			}
		}
	}
}

// indexed reports whether a scan of secondary index ix from prefix can
// visit the rows the buffer indexes under that key alone: the table
// indexes its rows, and prefix is a whole key of the index (keys of an
// index are prefix-free, so the rows in range are exactly those) or ""
// (every row the index has: the live stacks of the name index).
func (b *buffer) indexed(ix, prefix string) bool {
	if b.secs == nil {
		return false
	}
	for _, s := range b.secs {
		if s.name == ix {
			return prefix == "" || s.whole(prefix)
		}
	}
	return false
}

// eachKeyed calls fn for the buffered rows whose key in index ix is key
// (every row the index has, key "").
func (b *buffer) eachKeyed(ix, key string, fn func(k string, r Record)) {
	m := b.parts[""]
	if key != "" {
		for pk := range b.ix[ix][key] {
			fn(pk, m[pk])
		}
		return
	}
	for _, pks := range b.ix[ix] {
		for pk := range pks {
			fn(pk, m[pk])
		}
	}
}

// sizeKeyed is how many rows eachKeyed(ix, key) visits.
func (b *buffer) sizeKeyed(ix, key string) int {
	if key != "" {
		return len(b.ix[ix][key])
	}
	n := 0
	for _, pks := range b.ix[ix] {
		n += len(pks)
	}
	return n
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
