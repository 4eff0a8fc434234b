package engine

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

// DescribeEventsInput is DescribeEvents' request: the events of a stack,
// of one of its operations, or of a change set. One of StackName,
// ChangeSetName and OperationId is required.
type DescribeEventsInput struct {
	// StackName is the stack's name or ARN (a deleted stack by ARN).
	StackName string `json:"StackName,omitempty"`
	// ChangeSetName is a change set's ARN, or its name with StackName.
	ChangeSetName string `json:"ChangeSetName,omitempty"`
	// OperationId is one operation's id (StackEvent.OperationId,
	// LastOperations, the answer of CreateStack, UpdateStack and
	// RollbackStack).
	OperationId string       `json:"OperationId,omitempty"`
	Filters     *EventFilter `json:"Filters,omitempty"`
	NextToken   string       `json:"NextToken,omitempty"`
}

// EventFilter narrows DescribeEvents' answer.
type EventFilter struct {
	// FailedEvents keeps the events of failures only (statuses ending in
	// _FAILED).
	FailedEvents *bool `json:"FailedEvents,omitempty"`
}

// DescribeEventsOutput is DescribeEvents' answer.
type DescribeEventsOutput struct {
	OperationEvents []OperationEvent `json:"OperationEvents"`
	NextToken       string           `json:"NextToken,omitempty"`
}

// OperationEvent is one event as DescribeEvents shows it: the stack event
// with its operation's type and status and the kind of event.
type OperationEvent struct {
	EventId     string `json:"EventId"`
	StackId     string `json:"StackId"`
	OperationId string `json:"OperationId,omitempty"`
	// OperationType is CREATE_STACK, UPDATE_STACK, DELETE_STACK,
	// CONTINUE_ROLLBACK, ROLLBACK or CREATE_CHANGESET.
	OperationType string `json:"OperationType,omitempty"`
	// OperationStatus is the operation's now: IN_PROGRESS, SUCCEEDED or
	// FAILED.
	OperationStatus string `json:"OperationStatus,omitempty"`
	// EventType is STACK_EVENT (the stack's own), PROGRESS_EVENT (a
	// resource's), PROVISIONING_ERROR (a resource that failed) or
	// VALIDATION_ERROR (a resource whose properties failed validation).
	EventType            string    `json:"EventType"`
	LogicalResourceId    string    `json:"LogicalResourceId"`
	PhysicalResourceId   string    `json:"PhysicalResourceId"`
	ResourceType         string    `json:"ResourceType"`
	Timestamp            time.Time `json:"Timestamp"`
	ResourceStatus       string    `json:"ResourceStatus"`
	ResourceStatusReason string    `json:"ResourceStatusReason,omitempty"`
	ResourceProperties   string    `json:"ResourceProperties,omitempty"`
	ClientRequestToken   string    `json:"ClientRequestToken,omitempty"`
	DetailedStatus       string    `json:"DetailedStatus,omitempty"`
}

// Operation statuses (BeaconStackOperationStatus) and event types.
const (
	OperationInProgress = "IN_PROGRESS"
	OperationSucceeded  = "SUCCEEDED"
	OperationFailed     = "FAILED"

	EventTypeStack        = "STACK_EVENT"
	EventTypeProgress     = "PROGRESS_EVENT"
	EventTypeProvisioning = "PROVISIONING_ERROR"
	EventTypeValidation   = "VALIDATION_ERROR"
)

