package statemachine

import (
	"errors"
	"fmt"
)

// Operation is a CloudFormation API call that acts on a stack's status.
type Operation string

// The operations whose admission depends on the stack's status.
const (
	CreateStack            Operation = "CreateStack"
	CreateChangeSet        Operation = "CreateChangeSet"
	ExecuteChangeSet       Operation = "ExecuteChangeSet"
	UpdateStack            Operation = "UpdateStack"
	DeleteStack            Operation = "DeleteStack"
	ContinueUpdateRollback Operation = "ContinueUpdateRollback"
	RollbackStack          Operation = "RollbackStack"
	CancelUpdateStack      Operation = "CancelUpdateStack"
)

var operations = [...]Operation{
	CreateStack, CreateChangeSet, ExecuteChangeSet, UpdateStack, DeleteStack,
	ContinueUpdateRollback, RollbackStack, CancelUpdateStack,
}

// Operations returns every operation, in a stable order.
func Operations() []Operation { return append([]Operation(nil), operations[:]...) }

// ChangeSetType is a change set's ChangeSetType.
type ChangeSetType string

// The change set types. The zero value means UPDATE, AWS's default.
const (
	ChangeSetTypeCreate ChangeSetType = "CREATE"
	ChangeSetTypeUpdate ChangeSetType = "UPDATE"
	ChangeSetTypeImport ChangeSetType = "IMPORT"
)

var changeSetTypes = [...]ChangeSetType{ChangeSetTypeCreate, ChangeSetTypeUpdate, ChangeSetTypeImport}

// StackInfo is what decides whether an operation is allowed: the stack as it
// is (NotExist when no stack has the name), and for the change-set
// operations, the change set's type.
type StackInfo struct {
	StackName string      // for the messages that name the stack
	StackID   string      // for the messages that give its ARN; StackName when empty
	Status    StackStatus // NotExist when no stack has the name

	// DisableRollback: the stack's last failed operation (a create or an
	// update) ran with rollback disabled, which is how a stack comes to rest
	// in CREATE_FAILED or UPDATE_FAILED and may then be updated again.
	DisableRollback bool
	// OnFailureDoNothing: the stack was created with OnFailure DO_NOTHING.
	// A CREATE_FAILED stack made so cannot be updated.
	OnFailureDoNothing bool

	ChangeSetType ChangeSetType // CreateChangeSet, ExecuteChangeSet; "" is UPDATE
	ChangeSetName string        // for their messages
}

// OperationError is a refused operation: AWS's error code and message
// (ValidationError unless said otherwise), verbatim.
type OperationError struct {
	Operation Operation
	Status    StackStatus
	Code      string
	Message   string
}

// Error returns AWS's message, verbatim.
func (e *OperationError) Error() string { return e.Message }

// The answers of an operation that AWS accepts and that changes nothing. The
// engine answers the call with success and does nothing else.
var (
	// ErrAlreadyDeleting: DeleteStack while the stack is DELETE_IN_PROGRESS.
	ErrAlreadyDeleting = errors.New("the stack is already being deleted: DeleteStack is accepted and does nothing")
	// ErrAlreadyDeleted: DeleteStack of a stack that does not exist or is
	// DELETE_COMPLETE.
	ErrAlreadyDeleted = errors.New("the stack does not exist or is already deleted: DeleteStack is accepted and does nothing")
)

// IsNoOp reports whether err is an accepted call that does nothing
// (ErrAlreadyDeleting, ErrAlreadyDeleted).
func IsNoOp(err error) bool {
	return errors.Is(err, ErrAlreadyDeleting) || errors.Is(err, ErrAlreadyDeleted)
}

// updatable: where UpdateStack (and an UPDATE or IMPORT change set) is
// always allowed (BEHAVIOUR.md §3).
func (s StackStatus) updatable() bool {
	switch s {
	case StackStatusCreateComplete, StackStatusUpdateComplete, StackStatusUpdateRollbackComplete,
		StackStatusImportComplete, StackStatusImportRollbackComplete:
		return true
	}
	return false
}

// nameFree: the name can be given to a new stack.
func (s StackStatus) nameFree() bool {
	return s == NotExist || s == StackStatusDeleteComplete
}

