package statemachine

import "strings"

// StackStatus is the status of a stack, spelt as AWS spells it
// (DescribeStacks' StackStatus).
type StackStatus string

// ResourceStatus is the status of one physical resource of a stack, spelt as
// AWS spells it (DescribeStackResources' ResourceStatus).
type ResourceStatus string

// NotExist is the pseudo-status of a stack or resource that does not exist
// yet: the status every machine starts from. It is untyped so that it serves
// as a StackStatus and as a ResourceStatus. AWS never reports it.
const NotExist = ""

// notExistLabel is how NotExist is shown to people.
const notExistLabel = "NotExist"

// The 23 stack statuses (BEHAVIOUR.md §1).
const (
	StackStatusReviewInProgress                        StackStatus = "REVIEW_IN_PROGRESS"
	StackStatusCreateInProgress                        StackStatus = "CREATE_IN_PROGRESS"
	StackStatusCreateComplete                          StackStatus = "CREATE_COMPLETE"
	StackStatusCreateFailed                            StackStatus = "CREATE_FAILED"
	StackStatusRollbackInProgress                      StackStatus = "ROLLBACK_IN_PROGRESS"
	StackStatusRollbackComplete                        StackStatus = "ROLLBACK_COMPLETE"
	StackStatusRollbackFailed                          StackStatus = "ROLLBACK_FAILED"
	StackStatusUpdateInProgress                        StackStatus = "UPDATE_IN_PROGRESS"
	StackStatusUpdateCompleteCleanupInProgress         StackStatus = "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"
	StackStatusUpdateComplete                          StackStatus = "UPDATE_COMPLETE"
	StackStatusUpdateFailed                            StackStatus = "UPDATE_FAILED"
	StackStatusUpdateRollbackInProgress                StackStatus = "UPDATE_ROLLBACK_IN_PROGRESS"
	StackStatusUpdateRollbackFailed                    StackStatus = "UPDATE_ROLLBACK_FAILED"
	StackStatusUpdateRollbackCompleteCleanupInProgress StackStatus = "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"
	StackStatusUpdateRollbackComplete                  StackStatus = "UPDATE_ROLLBACK_COMPLETE"
	StackStatusImportInProgress                        StackStatus = "IMPORT_IN_PROGRESS"
	StackStatusImportComplete                          StackStatus = "IMPORT_COMPLETE"
	StackStatusImportRollbackInProgress                StackStatus = "IMPORT_ROLLBACK_IN_PROGRESS"
	StackStatusImportRollbackFailed                    StackStatus = "IMPORT_ROLLBACK_FAILED"
	StackStatusImportRollbackComplete                  StackStatus = "IMPORT_ROLLBACK_COMPLETE"
	StackStatusDeleteInProgress                        StackStatus = "DELETE_IN_PROGRESS"
	StackStatusDeleteFailed                            StackStatus = "DELETE_FAILED"
	StackStatusDeleteComplete                          StackStatus = "DELETE_COMPLETE"
)

// The 16 resource statuses (BEHAVIOUR.md §1).
const (
	ResourceStatusCreateInProgress         ResourceStatus = "CREATE_IN_PROGRESS"
	ResourceStatusCreateComplete           ResourceStatus = "CREATE_COMPLETE"
	ResourceStatusCreateFailed             ResourceStatus = "CREATE_FAILED"
	ResourceStatusUpdateInProgress         ResourceStatus = "UPDATE_IN_PROGRESS"
	ResourceStatusUpdateComplete           ResourceStatus = "UPDATE_COMPLETE"
	ResourceStatusUpdateFailed             ResourceStatus = "UPDATE_FAILED"
	ResourceStatusDeleteInProgress         ResourceStatus = "DELETE_IN_PROGRESS"
	ResourceStatusDeleteComplete           ResourceStatus = "DELETE_COMPLETE"
	ResourceStatusDeleteFailed             ResourceStatus = "DELETE_FAILED"
	ResourceStatusDeleteSkipped            ResourceStatus = "DELETE_SKIPPED"
	ResourceStatusImportInProgress         ResourceStatus = "IMPORT_IN_PROGRESS"
	ResourceStatusImportComplete           ResourceStatus = "IMPORT_COMPLETE"
	ResourceStatusImportFailed             ResourceStatus = "IMPORT_FAILED"
	ResourceStatusImportRollbackInProgress ResourceStatus = "IMPORT_ROLLBACK_IN_PROGRESS"
	ResourceStatusImportRollbackComplete   ResourceStatus = "IMPORT_ROLLBACK_COMPLETE"
	ResourceStatusImportRollbackFailed     ResourceStatus = "IMPORT_ROLLBACK_FAILED"
)

