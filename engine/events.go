package engine

import (
	"math"
	"time"

	"github.com/stacksim/stacksim/statemachine"
)

// Stack events. The operations code writes every event through
// stackEvent and resourceEvent; the store keeps them in chunks (eventChunk),
// numbered from 1 per stack; DescribeStackEvents reads them newest first;
// observers (Engine.Subscribe) and the loop's stop conditions see them as
// they are written.

// eventTimeLayout is the timestamp in resource EventIds, as AWS writes it.
const eventTimeLayout = "2006-01-02T15:04:05.000Z"

// resourceEvent is what the operations code says about a resource event.
type resourceEvent struct {
	LogicalID  string
	PhysicalID string
	Type       string
	Status     statemachine.ResourceStatus
	Reason     string
	// Properties are the resolved properties (the event's
	// ResourceProperties, as JSON when read), or nil. They are kept as they
	// are, never changed: the record and the step hold the same map.
	Properties map[string]any
}

// stackEvent writes an event of the stack itself (LogicalResourceId = the
// stack name, PhysicalResourceId = the stack ARN, ResourceType
// AWS::CloudFormation::Stack) at the transaction's virtual time. It does not
// change the stack's record: the caller does that.
func (tx *txn) stackEvent(st *stackRecord, status statemachine.StackStatus, reason string) {
	tx.writeEvent(st, eventRecord{
		Logical:  st.StackName,
		Physical: st.StackId,
		Type:     StackResourceType,
		Status:   string(status),
		Reason:   reason,
		OfStack:  true,
	})
}

// resourceEvent writes an event of one of the stack's resources at the
// transaction's virtual time. It does not change the resource's record.
//
// Both writers stamp the event with st.ClientRequestToken: pass the stack's
// current record (the one just put, when the operation set a new token).
func (tx *txn) resourceEvent(st *stackRecord, ev resourceEvent) {
	tx.writeEvent(st, eventRecord{
		Logical:    ev.LogicalID,
		Physical:   ev.PhysicalID,
		Type:       ev.Type,
		Status:     string(ev.Status),
		Reason:     ev.Reason,
		Properties: propsOf(ev.Properties),
	})
}

// propsOf is what an eventRecord keeps of a resource event's properties:
// nil for none (an interface holding a nil map would not be).
func propsOf(m map[string]any) any {
	if len(m) == 0 {
		return nil
	}
	return m
}

// propertiesText is the event's ResourceProperties: the properties as JSON
// (made now, from the map the event keeps), or "".
func (r *eventRecord) propertiesText() string {
	switch p := r.Properties.(type) {
	case string:
		return p
	case map[string]any:
		return propsText(p)
	}
	return ""
}

// pendingEvent is an event written and not yet handed to observers; it is
// read back and made into a StackEvent only when someone looks.
type pendingEvent struct {
	st  *stackRecord
	seq uint64
}

func (tx *txn) writeEvent(st *stackRecord, rec eventRecord) {
	tx.mustWrite()
	if st.Num == 0 {
		panic("events: the stack has no Num: put it before writing its events")
	}
	rec.Time = tx.meta.Now
	rec.Token = st.ClientRequestToken
	if !rec.OfStack {
		rec.Dup = tx.dup(st.Num, rec.Time, rec.Logical, rec.Status)
	}
	seq := tx.appendEvent(st.Num, rec)
	tx.events = append(tx.events, pendingEvent{st: st, seq: seq})
}

// appendEvent appends an event to the stack's last chunk (opening a new one
// when it is full) and returns the event's sequence number.
func (tx *txn) appendEvent(num uint32, rec eventRecord) uint64 {
	if tx.chunks == nil {
		tx.chunks = map[uint32]*eventChunk{}
	}
	c := tx.chunks[num]
	if c == nil {
		if last := tx.lastChunk(num); last != nil {
			c = &eventChunk{Num: num, Chunk: last.Chunk, Events: last.Events}
		} else {
			c = &eventChunk{Num: num, Events: make([]eventRecord, 0, 8)}
		}
		tx.useChunk(c)
	}
	if len(c.Events) == eventChunkSize {
		// A stack with a full chunk is a big one: the next chunk gets its
		// whole size at once rather than growing to it.
		c = &eventChunk{Num: num, Chunk: c.Chunk + 1, Events: make([]eventRecord, 0, eventChunkSize)}
		tx.useChunk(c)
	}
	tx.journal = append(tx.journal, undo{kind: undoAppend, obj: c, n: uint64(len(c.Events))})
	c.Events = append(c.Events, rec)
	return uint64(c.Chunk)*eventChunkSize + uint64(len(c.Events))
}

// useChunk makes c (a copy the transaction owns) the chunk it appends to.
func (tx *txn) useChunk(c *eventChunk) {
	u := undo{kind: undoChunk, num: c.Num}
	if old := tx.chunks[c.Num]; old != nil {
		u.obj = old
	}
	tx.journal = append(tx.journal, u)
	tx.chunks[c.Num] = c
	tx.put(c)
}

// lastChunk returns the stack's last event chunk, or nil.
func (tx *txn) lastChunk(num uint32) *eventChunk {
	if c := tx.chunks[num]; c != nil {
		return c
	}
	if c := tx.s.tails[num]; c != nil {
		return c
	}
	it, err := tx.snap.ReverseLowerBound(tEvents.String(), ixID, []byte(chunkKey(num, math.MaxUint32)))
	if err != nil {
		panic("events: " + err.Error())
	}
	raw := it.Next()
	if raw == nil {
		return nil
	}
	if c := raw.(*eventChunk); c.Num == num {
		return c
	}
	return nil
}

