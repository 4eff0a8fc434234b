package engine

import (
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// enteredStatus keeps the fields DescribeStacks derives from a stack's
// history in line when the stack moves to status to at now (the caller
// owns st and puts it):
//
//   - DeletionTime is set when the stack starts deleting resources as a
//     whole: a create rollback (ROLLBACK_IN_PROGRESS, which ROLLBACK_COMPLETE
//     and ROLLBACK_FAILED keep) or a deletion (DELETE_IN_PROGRESS, kept by
//     DELETE_FAILED and DELETE_COMPLETE). AWS shows it on those stacks and
//     on no other (LocalStack's AWS-recorded
//     tests/aws/services/cloudformation/api/test_stacks.snapshot.json,
//     test_blocked_stack_deletion: DeletionTime on ROLLBACK_FAILED,
//     DELETE_FAILED and DELETE_COMPLETE).
//   - ChangeSetId names the change set the stack's resources came from; a
//     rollback or a deletion leaves them elsewhere, and AWS drops it
//     (issue 15, compared with AWS's describe-stacks).
func enteredStatus(st *store.StackRecord, to statemachine.StackStatus, now time.Time) {
	switch to {
	case statemachine.StackStatusRollbackInProgress, statemachine.StackStatusDeleteInProgress:
		st.DeletionTime = now
		st.ChangeSetId = ""
	case statemachine.StackStatusUpdateRollbackInProgress:
		st.ChangeSetId = ""
	}
}
