package engine

import (
	"context"
	"fmt"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// Stacksim's own calls about operations: what one did (contract
// violations, faults fired), and waiting for a stack to come to rest.

// DescribeStackOperation describes a stack's operation: the one named, or
// the stack's open one (in motion, or at rest and continuable), or its
// last one.
func (e *Engine) DescribeStackOperation(ctx context.Context, in DescribeStackOperationInput) (*DescribeStackOperationOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DescribeStackOperationOutput
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		var op *store.OperationRecord
		switch {
		case in.OperationId != "":
			op = tx.Operation(in.OperationId)
			if op != nil && op.StackId != st.StackId {
				op = nil
			}
		case st.OperationId != "":
			op = tx.Operation(st.OperationId)
		default:
			op = tx.LastOperationOf(st.StackId)
		}
		if op == nil {
			// stacksim's own wording (an extension of the API).
			return ValidationError("Stack [%s] has no operation %s", st.StackName, in.OperationId)
		}
		out = &DescribeStackOperationOutput{Operation: opAPI(op, st)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListStackOperations lists a stack's operations, oldest first (without
// their plans).
func (e *Engine) ListStackOperations(ctx context.Context, in ListStackOperationsInput) (*ListStackOperationsOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListStackOperationsOutput{Operations: []StackOperation{}}
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		for _, op := range tx.OperationsOf(st.StackId) {
			o := opAPI(op, st)
			o.Plan = ""
			out.Operations = append(out.Operations, o)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// api is the operation as DescribeStackOperation shows it.
func opAPI(op *store.OperationRecord, st *store.StackRecord) StackOperation {
	o := StackOperation{
		OperationId: op.Id, StackId: op.StackId, StackName: st.StackName, Operation: string(op.Kind),
		ClientRequestToken: op.ClientRequestToken, StartTime: op.StartTime, EndTime: optTime(op.EndTime),
		InMotion: op.InMotion, Phase: op.Outcome,
		ContractViolationCount: op.ViolationCount, ContractViolations: append([]ContractViolation(nil), op.Violations...),
	}
	if op.Plan != nil {
		phases := op.Plan.Phases()
		if op.InMotion && op.Phase < len(phases) {
			o.Phase = string(phases[op.Phase])
		}
		o.Plan = op.Plan.String()
	}
	if op.FaultState != nil {
		for _, f := range op.FaultState.Fired {
			o.FaultsFired = append(o.FaultsFired, FaultFiring{Fault: f.Fault, Kind: string(f.Kind), ResourceType: f.Type,
				LogicalResourceId: f.LogicalID, Action: string(f.Action), Phase: f.Phase.String(), Attempt: f.Attempt})
		}
	}
	return o
}

// WaitForStack runs the loop until the stack comes to rest (or nothing is
// left to run), and returns it as DescribeStacks shows it. A stack given
// by name is followed by its ARN, so that a deleted stack is found.
func (e *Engine) WaitForStack(ctx context.Context, stackName string) (*Stack, error) {
	out, err := e.DescribeStacks(ctx, DescribeStacksInput{StackName: stackName})
	if err != nil {
		return nil, err
	}
	id := out.Stacks[0].StackId
	for {
		res, err := e.RunUntil(ctx, func(ev StackEvent) bool {
			return ev.StackId == id && ev.IsStackEvent() && statemachine.StackStatus(ev.ResourceStatus).AtRest()
		})
		if err != nil {
			return nil, err
		}
		out, err := e.DescribeStacks(ctx, DescribeStacksInput{StackName: id})
		if err != nil {
			return nil, err
		}
		st := out.Stacks[0]
		if !statemachine.StackStatus(st.StackStatus).InMotion() {
			return &st, nil
		}
		if res.Stopped == StopRest {
			return nil, fmt.Errorf("engine: stack %s is %s and nothing is left to run", st.StackName, st.StackStatus)
		}
	}
}
