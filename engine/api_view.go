package engine

import (
	"context"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/statemachine"
)

// Reads for the web view of stacksim serve (stacksim's own, not
// CloudFormation's): which operations a stack accepts now, and the plan of
// its operation with where each step is.

// OperationCheck says whether one API operation is accepted by a stack
// now (statemachine.CheckOperation on the stack as it is): accepted, or
// accepted and doing nothing (NoOp), or refused with AWS's code and
// message.
type OperationCheck struct {
	Operation string `json:"Operation"`
	// ChangeSetType is the change set's type, for CreateChangeSet and
	// ExecuteChangeSet (one check per type).
	ChangeSetType string `json:"ChangeSetType,omitempty"`
	Allowed       bool   `json:"Allowed"`
	NoOp          bool   `json:"NoOp,omitempty"`
	Code          string `json:"Code,omitempty"`
	Message       string `json:"Message,omitempty"`
}

// CheckOperationsInput names a stack (by name, or by ARN for a deleted
// one).
type CheckOperationsInput struct {
	StackName string `json:"StackName"`
}

// CheckOperationsOutput lists every operation of statemachine.Operations,
// in that order.
type CheckOperationsOutput struct {
	StackStatus string           `json:"StackStatus"`
	Operations  []OperationCheck `json:"Operations"`
}

// CheckOperations says which API operations the stack accepts now, and
// why the others are refused.
func (e *Engine) CheckOperations(ctx context.Context, in CheckOperationsInput) (*CheckOperationsOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *CheckOperationsOutput
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		info := st.Info()
		out = &CheckOperationsOutput{StackStatus: string(st.StackStatus)}
		for _, op := range statemachine.Operations() {
			types := []statemachine.ChangeSetType{""}
			if op == statemachine.CreateChangeSet || op == statemachine.ExecuteChangeSet {
				types = []statemachine.ChangeSetType{statemachine.ChangeSetTypeCreate, statemachine.ChangeSetTypeUpdate, statemachine.ChangeSetTypeImport}
			}
			for _, t := range types {
				i := info
				i.ChangeSetType = t
				c := OperationCheck{Operation: string(op), ChangeSetType: string(t)}
				switch err := statemachine.CheckOperation(op, i); {
				case err == nil:
					c.Allowed = true
				case statemachine.IsNoOp(err):
					c.Allowed, c.NoOp, c.Message = true, true, err.Error()
				default:
					c.Code, c.Message = "ValidationError", err.Error()
					if oe, ok := err.(*statemachine.OperationError); ok {
						c.Code = oe.Code
					}
				}
				out.Operations = append(out.Operations, c)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// PlanStepState is one step of an operation's plan (plan.Step's JSON) and
// where it is: pending (not started), running, done, failed or
// cancelled.
type PlanStepState struct {
	plan.Step
	State string `json:"state"`
}

// DescribeOperationPlanOutput is the plan an operation is running, with
// its phases in order and the one running; Steps is empty when the
// operation has ended and kept no plan (only an operation in motion, or
// at rest and continuable, keeps one).
type DescribeOperationPlanOutput struct {
	OperationId string          `json:"OperationId"`
	Operation   string          `json:"Operation"`
	InMotion    bool            `json:"InMotion"`
	Phase       string          `json:"Phase,omitempty"`
	Phases      []string        `json:"Phases"`
	Steps       []PlanStepState `json:"Steps"`
}

// DescribeOperationPlan returns the plan of the operation that
// DescribeStackOperation describes, with each step's state.
func (e *Engine) DescribeOperationPlan(ctx context.Context, in DescribeStackOperationInput) (*DescribeOperationPlanOutput, error) {
	desc, err := e.DescribeStackOperation(ctx, in)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &DescribeOperationPlanOutput{OperationId: desc.Operation.OperationId, Operation: desc.Operation.Operation,
		InMotion: desc.Operation.InMotion, Phase: desc.Operation.Phase, Phases: []string{}, Steps: []PlanStepState{}}
	err = e.view(func(tx *txn) error {
		op := tx.Operation(desc.Operation.OperationId)
		if op == nil || op.Plan == nil {
			return nil
		}
		for _, ph := range op.Plan.Phases() {
			out.Phases = append(out.Phases, string(ph))
		}
		states := map[uint32]*store.StepRecord{}
		for _, s := range tx.StepsOf(op.Id) {
			states[s.Index] = s
		}
		for _, s := range op.Plan.Steps {
			st := PlanStepState{Step: s, State: "pending"}
			st.After = append([]int(nil), s.After...)
			if r := states[uint32(s.ID)]; r != nil && r.LogicalId == s.LogicalID && r.State != "" {
				st.State = string(r.State)
			}
			out.Steps = append(out.Steps, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