// DescribeEvents returns the events of a stack (every operation), of one
// operation, or of a change set (its creation of the stack, its execution
// and the rollback of that), newest first, a page at a time.
//
// UNVERIFIED: no answer of AWS's DescribeEvents was found recorded. The
// events are the stack events DescribeStackEvents returns; EventType,
// OperationStatus and the errors are stacksim's reading of the API
// reference (docs/engine.md, "Operations").
func (e *Engine) DescribeEvents(ctx context.Context, in DescribeEventsInput) (*DescribeEventsOutput, error) {
	if in.StackName == "" && in.ChangeSetName == "" && in.OperationId == "" {
		return nil, ValidationError("One of ChangeSetName, OperationId or StackName must be specified.")
	}
	failedOnly := in.Filters != nil && in.Filters.FailedEvents != nil && *in.Filters.FailedEvents
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &DescribeEventsOutput{OperationEvents: []OperationEvent{}}
	err := e.view(func(tx *txn) error {
		st, ops, err := eventsSelection(tx, in)
		if err != nil {
			return err
		}
		from, err := eventCursor(in.NextToken, "DescribeEvents", st.StackId)
		if err != nil {
			return err
		}
		statuses := e.operationStatusesOf(tx, st)
		if in.ChangeSetName != "" && in.OperationId == "" {
			// A change set's execution is followed by its rollback, if
			// it rolled back.
			for _, n := range slices.Collect(maps.Keys(ops)) {
				if statuses[n+1].typ == opRollback && statuses[n].typ != opCreateChangeSet {
					ops[n+1] = true
				}
			}
		}
		size := e.pageSize()
		tx.EventsBackward(st.Num, from, func(seq uint64, r *store.EventRecord) bool {
			if ops != nil && !ops[r.Op.Number()] || failedOnly && !strings.HasSuffix(r.Status, "_FAILED") {
				return true
			}
			if len(out.OperationEvents) == size {
				out.NextToken = encodeToken("DescribeEvents", st.StackId, strconv.FormatUint(seq, 10))
				return false
			}
			out.OperationEvents = append(out.OperationEvents, operationEventOf(stackEventOf(e.st, st, seq, r), r, statuses))
			return true
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eventsSelection is the stack DescribeEvents reads and the numbers of the
// operations whose events it returns (nil: all).
func eventsSelection(tx *txn, in DescribeEventsInput) (*store.StackRecord, map[uint32]bool, error) {
	var st *store.StackRecord
	if in.StackName != "" {
		if st = tx.FindStack(in.StackName); st == nil {
			return nil, nil, stackNotFound(in.StackName)
		}
	}
	switch {
	case in.ChangeSetName != "":
		cs, err := tx.findChangeSet(in.ChangeSetName, in.StackName)
		if err != nil {
			return nil, nil, err
		}
		if st == nil || st.StackId != cs.StackId {
			if st = tx.StackByID(cs.StackId); st == nil {
				return nil, nil, ChangeSetNotFoundError(in.ChangeSetName)
			}
		}
		ops := map[uint32]bool{}
		for _, t := range cs.Operations {
			ops[t.Number()] = true
		}
		if in.OperationId != "" {
			n, ok := operationNumber(tx.Store.ID.Seed, st, in.OperationId)
			if !ok || !ops[n] {
				return nil, nil, operationNotFound(in.OperationId)
			}
			ops = map[uint32]bool{n: true}
		}
		return st, ops, nil
	case in.OperationId != "":
		if st == nil {
			for _, s := range tx.AllStacks() {
				if _, ok := operationNumber(tx.Store.ID.Seed, s, in.OperationId); ok {
					st = s
					break
				}
			}
		}
		if st == nil {
			return nil, nil, operationNotFound(in.OperationId)
		}
		n, ok := operationNumber(tx.Store.ID.Seed, st, in.OperationId)
		if !ok {
			return nil, nil, operationNotFound(in.OperationId)
		}
		return st, map[uint32]bool{n: true}, nil
	}
	return st, nil, nil
}

// operationNotFound answers an OperationId that no operation of the
// account (or of the stack named) has. UNVERIFIED wording.
func operationNotFound(id string) *APIError {
	return ValidationError("Operation with id %s does not exist", id)
}

// operationNumber finds the operation of st whose OperationId is id.
func operationNumber(seed int64, st *store.StackRecord, id string) (uint32, bool) {
	if len(id) != 36 {
		return 0, false
	}
	for n := uint32(1); n <= st.Operations; n++ {
		if deriveUUID(seed, uint64(n), "operation", st.StackId) == id {
			return n, true
		}
	}
	return 0, false
}

// opState is what DescribeEvents shows of one operation: its type, its
// status now.
type opState struct {
	typ, status string
}

// operationStatuses reads every operation of st from its events: the type
// and where it ended, by the last status its stack events reached. An
// operation whose stack is still in motion in it is IN_PROGRESS; one that
// another followed while its status was in progress (a create or update
// its rollback took over) or that ended in a failed status FAILED; one that
// came to rest in a complete status (ROLLBACK_COMPLETE counts for a
// rollback only) or a change set's creation SUCCEEDED.
func operationStatuses(tx *txn, st *store.StackRecord) map[uint32]opState {
	out := map[uint32]opState{}
	tx.EventsBackward(st.Num, 0, func(_ uint64, r *store.EventRecord) bool {
		n := r.Op.Number()
		if n == 0 || !r.OfStack {
			return true
		}
		if _, seen := out[n]; seen {
			return true
		}
		out[n] = opState{typ: r.Op.Type(), status: operationStatus(r.Op.Type(), r.Status, n < st.Operations)}
		return true
	})
	return out
}

// opStatuses are a stack's operation statuses as operationStatuses read
// them, while the stack has the events and operations it had then.
type opStatuses struct {
	events   uint64
	ops      uint32
	statuses map[uint32]opState
}

// operationStatusesOf is operationStatuses, read once for all the pages of
// a stack's events (the engine's lock is held): paging through N events
// reads them twice, not once per page.
func (e *Engine) operationStatusesOf(tx *txn, st *store.StackRecord) map[uint32]opState {
	n := tx.EventCount(st.Num)
	if c, ok := e.opStatuses[st.Num]; ok && c.events == n && c.ops == st.Operations {
		return c.statuses
	}
	statuses := operationStatuses(tx, st)
	if e.opStatuses == nil {
		e.opStatuses = map[uint32]opStatuses{}
	}
	e.opStatuses[st.Num] = opStatuses{events: n, ops: st.Operations, statuses: statuses}
	return statuses
}

// operationStatus is the status of an operation of type typ whose stack
// events last reached last; followed: a later operation began.
func operationStatus(typ, last string, followed bool) string {
	switch {
	case typ == opCreateChangeSet:
		return OperationSucceeded
	case strings.HasSuffix(last, "_FAILED"):
		return OperationFailed
	case strings.HasSuffix(last, "_IN_PROGRESS"):
		if followed {
			return OperationFailed
		}
		return OperationInProgress
	case strings.Contains(last, "ROLLBACK") && typ != opRollback && typ != opContinueRollback:
		return OperationFailed
	}
	return OperationSucceeded
}

// operationEventOf is a stack event as DescribeEvents shows it.
func operationEventOf(ev StackEvent, r *store.EventRecord, statuses map[uint32]opState) OperationEvent {
	out := OperationEvent{
		EventId: ev.EventId, StackId: ev.StackId, OperationId: ev.OperationId,
		LogicalResourceId: ev.LogicalResourceId, PhysicalResourceId: ev.PhysicalResourceId, ResourceType: ev.ResourceType,
		Timestamp: ev.Timestamp, ResourceStatus: ev.ResourceStatus, ResourceStatusReason: ev.ResourceStatusReason,
		ResourceProperties: ev.ResourceProperties, ClientRequestToken: ev.ClientRequestToken, DetailedStatus: ev.DetailedStatus,
	}
	if r.Op != 0 {
		out.OperationType = r.Op.Type()
		out.OperationStatus = statuses[r.Op.Number()].status
	}
	switch {
	case r.OfStack:
		out.EventType = EventTypeStack
	case ev.DetailedStatus == "VALIDATION_FAILED":
		out.EventType = EventTypeValidation
	case strings.HasSuffix(r.Status, "_FAILED"):
		out.EventType = EventTypeProvisioning
	default:
		out.EventType = EventTypeProgress
	}
	return out
}
