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

// ResourceEvent is what the operations code says about a resource event.
type resourceEvent struct {
	LogicalID  string
	PhysicalID string
	Type       string
	Status     statemachine.ResourceStatus
	Reason     string
	// Properties is the ResourceProperties text (the resolved properties as
	// JSON), or "". Events of one action can share one string.
	Properties string
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
func (tx *txn) resourceEvent(st *stackRecord, ev resourceEvent) {
	tx.writeEvent(st, eventRecord{
		Logical:    ev.LogicalID,
		Physical:   ev.PhysicalID,
		Type:       ev.Type,
		Status:     string(ev.Status),
		Reason:     ev.Reason,
		Properties: ev.Properties,
	})
}

// pendingEvent is an event written and not yet handed to observers; it is
// made into a StackEvent only when someone looks.
type pendingEvent struct {
	st  *stackRecord
	seq uint64
	rec eventRecord
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
	tx.events = append(tx.events, pendingEvent{st: st, seq: seq, rec: rec})
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
		c = &eventChunk{Num: num, Chunk: c.Chunk + 1, Events: make([]eventRecord, 0, 8)}
		tx.useChunk(c)
	}
	tx.journal = append(tx.journal, undo{kind: undoAppend, chunk: c, n: len(c.Events)})
	c.Events = append(c.Events, rec)
	return uint64(c.Chunk)*eventChunkSize + uint64(len(c.Events))
}

// useChunk makes c (a copy the transaction owns) the chunk it appends to.
func (tx *txn) useChunk(c *eventChunk) {
	tx.journal = append(tx.journal, undo{kind: undoChunk, num: c.Num, chunk: tx.chunks[c.Num]})
	tx.chunks[c.Num] = c
	tx.put(c)
}

// lastChunk returns the stack's last event chunk, or nil.
func (tx *txn) lastChunk(num uint32) *eventChunk {
	if c := tx.chunks[num]; c != nil {
		return c
	}
	it, err := tx.snap.ReverseLowerBound(tEvents.String(), ixID, chunkKey(num, math.MaxUint32))
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
		for i := int((seq-1)%eventChunkSize) + 0; i >= 0; i-- {
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
		ResourceProperties:   r.Properties,
		ClientRequestToken:   r.Token,
	}
	if r.OfStack {
		ev.EventId = stackEventID(s.id.Seed, st.StackId, seq)
	} else {
		ev.EventId = resourceEventID(r.Logical, r.Status, ts.Format(eventTimeLayout), r.Dup)
	}
	return ev
}

// dupKey and dupState keep resource EventIds unique (resourceEventID): per
// stack, for the stack's latest instant, how many events each (logical id,
// status) has had. Virtual time never goes back, so earlier instants can be
// forgotten; after loading a state file, the latest instant is counted
// again from the stored events (rebuildDups).
type dupKey struct{ logical, status string }

type dupState struct {
	at int64
	n  map[dupKey]uint16
}

// dup returns how many events the stack already has with this logical id,
// status and timestamp, and counts this one.
func (tx *txn) dup(num uint32, at int64, logical, status string) uint16 {
	d := tx.s.dups[num]
	if d == nil || d.at != at {
		tx.journal = append(tx.journal, undo{kind: undoDups, num: num, dups: d})
		d = &dupState{at: at, n: map[dupKey]uint16{}}
		tx.s.dups[num] = d
	}
	k := dupKey{logical, status}
	c, had := d.n[k]
	tx.journal = append(tx.journal, undo{kind: undoDupCount, num: num, dk: k, n: int(c), had: had})
	if c < math.MaxUint16 {
		d.n[k] = c + 1
	}
	return c
}

// rebuildDups recounts the event-id bookkeeping of every stack from its
// events at its latest instant (after a load).
func (s *store) rebuildDups() {
	tx := s.read()
	s.dups = map[uint32]*dupState{}
	tx.scan(tStacks, ixID, nil, func(r record) bool {
		st := r.(*stackRecord)
		var d *dupState
		tx.eventsBackward(st.Num, 0, func(_ uint64, e *eventRecord) bool {
			if d == nil {
				d = &dupState{at: e.Time, n: map[dupKey]uint16{}}
			}
			if e.Time != d.at {
				return false
			}
			if !e.OfStack {
				d.n[dupKey{e.Logical, e.Status}]++
			}
			return true
		})
		if d != nil {
			s.dups[st.Num] = d
		}
		return true
	})
}
