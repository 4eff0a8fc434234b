package engine

import (
	"context"
	"errors"
	"strings"

	"github.com/stacksim/stacksim/stackpolicy"
	"github.com/stacksim/stacksim/statemachine"
)

// Stack policies (package stackpolicy): SetStackPolicy and GetStackPolicy,
// the policy CreateStack and UpdateStack take, and the check an update
// makes before any resource starts (ops_stack_policy.go).

// SetStackPolicyInput is SetStackPolicy's request: the policy as a body or
// a URL (file:// or S3, as TemplateURL).
type SetStackPolicyInput struct {
	StackName       string `json:"StackName"`
	StackPolicyBody string `json:"StackPolicyBody,omitempty"`
	StackPolicyURL  string `json:"StackPolicyURL,omitempty"`
}

// SetStackPolicyOutput is SetStackPolicy's answer (AWS returns nothing).
type SetStackPolicyOutput struct{}

// GetStackPolicyInput is GetStackPolicy's request.
type GetStackPolicyInput struct {
	StackName string `json:"StackName"`
}

// GetStackPolicyOutput is GetStackPolicy's answer: no body when the stack
// has no policy.
type GetStackPolicyOutput struct {
	StackPolicyBody string `json:"StackPolicyBody,omitempty"`
}

// SetStackPolicy sets a stack's policy; it governs the updates that start
// after it. A policy cannot be removed, only replaced ({} protects
// nothing).
func (e *Engine) SetStackPolicy(ctx context.Context, in SetStackPolicyInput) (*SetStackPolicyOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if in.StackPolicyBody == "" && in.StackPolicyURL == "" {
		// UNVERIFIED wording (after CreateStack's "Either Template URL or
		// Template Body must be specified.").
		return nil, ValidationError("Either StackPolicyBody or StackPolicyURL must be specified.")
	}
	body, err := e.policySource(in.StackPolicyBody, in.StackPolicyURL, "StackPolicyBody", "StackPolicyURL")
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	err = e.update(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil || st.StackStatus == statemachine.StackStatusDeleteComplete {
			return stackWithIDNotFound(in.StackName)
		}
		if st.StackPolicyBody == body {
			return nil
		}
		c := st.Clone()
		c.StackPolicyBody = body
		return tx.PutStack(c)
	})
	if err != nil {
		return nil, err
	}
	return &SetStackPolicyOutput{}, nil
}

// GetStackPolicy returns a stack's policy as it was given. While an
// update runs under a StackPolicyDuringUpdateBody, that is the policy
// returned (LocalStack's AWS-recorded api/test_stack_policies.snapshot.json,
// test_policy_during_update: the override during the update, the stack's
// own — none — after it).
func (e *Engine) GetStackPolicy(ctx context.Context, in GetStackPolicyInput) (*GetStackPolicyOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &GetStackPolicyOutput{}
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil || st.StackStatus == statemachine.StackStatusDeleteComplete {
			return stackWithIDNotFound(in.StackName)
		}
		out.StackPolicyBody = st.StackPolicyBody
		if st.OperationId != "" && st.StackStatus.InMotion() {
			if op := tx.Operation(st.OperationId); op != nil && op.StackPolicyDuringUpdate != "" {
				out.StackPolicyBody = op.StackPolicyDuringUpdate
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// policySource resolves a policy given as a body or a URL (at most one;
// neither is ""), and checks it.
func (e *Engine) policySource(body, url, bodyName, urlName string) (string, error) {
	if body != "" && url != "" {
		// Recorded: "You cannot specify both StackPolicyURL and
		// StackPolicyBody" (api/test_stack_policies.snapshot.json,
		// test_set_policy_both_policy_and_url); the during-update pair is
		// worded the same way (UNVERIFIED).
		return "", ValidationError("You cannot specify both %s and %s", urlName, bodyName)
	}
	if url != "" {
		_, b, err := e.readTemplateURL(url)
		if err != nil {
			var api *APIError
			if errors.As(err, &api) {
				// UNVERIFIED: TemplateURL's wording, for the policy's URL.
				c := *api
				c.Message = strings.ReplaceAll(api.Message, "TemplateURL", urlName)
				return "", &c
			}
			return "", err
		}
		body = string(b)
	}
	if body == "" {
		return "", nil
	}
	if err := checkPolicy(body); err != nil {
		return "", err
	}
	return body, nil
}

// checkPolicy refuses a policy AWS would refuse, in its words; the
// *stackpolicy.Error it wraps says what is wrong.
func checkPolicy(body string) error {
	if len(body) > stackpolicy.MaxBodyLength {
		return ValidationError("1 validation error detected: Value at 'stackPolicyBody' failed to satisfy constraint: Member must have length less than or equal to %d", stackpolicy.MaxBodyLength)
	}
	if _, err := stackpolicy.Parse(body); err != nil {
		return &APIError{Code: CodeValidationError, Message: stackpolicy.InvalidMessage, cause: err}
	}
	return nil
}
