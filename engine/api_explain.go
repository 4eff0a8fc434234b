package engine

import (
	"context"

	"github.com/stacksim/stacksim/statemachine"
)

// StackInfo returns what the operations on a stack are checked against
// (statemachine.CheckOperation): its name, ARN and status, and how its last
// failed operation ran (rollback disabled, created with OnFailure
// DO_NOTHING). stackName is a name or an ARN; a deleted stack is found by
// its ARN. `stacksim explain --stack-name` explains the stack from it
// (statemachine.ExplainStackOf).
func (e *Engine) StackInfo(_ context.Context, stackName string) (statemachine.StackInfo, error) {
	if stackName == "" {
		return statemachine.StackInfo{}, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var info statemachine.StackInfo
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(stackName)
		if st == nil {
			return stackWithIDNotFound(stackName)
		}
		info = statemachine.StackInfo{StackName: st.StackName, StackID: st.StackId, Status: st.StackStatus,
			DisableRollback: st.RollbackDisabledFailure, OnFailureDoNothing: st.CreatedWithDoNothing}
		return nil
	})
	return info, err
}
