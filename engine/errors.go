package engine

import (
	"errors"
	"fmt"

	"github.com/stacksim/stacksim/statemachine"
)

// AWS error codes, as the service returns them (the AWS CLI prints them in
// parentheses). Several exceptions have a code without "Exception".
const (
	CodeValidationError          = "ValidationError"
	CodeAlreadyExists            = "AlreadyExistsException"
	CodeChangeSetNotFound        = "ChangeSetNotFound"
	CodeInsufficientCapabilities = "InsufficientCapabilitiesException"
	CodeLimitExceeded            = "LimitExceededException"
	CodeTokenAlreadyExists       = "TokenAlreadyExistsException"
	CodeInvalidChangeSetStatus   = "InvalidChangeSetStatus"
	CodeStackNotFound            = "StackNotFoundException"
)

// APIError is a refused API call: AWS's error code and message. A call that
// returns one has changed nothing.
type APIError struct {
	Code    string
	Message string
	// cause is what the message comes from, when there is more to know:
	// the positioned *template.Error (or template.Errors) of a template
	// fault, which a caller reaches with errors.As to print FILE:LINE:COL.
	cause error
	// transform: a template's transform failed (a change set is made
	// FAILED with the message rather than refused).
	transform bool
}

// Error returns "Code: Message".
func (e *APIError) Error() string { return e.Code + ": " + e.Message }

// Unwrap returns what the error comes from (a template's positioned
// errors), or nil.
func (e *APIError) Unwrap() error { return e.cause }

// CLIMessage returns the error as the AWS CLI prints it:
// "An error occurred (Code) when calling the Op operation: Message".
func (e *APIError) CLIMessage(operation string) string {
	return fmt.Sprintf("An error occurred (%s) when calling the %s operation: %s", e.Code, operation, e.Message)
}

// IsCode reports whether err is (or wraps) an *APIError with this code.
func IsCode(err error, code string) bool {
	var e *APIError
	return errors.As(err, &e) && e.Code == code
}

func newAPIError(code, format string, args ...any) *APIError {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &APIError{Code: code, Message: msg}
}

// ValidationError returns a ValidationError, the code of most refusals.
func ValidationError(format string, args ...any) *APIError {
	return newAPIError(CodeValidationError, format, args...)
}

// AlreadyExistsError returns the error of CreateStack on a name that is
// taken: "Stack [NAME] already exists".
func AlreadyExistsError(stackName string) *APIError {
	return newAPIError(CodeAlreadyExists, "Stack [%s] already exists", stackName)
}

// ChangeSetNotFoundError returns "ChangeSet [NAME] does not exist".
func ChangeSetNotFoundError(changeSet string) *APIError {
	return newAPIError(CodeChangeSetNotFound, "ChangeSet [%s] does not exist", changeSet)
}

// InsufficientCapabilitiesError returns "Requires capabilities : [CAP, ...]".
func InsufficientCapabilitiesError(capabilities []string) *APIError {
	return newAPIError(CodeInsufficientCapabilities, "Requires capabilities : %s", bracketList(capabilities))
}

// LimitExceededError returns a LimitExceededException.
func LimitExceededError(format string, args ...any) *APIError {
	return newAPIError(CodeLimitExceeded, format, args...)
}

// TokenAlreadyExistsError returns a TokenAlreadyExistsException: a
// ClientRequestToken reused for a different call.
func TokenAlreadyExistsError(format string, args ...any) *APIError {
	return newAPIError(CodeTokenAlreadyExists, format, args...)
}

// InvalidChangeSetStatusError returns an InvalidChangeSetStatus error.
func InvalidChangeSetStatusError(format string, args ...any) *APIError {
	return newAPIError(CodeInvalidChangeSetStatus, format, args...)
}

// StackNotFoundError returns a StackNotFoundException, which the APIs of
// stack refactoring and resource scans use; the stack APIs answer a missing
// stack with a ValidationError (stackWithIDNotFound, stackNotFound).
func StackNotFoundError(format string, args ...any) *APIError {
	return newAPIError(CodeStackNotFound, format, args...)
}

// stackWithIDNotFound is DescribeStacks' (and most read calls') answer for a
// stack that does not exist: "Stack with id NAME does not exist".
func stackWithIDNotFound(nameOrID string) *APIError {
	return ValidationError("Stack with id %s does not exist", nameOrID)
}

// stackNotFound is the answer of the calls that say "Stack [NAME] does not
// exist" (DescribeStackEvents, UpdateStack...).
func stackNotFound(nameOrID string) *APIError {
	return ValidationError("Stack [%s] does not exist", nameOrID)
}

// apiError maps an error of the state machine's admission checks to the
// API's: a *statemachine.OperationError becomes an *APIError with its code
// and message; anything else is returned as it is.
func apiError(err error) error {
	var oe *statemachine.OperationError
	if errors.As(err, &oe) {
		return &APIError{Code: oe.Code, Message: oe.Message}
	}
	return err
}

// bracketList renders [a, b] as AWS does in messages.
func bracketList(items []string) string {
	out := "["
	for i, s := range items {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out + "]"
}

// InternalError is a failure of the engine itself (an illegal transition, a
// broken invariant): a bug, never the caller's mistake.
type InternalError struct {
	Err error
	// Stack is the goroutine's stack when the error was a panic ("" else):
	// for a bug report and the debug log, never in the message.
	Stack string
}

func (e *InternalError) Error() string {
	return "stacksim engine internal error (a bug; please report it): " + e.Err.Error()
}

func (e *InternalError) Unwrap() error { return e.Err }

func internalf(format string, args ...any) error {
	return &InternalError{Err: fmt.Errorf(format, args...)}
}
