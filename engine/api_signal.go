package engine

import (
	"context"
	"unicode/utf8"

	"github.com/stacksim/stacksim/engine/store"
)

// SignalResourceInput is SignalResource's request: a signal to a resource
// that waits for its creation policy's (or its wait condition's) signals,
// as cfn-signal sends it.
type SignalResourceInput struct {
	StackName         string `json:"StackName"`
	LogicalResourceId string `json:"LogicalResourceId"`
	UniqueId          string `json:"UniqueId"`
	// Status is SUCCESS or FAILURE.
	Status string `json:"Status"`
}

// SignalResourceOutput is SignalResource's (empty) answer.
type SignalResourceOutput struct{}

// SignalResource sends a signal to a resource waiting for signals
// (engine/ops_signals.go): a SUCCESS counts towards its Count, a FAILURE
// fails its creation. The loop moves the stack on.
func (e *Engine) SignalResource(ctx context.Context, in SignalResourceInput) (*SignalResourceOutput, error) {
	switch {
	case in.StackName == "":
		return nil, requiredError("stackName")
	case in.LogicalResourceId == "":
		return nil, requiredError("logicalResourceId")
	case in.UniqueId == "":
		return nil, requiredError("uniqueId")
	case in.Status == "":
		return nil, requiredError("status")
	case utf8.RuneCountInString(in.UniqueId) > 64:
		return nil, ValidationError("1 validation error detected: Value '%s' at 'uniqueId' failed to satisfy constraint: Member must have length less than or equal to 64", in.UniqueId)
	case in.Status != SignalSuccess && in.Status != SignalFailure:
		return nil, enumError(in.Status, "status", []string{SignalSuccess, SignalFailure})
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.update(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		row, rec := waitingStep(tx, st, in.LogicalResourceId)
		if rec == nil {
			// UNVERIFIED wording.
			return ValidationError("Resource [%s] does not exist in stack [%s]", in.LogicalResourceId, st.StackName)
		}
		if row == nil {
			// UNVERIFIED wording.
			return ValidationError("Resource [%s] is in %s state and cannot be signaled: only a resource waiting for signals (its CreationPolicy's, its wait condition's, or a rolling update's batch's) can be", in.LogicalResourceId, rec.ResourceStatus)
		}
		r, err := e.openRun(ctx, tx, st)
		if err != nil {
			return err
		}
		s := r.step(int(row.Index))
		if s == nil {
			return internalf("stack %s: step %d of %s is not in its plan", st.StackName, row.Index, in.LogicalResourceId)
		}
		if err := r.signal(row.Clone(), s, in.UniqueId, in.Status, ""); err != nil {
			return err
		}
		if err := r.drain(); err != nil {
			return err
		}
		return r.flush()
	})
	if err != nil {
		return nil, err
	}
	return &SignalResourceOutput{}, nil
}

// waitingStep finds a stack's resource and the step of its operation in
// motion that waits for its signals (nil when none does).
func waitingStep(tx *txn, st *store.StackRecord, logicalID string) (*store.StepRecord, *store.ResourceRecord) {
	rec := tx.Resource(st.Num, logicalID)
	op := tx.OperationOf(st.StackId)
	if rec == nil || op == nil || !op.InMotion || op.Plan == nil {
		return nil, rec
	}
	for _, row := range tx.StepsOf(op.Id) {
		if row.LogicalId == logicalID && row.State == store.StepRunning && awaitsSignal(row) && row.Launched {
			return row, rec
		}
	}
	return nil, rec
}
