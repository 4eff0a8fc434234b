package store

import (
	"math"

	"github.com/stacksim/stacksim/internal/jsonvalue"
)

// PropertiesText is the event's ResourceProperties: the properties as JSON
// (made now, from the map the event keeps), or "".
func (r *EventRecord) PropertiesText() string {
	switch p := r.Properties.(type) {
	case string:
		return p
	case map[string]any:
		return propsText(p)
	}
	return ""
}

// PendingEvent is an event written and not yet handed to observers; it is
// read back and made into a StackEvent only when someone looks.
type PendingEvent struct {
	St  *StackRecord
	Seq uint64
}

// AppendEvent appends an event to the stack's last chunk (opening a new one
// when it is full) and returns the event's sequence number.
func (tx *Txn) AppendEvent(num uint32, rec EventRecord) uint64 {
	if tx.chunks == nil {
		tx.chunks = map[uint32]*EventChunk{}
	}
	c := tx.chunks[num]
	if c == nil {
		tx.faultEvents(num)
		if last := tx.lastChunk(num); last != nil {
			c = &EventChunk{Num: num, Chunk: last.Chunk, Events: last.Events}
		} else {
			c = &EventChunk{Num: num, Events: make([]EventRecord, 0, 8)}
		}
		tx.useChunk(c)
	}
	if len(c.Events) == EventChunkSize {
		// A stack with a full chunk is a big one: the next chunk gets its
		// whole size at once rather than growing to it.
		c = &EventChunk{Num: num, Chunk: c.Chunk + 1, Events: make([]EventRecord, 0, EventChunkSize)}
		tx.useChunk(c)
	}
	tx.journal = append(tx.journal, undo{kind: undoAppend, obj: c, n: uint64(len(c.Events))})
	c.Events = append(c.Events, rec)
	return uint64(c.Chunk)*EventChunkSize + uint64(len(c.Events))
}

// useChunk makes c (a copy the transaction owns) the chunk it appends to.
func (tx *Txn) useChunk(c *EventChunk) {
	u := undo{kind: undoChunk, num: c.Num}
	if old := tx.chunks[c.Num]; old != nil {
		u.obj = old
	}
	tx.journal = append(tx.journal, u)
	tx.chunks[c.Num] = c
	tx.Put(c)
}

// faultEvents reads, once, what a store over a backing needs before it
// appends a stack's events: its last chunk and the event-id bookkeeping of
// its latest instant. It runs before the transaction appends any event of
// the stack, so that both are counted from committed events only.
func (tx *Txn) faultEvents(num uint32) {
	if tx.Store.lz == nil || tx.chunks[num] != nil {
		return
	}
	tx.Store.faultTail(num)
	tx.Store.faultDups(tx, num)
}

// lastChunk returns the stack's last event chunk, or nil.
func (tx *Txn) lastChunk(num uint32) *EventChunk {
	if c := tx.chunks[num]; c != nil {
		return c
	}
	tx.Store.faultTail(num)
	if c := tx.Store.tails[num]; c != nil {
		return c
	}
	it, err := tx.Snap.ReverseLowerBound(TEvents.String(), IxID, []byte(chunkKey(num, math.MaxUint32)))
	if err != nil {
		panic("events: " + err.Error())
	}
	raw := it.Next()
	if raw == nil {
		return nil
	}
	if c := raw.(*EventChunk); c.Num == num {
		return c
	}
	return nil
}

// EventCount returns how many events the stack has.
func (tx *Txn) EventCount(num uint32) uint64 {
	c := tx.lastChunk(num)
	if c == nil {
		return 0
	}
	return uint64(c.Chunk)*EventChunkSize + uint64(len(c.Events))
}

