package engine

import (
	"errors"
	"fmt"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// cloudDrift says where the simulated cloud does not hold what a stack at
// rest after a successful operation records of its resources: a drift
// detection (without its records) of every such stack. Nothing changes the
// simulated cloud behind a stack's back but DriftResource, so any drift is
// the engine's fault — an update, a rollback or a cleanup that left a
// resource other than its record says. Stacks that came to rest unstable
// (rollback disabled) and resources a continue-update-rollback skipped
// (whose record holds what the rollback was to restore, not what it left)
// are left out, as are resources a DriftResource changed (drifted).
func cloudDrift(e *Engine, drifted map[string]bool) []string {
	var out []string
	errDone := errors.New("done")
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.update(func(tx *txn) error {
		for _, st := range tx.AllStacks() {
			switch st.StackStatus {
			case statemachine.StackStatusCreateComplete, statemachine.StackStatusUpdateComplete,
				statemachine.StackStatusUpdateRollbackComplete, statemachine.StackStatusImportComplete:
			default:
				continue
			}
			if st.Unstable {
				continue
			}
			for _, rec := range tx.ResourcesOf(st.Num) {
				if rec.Skipped || drifted[st.StackName+"/"+rec.LogicalResourceId] {
					continue
				}
				d := e.detectResource(ctx(), tx, st, rec, tx.now())
				if d != nil && d.Status != DriftInSync {
					out = append(out, fmt.Sprintf("%s/%s (%s): %s %s %v — expected %s, actual %s", st.StackName, rec.LogicalResourceId,
						rec.PhysicalResourceId, d.Status, d.Reason, d.Differences, d.Expected, d.Actual))
				}
			}
		}
		return errDone // nothing is kept
	})
	if err != nil && !errors.Is(err, errDone) {
		out = append(out, "the check failed: "+err.Error())
	}
	return out
}

var _ = store.TResources