// CheckOperation says whether op may be called on the stack s describes.
// It returns nil when the call is accepted and changes the stack (see
// OperationEvent for the event it fires); ErrAlreadyDeleting or
// ErrAlreadyDeleted when the call is accepted and does nothing (IsNoOp); an
// *OperationError with AWS's code and message when the call is refused; any
// other error when op or s.Status is not known.
func CheckOperation(op Operation, s StackInfo) error {
	if s.Status != NotExist && !s.Status.Valid() {
		return fmt.Errorf("statemachine: unknown stack status %q", string(s.Status))
	}
	st := s.Status
	switch op {
	case CreateStack:
		if st.nameFree() {
			return nil
		}
		return s.refuse(op, CodeAlreadyExists, msgAlreadyExists(s.name()))

	case CreateChangeSet:
		switch s.changeSetType() {
		case ChangeSetTypeCreate:
			if st.nameFree() || st == StackStatusReviewInProgress {
				return nil
			}
			return s.refuse(op, CodeValidationError, msgCreateChangeSetExists(s.name(), s.ChangeSetName))
		case ChangeSetTypeImport:
			if st.nameFree() || st == StackStatusReviewInProgress || st.updatable() {
				return nil
			}
			return s.refuse(op, CodeValidationError, msgCannotBeUpdated(s.id(), st))
		case ChangeSetTypeUpdate:
			if st == NotExist {
				return s.refuse(op, CodeValidationError, msgDoesNotExist(s.name()))
			}
			return s.checkUpdate(op)
		}
		return fmt.Errorf("statemachine: unknown change set type %q", string(s.ChangeSetType))

	case ExecuteChangeSet:
		if st.nameFree() {
			return s.refuse(op, CodeChangeSetNotFound, msgChangeSetNotFound(s.ChangeSetName))
		}
		switch s.changeSetType() {
		case ChangeSetTypeCreate:
			if st == StackStatusReviewInProgress {
				return nil
			}
			return s.refuse(op, CodeValidationError, msgCannotBeUpdated(s.id(), st))
		case ChangeSetTypeImport:
			if st == StackStatusReviewInProgress || st.updatable() {
				return nil
			}
			return s.refuse(op, CodeValidationError, msgCannotBeUpdated(s.id(), st))
		case ChangeSetTypeUpdate:
			return s.checkUpdate(op)
		}
		return fmt.Errorf("statemachine: unknown change set type %q", string(s.ChangeSetType))

	case UpdateStack:
		if st == NotExist {
			return s.refuse(op, CodeValidationError, msgDoesNotExist(s.name()))
		}
		return s.checkUpdate(op)

	case DeleteStack:
		switch {
		case st.nameFree():
			return ErrAlreadyDeleted
		case st == StackStatusDeleteInProgress:
			return ErrAlreadyDeleting
		case st.AtRest() || st == StackStatusReviewInProgress:
			return nil
		}
		return s.refuse(op, CodeValidationError, msgCannotBeDeleted(s.name(), st))

	case ContinueUpdateRollback:
		switch st {
		case NotExist:
			return s.refuse(op, CodeValidationError, msgDoesNotExist(s.name()))
		case StackStatusUpdateRollbackFailed:
			return nil
		}
		return s.refuse(op, CodeValidationError, msgContinueUpdateRollback(st))

	case RollbackStack:
		// From CREATE_FAILED or UPDATE_FAILED (API reference: "Rolls back the
		// specified stack to the last known stable state from CREATE_FAILED or
		// UPDATE_FAILED stack statuses"), whether the create failed with
		// DisableRollback or with OnFailure DO_NOTHING: AWS documents no
		// difference.
		switch st {
		case NotExist:
			return s.refuse(op, CodeValidationError, msgDoesNotExist(s.name()))
		case StackStatusCreateFailed, StackStatusUpdateFailed:
			return nil
		}
		return s.refuse(op, CodeValidationError, msgRollbackStack(st))

	case CancelUpdateStack:
		switch st {
		case NotExist:
			return s.refuse(op, CodeValidationError, msgDoesNotExist(s.name()))
		case StackStatusUpdateInProgress:
			return nil
		}
		return s.refuse(op, CodeValidationError, msgCancelUpdate)
	}
	return fmt.Errorf("statemachine: unknown operation %q", string(op))
}

// checkUpdate decides an update of an existing stack: UpdateStack, or an
// UPDATE change set.
func (s StackInfo) checkUpdate(op Operation) error {
	switch st := s.Status; {
	case st.updatable():
		return nil
	case st == StackStatusCreateFailed && s.OnFailureDoNothing:
		return s.refuse(op, CodeValidationError, msgDoNothing)
	case (st == StackStatusCreateFailed || st == StackStatusUpdateFailed) && s.DisableRollback:
		return nil
	default:
		return s.refuse(op, CodeValidationError, msgCannotBeUpdated(s.id(), st))
	}
}

// OperationEvent says what an accepted op does to the stack: the event to
// fire, and the status to fire it from. `from` is NotExist when op makes a
// new stack (CreateStack, or a CREATE or IMPORT change set, on a name that is
// free: a DELETE_COMPLETE stack stays as it is, a new one is made); otherwise
// it is s.Status. ok is false when op is refused, does nothing (IsNoOp), or
// does not move the stack (CreateChangeSet on an existing stack).
func OperationEvent(op Operation, s StackInfo) (from StackStatus, ev StackEvent, ok bool) {
	if CheckOperation(op, s) != nil {
		return s.Status, "", false
	}
	from = s.Status
	switch op {
	case CreateStack:
		return NotExist, StackCreate, true
	case CreateChangeSet:
		if s.Status.nameFree() {
			return NotExist, StackReview, true
		}
		return from, "", false
	case ExecuteChangeSet:
		switch s.changeSetType() {
		case ChangeSetTypeCreate:
			return from, StackCreate, true
		case ChangeSetTypeImport:
			return from, StackImport, true
		}
		return from, StackUpdate, true
	case UpdateStack:
		return from, StackUpdate, true
	case DeleteStack:
		return from, StackDelete, true
	case ContinueUpdateRollback:
		return from, StackContinueUpdateRollback, true
	case RollbackStack:
		return from, StackRollback, true
	case CancelUpdateStack:
		return from, StackCancelUpdate, true
	}
	return from, "", false
}

func (s StackInfo) refuse(op Operation, code, msg string) error {
	return &OperationError{Operation: op, Status: s.Status, Code: code, Message: msg}
}

func (s StackInfo) changeSetType() ChangeSetType {
	if s.ChangeSetType == "" {
		return ChangeSetTypeUpdate
	}
	return s.ChangeSetType
}

func (s StackInfo) name() string {
	if s.StackName == "" {
		return s.StackID
	}
	return s.StackName
}

func (s StackInfo) id() string {
	if s.StackID == "" {
		return s.StackName
	}
	return s.StackID
}
