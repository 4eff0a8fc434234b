package engine

import (
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// Stack events. The operations code writes every event through
// stackEvent and resourceEvent; the store keeps them in chunks (store.EventChunk),
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
func (tx *txn) stackEvent(st *store.StackRecord, status statemachine.StackStatus, reason string) {
	countOperation(st, status)
	tx.writeEvent(st, store.EventRecord{
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
func (tx *txn) resourceEvent(st *store.StackRecord, ev resourceEvent) {
	tx.writeEvent(st, store.EventRecord{
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

func (tx *txn) writeEvent(st *store.StackRecord, rec store.EventRecord) {
	tx.MustWrite()
	if st.Num == 0 {
		panic("events: the stack has no Num: put it before writing its events")
	}
	rec.Time = tx.Meta.Now
	rec.Token = st.ClientRequestToken
	rec.Op = currentOperation(st)
	if !rec.OfStack {
		rec.Dup = tx.Dup(st.Num, rec.Time, rec.Logical, rec.Status)
	}
	seq := tx.AppendEvent(st.Num, rec)
	tx.Events = append(tx.Events, store.PendingEvent{St: st, Seq: seq})
}

// stackEventOf makes the StackEvent of a stored event.
func stackEventOf(s *store.Store, st *store.StackRecord, seq uint64, r *store.EventRecord) StackEvent {
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
		ResourceProperties:   r.PropertiesText(),
		ClientRequestToken:   r.Token,
		OperationId:          operationID(s.ID.Seed, st.StackId, r.Op),
	}
	if r.OfStack {
		ev.EventId = stackEventID(s.ID.Seed, st.StackId, seq)
	} else {
		ev.EventId = resourceEventID(r.Logical, r.Status, ts.Format(eventTimeLayout), r.Dup)
		ev.DetailedStatus = detailedStatus(r.Status, r.Reason)
	}
	return ev
}

// detailedStatus is a resource event's DetailedStatus: VALIDATION_FAILED
// when its properties failed validation before any handler ran (the
// reason is CloudFormation's own, resources.ValidationMessage; a
// handler's failure is worded "Resource handler returned message: ..."),
// "" otherwise. Derived, so the state file keeps no column for it.
func detailedStatus(status, reason string) string {
	if (status == string(statemachine.ResourceStatusCreateFailed) || status == string(statemachine.ResourceStatusUpdateFailed)) &&
		strings.HasPrefix(reason, resources.ValidationMessagePrefix) {
		return "VALIDATION_FAILED"
	}
	return ""
}