// EventsBackward calls fn with the stack's events from sequence number from
// (0: the newest) down to the oldest, until fn returns false.
func (tx *Txn) EventsBackward(num uint32, from uint64, fn func(seq uint64, rec *EventRecord) bool) {
	n := tx.EventCount(num)
	if from == 0 || from > n {
		from = n
	}
	for seq := from; seq > 0; {
		chunk := uint32((seq - 1) / EventChunkSize)
		r := tx.get(TEvents, chunkKey(num, chunk))
		if r == nil {
			return
		}
		c := r.(*EventChunk)
		for i := int((seq - 1) % EventChunkSize); i >= 0; i-- {
			if i >= len(c.Events) {
				continue
			}
			if !fn(uint64(c.Chunk)*EventChunkSize+uint64(i)+1, &c.Events[i]) {
				return
			}
		}
		seq = uint64(chunk) * EventChunkSize
	}
}

// EventsForward calls fn with every event of the stack, oldest first.
func (tx *Txn) EventsForward(num uint32, fn func(seq uint64, rec *EventRecord) bool) {
	tx.Scan(TEvents, IxID, NumKey(num), func(r Record) bool {
		c := r.(*EventChunk)
		for i := range c.Events {
			if !fn(uint64(c.Chunk)*EventChunkSize+uint64(i)+1, &c.Events[i]) {
				return false
			}
		}
		return true
	})
}

// EventAt returns the stored event with this sequence number, or nil.
func (tx *Txn) EventAt(num uint32, seq uint64) *EventRecord {
	if seq == 0 {
		return nil
	}
	var c *EventChunk
	chunk := uint32((seq - 1) / EventChunkSize)
	if cc := tx.chunks[num]; cc != nil && cc.Chunk == chunk {
		c = cc
	} else {
		var buf [8]byte
		if r := tx.getb(TEvents, appendNum(appendNum(buf[:0], num), chunk)); r != nil {
			c = r.(*EventChunk)
		}
	}
	if c == nil {
		return nil
	}
	i := int((seq - 1) % EventChunkSize)
	if i >= len(c.Events) {
		return nil
	}
	return &c.Events[i]
}

// DupState keeps resource EventIds unique (resourceEventID): per stack, for
// the stack's latest instant, how many events each (logical id, status) has
// had, keyed by a hash of the pair. Two pairs with one hash share a count:
// the later one gets a suffix it did not need, and every id stays unique.
// Virtual time never goes back, so earlier instants can be forgotten; after
// loading a state file, the latest instant is counted again from the stored
// events.
type DupState struct {
	At int64
	N  map[uint64]uint16
}

// DupHash is FNV-1a (64 bits) of logical id, a zero byte, and status: stable
// across processes, unlike the runtime's map hash.
func DupHash(logical, status string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(logical); i++ {
		h = (h ^ uint64(logical[i])) * 1099511628211
	}
	h *= 1099511628211 // the zero byte
	for i := 0; i < len(status); i++ {
		h = (h ^ uint64(status[i])) * 1099511628211
	}
	return h
}

// Dup returns how many events the stack already has with this logical id,
// status and timestamp, and counts this one.
func (tx *Txn) Dup(num uint32, at int64, logical, status string) uint16 {
	tx.faultEvents(num)
	d := tx.Store.Dups[num]
	if d == nil || d.At != at {
		u := undo{kind: undoDups, num: num}
		if d != nil {
			u.obj = d
		}
		tx.journal = append(tx.journal, u)
		d = &DupState{At: at, N: map[uint64]uint16{}}
		tx.Store.Dups[num] = d
	}
	h := DupHash(logical, status)
	c, had := d.N[h]
	tx.journal = append(tx.journal, undo{kind: undoDupCount, num: num, n: h, c: c, had: had})
	if c < math.MaxUint16 {
		d.N[h] = c + 1
	}
	return c
}

// propsText is the JSON of properties, as events show it.
func propsText(props map[string]any) string {
	if len(props) == 0 {
		return ""
	}
	b, err := jsonvalue.Marshal(props)
	if err != nil {
		return ""
	}
	return string(b)
}