// eventCount returns how many events the stack has.
func (tx *txn) eventCount(num uint32) uint64 {
	c := tx.lastChunk(num)
	if c == nil {
		return 0
	}
	return uint64(c.Chunk)*eventChunkSize + uint64(len(c.Events))
}

// eventsBackward calls fn with the stack's events from sequence number from
// (0: the newest) down to the oldest, until fn returns false.
func (tx *txn) eventsBackward(num uint32, from uint64, fn func(seq uint64, rec *eventRecord) bool) {
	n := tx.eventCount(num)
	if from == 0 || from > n {
		from = n
	}
	for seq := from; seq > 0; {
		chunk := uint32((seq - 1) / eventChunkSize)
		r := tx.get(tEvents, chunkKey(num, chunk))
		if r == nil {
			return
		}
		c := r.(*eventChunk)
		for i := int((seq - 1) % eventChunkSize); i >= 0; i-- {
			if i >= len(c.Events) {
				continue
			}
			if !fn(uint64(c.Chunk)*eventChunkSize+uint64(i)+1, &c.Events[i]) {
				return
			}
		}
		seq = uint64(chunk) * eventChunkSize
	}
}

// eventsForward calls fn with every event of the stack, oldest first.
func (tx *txn) eventsForward(num uint32, fn func(seq uint64, rec *eventRecord) bool) {
	tx.scan(tEvents, ixID, numKey(num), func(r record) bool {
		c := r.(*eventChunk)
		for i := range c.Events {
			if !fn(uint64(c.Chunk)*eventChunkSize+uint64(i)+1, &c.Events[i]) {
				return false
			}
		}
		return true
	})
}

// eventAt returns the stored event with this sequence number, or nil.
func (tx *txn) eventAt(num uint32, seq uint64) *eventRecord {
	if seq == 0 {
		return nil
	}
	var c *eventChunk
	chunk := uint32((seq - 1) / eventChunkSize)
	if cc := tx.chunks[num]; cc != nil && cc.Chunk == chunk {
		c = cc
	} else {
		var buf [8]byte
		if r := tx.getb(tEvents, appendNum(appendNum(buf[:0], num), chunk)); r != nil {
			c = r.(*eventChunk)
		}
	}
	if c == nil {
		return nil
	}
	i := int((seq - 1) % eventChunkSize)
	if i >= len(c.Events) {
		return nil
	}
	return &c.Events[i]
}

// stackEventOf makes the StackEvent of a stored event.
func (s *store) stackEventOf(st *stackRecord, seq uint64, r *eventRecord) StackEvent {
	ts := time.Unix(0, r.Time).UTC()
	ev := StackEvent{
		StackId:              st.StackId,
		StackName:            st.StackName,
		LogicalResourceId:    r.Logical,
		PhysicalResourceId:   r.Physical,
		ResourceType:         r.Type,
		Timestamp:            ts,
		ResourceStatus:       r.Status,
		ResourceStatusReason: r.Reason,
		ResourceProperties:   r.propertiesText(),
		ClientRequestToken:   r.Token,
	}
	if r.OfStack {
		ev.EventId = stackEventID(s.id.Seed, st.StackId, seq)
	} else {
		ev.EventId = resourceEventID(r.Logical, r.Status, ts.Format(eventTimeLayout), r.Dup)
	}
	return ev
}

// dupState keeps resource EventIds unique (resourceEventID): per stack, for
// the stack's latest instant, how many events each (logical id, status) has
// had, keyed by a hash of the pair. Two pairs with one hash share a count:
// the later one gets a suffix it did not need, and every id stays unique.
// Virtual time never goes back, so earlier instants can be forgotten; after
// loading a state file, the latest instant is counted again from the stored
// events.
type dupState struct {
	at int64
	n  map[uint64]uint16
}

// dupHash is FNV-1a (64 bits) of logical id, a zero byte, and status: stable
// across processes, unlike the runtime's map hash.
func dupHash(logical, status string) uint64 {
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

// dup returns how many events the stack already has with this logical id,
// status and timestamp, and counts this one.
func (tx *txn) dup(num uint32, at int64, logical, status string) uint16 {
	d := tx.s.dups[num]
	if d == nil || d.at != at {
		u := undo{kind: undoDups, num: num}
		if d != nil {
			u.obj = d
		}
		tx.journal = append(tx.journal, u)
		d = &dupState{at: at, n: map[uint64]uint16{}}
		tx.s.dups[num] = d
	}
	h := dupHash(logical, status)
	c, had := d.n[h]
	tx.journal = append(tx.journal, undo{kind: undoDupCount, num: num, n: h, c: c, had: had})
	if c < math.MaxUint16 {
		d.n[h] = c + 1
	}
	return c
}

// rebuildDups recounts the event-id bookkeeping of every stack from its
// events at its latest instant (after a load).
func (s *store) rebuildDups() {
	tx := s.read()
	s.dups = map[uint32]*dupState{}
	tx.scan(tStacks, ixID, "", func(r record) bool {
		st := r.(*stackRecord)
		var d *dupState
		tx.eventsBackward(st.Num, 0, func(_ uint64, e *eventRecord) bool {
			if d == nil {
				d = &dupState{at: e.Time, n: map[uint64]uint16{}}
			}
			if e.Time != d.at {
				return false
			}
			if !e.OfStack {
				d.n[dupHash(e.Logical, e.Status)]++
			}
			return true
		})
		if d != nil {
			s.dups[st.Num] = d
		}
		return true
	})
}
