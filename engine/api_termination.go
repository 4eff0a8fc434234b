package engine

import (
	"context"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// UpdateTerminationProtectionInput is UpdateTerminationProtection's
// request.
type UpdateTerminationProtectionInput struct {
	StackName                   string `json:"StackName"`
	EnableTerminationProtection *bool  `json:"EnableTerminationProtection"`
}

// UpdateTerminationProtectionOutput is UpdateTerminationProtection's
// answer.
type UpdateTerminationProtectionOutput struct {
	StackId string `json:"StackId"`
}

// UpdateTerminationProtection turns a stack's termination protection on
// or off. A protected stack cannot be deleted: DeleteStack answers "Stack
// [NAME] cannot be deleted while TerminationProtection is enabled". It
// writes no event and starts no operation, in any status but
// DELETE_COMPLETE.
func (e *Engine) UpdateTerminationProtection(ctx context.Context, in UpdateTerminationProtectionInput) (*UpdateTerminationProtectionOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if in.EnableTerminationProtection == nil {
		return nil, requiredError("enableTerminationProtection")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *UpdateTerminationProtectionOutput
	err := e.update(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil || st.StackStatus == statemachine.StackStatusDeleteComplete {
			return stackWithIDNotFound(in.StackName)
		}
		if st.RootId != "" {
			// "For nested stacks, termination protection is set on the
			// root stack and can't be changed directly on the nested
			// stack" (UpdateTerminationProtection, API reference).
			// UNVERIFIED wording: AWS's message was not found.
			return ValidationError("Stack [%s] is a nested stack: its termination protection is its root's; change it on the root stack [%s]", st.StackName, st.RootId)
		}
		// The choice passes on to the nested stacks (User Guide,
		// using-cfn-protect-stacks).
		for _, x := range append([]*store.StackRecord{st}, tx.nestedOf(st.StackId)...) {
			if x.EnableTerminationProtection == *in.EnableTerminationProtection {
				continue
			}
			c := x.Clone()
			c.EnableTerminationProtection = *in.EnableTerminationProtection
			if err := tx.PutStack(c); err != nil {
				return err
			}
		}
		out = &UpdateTerminationProtectionOutput{StackId: st.StackId}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// terminationProtected is DeleteStack's answer for a protected stack
// (recorded from AWS, e.g. ekristen/aws-nuke#821).
func terminationProtected(stackName string) *APIError {
	return ValidationError("Stack [%s] cannot be deleted while TerminationProtection is enabled", stackName)
}

// nestedOf is every live nested stack whose root is root.
func (tx *txn) nestedOf(root string) []*store.StackRecord {
	var out []*store.StackRecord
	for _, x := range tx.AllStacks() {
		if x.RootId == root && x.StackStatus != statemachine.StackStatusDeleteComplete {
			out = append(out, x)
		}
	}
	return out
}
