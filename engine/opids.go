package engine

import (
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// AWS's operations (late 2025): every create, update, delete, automatic
// rollback, RollbackStack, ContinueUpdateRollback and creation of a stack
// by a change set is an operation with an id of its own. Its events carry
// the id (StackEvent.OperationId), CreateStack, UpdateStack and
// RollbackStack answer it, DescribeStacks and ListStacks show the most
// recent ones (LastOperations: a rollback and the create or update it
// rolls back, newest first, as AWS's documented example shows), and
// DescribeEvents reads the events of one.
//
// An operation begins where the stack enters a status that begins one, so
// that the stack's own first event carries the new id: every stack event
// goes through countOperation.

// Operation types (AWS's OperationType).
const (
	opCreateStack      = "CREATE_STACK"
	opUpdateStack      = "UPDATE_STACK"
	opDeleteStack      = "DELETE_STACK"
	opContinueRollback = "CONTINUE_ROLLBACK"
	opRollback         = "ROLLBACK"
	opCreateChangeSet  = "CREATE_CHANGESET"
)

// OperationTypes are AWS's operation types (OperationType).
var OperationTypes = []string{opCreateStack, opUpdateStack, opDeleteStack, opContinueRollback, opRollback, opCreateChangeSet}

// operationStartedBy is the type of the operation that a stack entering
// status begins, given its last one; "" when the status begins none.
func operationStartedBy(status statemachine.StackStatus, last store.OpTag) string {
	switch status {
	case statemachine.StackStatusReviewInProgress:
		return opCreateChangeSet
	case statemachine.StackStatusCreateInProgress:
		return opCreateStack
	case statemachine.StackStatusUpdateInProgress:
		return opUpdateStack
	case statemachine.StackStatusDeleteInProgress:
		return opDeleteStack
	case statemachine.StackStatusImportInProgress:
		// An IMPORT change set: it makes a stack (REVIEW_IN_PROGRESS) or
		// changes one. UNVERIFIED: AWS has no import operation type.
		if last.Type() == opCreateChangeSet {
			return opCreateStack
		}
		return opUpdateStack
	case statemachine.StackStatusRollbackInProgress, statemachine.StackStatusUpdateRollbackInProgress,
		statemachine.StackStatusImportRollbackInProgress:
		// From UPDATE_ROLLBACK_FAILED only ContinueUpdateRollback goes
		// back to UPDATE_ROLLBACK_IN_PROGRESS.
		if t := last.Type(); t == opRollback || t == opContinueRollback {
			return opContinueRollback
		}
		return opRollback
	}
	return ""
}

// countOperation begins the operation that st entering status begins, if
// any: the stack counts it and it becomes the first of LastOperations.
// The caller puts st.
func countOperation(st *store.StackRecord, status statemachine.StackStatus) {
	last := currentOperation(st)
	typ := operationStartedBy(status, last)
	if typ == "" {
		return
	}
	st.Operations++
	tag, ok := store.NewOpTag(st.Operations, typ)
	if !ok {
		return
	}
	if typ == opRollback && (last.Type() == opCreateStack || last.Type() == opUpdateStack) {
		st.LastOperations = []store.OpTag{tag, last}
		return
	}
	st.LastOperations = []store.OpTag{tag}
}

// currentOperation is the operation that writes the stack's events now
// (or wrote them last); 0 when none was counted.
func currentOperation(st *store.StackRecord) store.OpTag {
	if len(st.LastOperations) == 0 {
		return 0
	}
	return st.LastOperations[0]
}

// forwardOperation is the create or update among the stack's last
// operations (what CreateStack and UpdateStack answered); 0 when none.
func forwardOperation(st *store.StackRecord) store.OpTag {
	for _, t := range st.LastOperations {
		if t.Type() == opCreateStack || t.Type() == opUpdateStack {
			return t
		}
	}
	return 0
}

// operationID is the OperationId of operation t of stack stackID: a UUID
// derived from the seed, the stack and the operation's number.
func operationID(seed int64, stackID string, t store.OpTag) string {
	if t == 0 {
		return ""
	}
	return deriveUUID(seed, uint64(t.Number()), "operation", stackID)
}

// OperationEntry is one of a stack's last operations (LastOperations).
type OperationEntry struct {
	OperationType string `json:"OperationType"`
	OperationId   string `json:"OperationId"`
}

// lastOperationsOf is the stack's LastOperations; nil when it has none.
func lastOperationsOf(seed int64, st *store.StackRecord) []OperationEntry {
	if len(st.LastOperations) == 0 {
		return nil
	}
	out := make([]OperationEntry, len(st.LastOperations))
	for i, t := range st.LastOperations {
		out[i] = OperationEntry{OperationType: t.Type(), OperationId: operationID(seed, st.StackId, t)}
	}
	return out
}