// stackStatuses lists the stack statuses in lifecycle order: the order of
// every table and rendering.
var stackStatuses = [...]StackStatus{
	StackStatusReviewInProgress,
	StackStatusCreateInProgress,
	StackStatusCreateComplete,
	StackStatusCreateFailed,
	StackStatusRollbackInProgress,
	StackStatusRollbackComplete,
	StackStatusRollbackFailed,
	StackStatusUpdateInProgress,
	StackStatusUpdateCompleteCleanupInProgress,
	StackStatusUpdateComplete,
	StackStatusUpdateFailed,
	StackStatusUpdateRollbackInProgress,
	StackStatusUpdateRollbackFailed,
	StackStatusUpdateRollbackCompleteCleanupInProgress,
	StackStatusUpdateRollbackComplete,
	StackStatusImportInProgress,
	StackStatusImportComplete,
	StackStatusImportRollbackInProgress,
	StackStatusImportRollbackFailed,
	StackStatusImportRollbackComplete,
	StackStatusDeleteInProgress,
	StackStatusDeleteFailed,
	StackStatusDeleteComplete,
}

// resourceStatuses lists the resource statuses in lifecycle order.
var resourceStatuses = [...]ResourceStatus{
	ResourceStatusCreateInProgress,
	ResourceStatusCreateComplete,
	ResourceStatusCreateFailed,
	ResourceStatusUpdateInProgress,
	ResourceStatusUpdateComplete,
	ResourceStatusUpdateFailed,
	ResourceStatusDeleteInProgress,
	ResourceStatusDeleteComplete,
	ResourceStatusDeleteFailed,
	ResourceStatusDeleteSkipped,
	ResourceStatusImportInProgress,
	ResourceStatusImportComplete,
	ResourceStatusImportFailed,
	ResourceStatusImportRollbackInProgress,
	ResourceStatusImportRollbackComplete,
	ResourceStatusImportRollbackFailed,
}

// StackStatuses returns every stack status (not NotExist), in lifecycle
// order. The slice is the caller's.
func StackStatuses() []StackStatus { return append([]StackStatus(nil), stackStatuses[:]...) }

// ResourceStatuses returns every resource status (not NotExist), in
// lifecycle order. The slice is the caller's.
func ResourceStatuses() []ResourceStatus {
	return append([]ResourceStatus(nil), resourceStatuses[:]...)
}

// Valid reports whether s is one of the 23 stack statuses. NotExist is not.
func (s StackStatus) Valid() bool {
	for _, v := range stackStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// Valid reports whether s is one of the 16 resource statuses. NotExist is
// not.
func (s ResourceStatus) Valid() bool {
	for _, v := range resourceStatuses {
		if v == s {
			return true
		}
	}
	return false
}

// String returns the AWS spelling, or "NotExist" for NotExist.
func (s StackStatus) String() string { return label(string(s)) }

// String returns the AWS spelling, or "NotExist" for NotExist.
func (s ResourceStatus) String() string { return label(string(s)) }

func label(s string) string {
	if s == NotExist {
		return notExistLabel
	}
	return s
}

// InMotion reports whether the stack is in an *_IN_PROGRESS status: an
// operation owns it. REVIEW_IN_PROGRESS counts, as AWS names it, although
// nothing runs in it.
func (s StackStatus) InMotion() bool { return s.Valid() && inProgress(string(s)) }

// AtRest reports whether the stack is in a status that is not in motion.
// NotExist is neither in motion nor at rest.
func (s StackStatus) AtRest() bool { return s.Valid() && !inProgress(string(s)) }

// Final reports whether nothing can follow s: DELETE_COMPLETE. A deleted
// stack stays visible for 90 days and its name can be used again, by a new
// stack.
func (s StackStatus) Final() bool { return s == StackStatusDeleteComplete }

// InMotion reports whether the resource is in an *_IN_PROGRESS status: a
// handler is working on it.
func (s ResourceStatus) InMotion() bool { return s.Valid() && inProgress(string(s)) }

// AtRest reports whether the resource is in a status that is not in motion.
// NotExist is neither in motion nor at rest.
func (s ResourceStatus) AtRest() bool { return s.Valid() && !inProgress(string(s)) }

// Final reports whether nothing can follow s for this physical resource: it
// is gone (DELETE_COMPLETE), or it has left the stack and lives on in the
// account (DELETE_SKIPPED, IMPORT_ROLLBACK_COMPLETE).
func (s ResourceStatus) Final() bool {
	switch s {
	case ResourceStatusDeleteComplete, ResourceStatusDeleteSkipped, ResourceStatusImportRollbackComplete:
		return true
	}
	return false
}

func inProgress(s string) bool { return strings.HasSuffix(s, "_IN_PROGRESS") }
