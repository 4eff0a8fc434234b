package engine

import (
	"context"

	"github.com/stacksim/stacksim/template"
)

// The account's CloudFormation quotas that DescribeAccountLimits reports
// (AWS's defaults, from its quotas page): the stacks an account may hold,
// the outputs a template may declare, and the resources CloudFormation
// provisions at once in the account. stacksim enforces the first two (the
// outputs when the template is read); it provisions as many resources at
// once as a plan allows, so the third is reported, not enforced.
const (
	DefaultStackLimit       = 2000
	concurrentResourceLimit = 2500
)

// AccountLimit is one of the account's quotas.
type AccountLimit struct {
	Name  string `json:"Name"`
	Value int    `json:"Value"`
}

// DescribeAccountLimitsInput is DescribeAccountLimits' input.
type DescribeAccountLimitsInput struct {
	NextToken string `json:"NextToken,omitempty"`
}

// DescribeAccountLimitsOutput is DescribeAccountLimits' answer.
type DescribeAccountLimitsOutput struct {
	AccountLimits []AccountLimit `json:"AccountLimits"`
	NextToken     string         `json:"NextToken,omitempty"`
}

// DescribeAccountLimits answers the account's CloudFormation quotas, in one
// page (a NextToken is refused: this call never gives one).
func (e *Engine) DescribeAccountLimits(_ context.Context, in DescribeAccountLimitsInput) (*DescribeAccountLimitsOutput, error) {
	if in.NextToken != "" {
		return nil, invalidToken()
	}
	return &DescribeAccountLimitsOutput{AccountLimits: []AccountLimit{
		{Name: "StackLimit", Value: e.opts.StackLimit},
		{Name: "StackOutputsLimit", Value: template.MaxOutputs},
		{Name: "ConcurrentResourcesLimit", Value: concurrentResourceLimit},
	}}, nil
}

// checkStackLimit refuses a new stack when the account holds its
// StackLimit of stacks already (those not DELETE_COMPLETE). An account
// that has made fewer stacks than that in all (the counter of stack
// numbers) is under it without reading a stack.
func (e *Engine) checkStackLimit(tx *txn) error {
	if int(tx.Meta.Stacks) < e.opts.StackLimit {
		return nil
	}
	if tx.LiveStacks(e.opts.StackLimit) >= e.opts.StackLimit {
		return LimitExceededError("%s", stackLimitMessage)
	}
	return nil
}

// stackLimitMessage is AWS's refusal of a stack past the account's quota
// (recorded from AWS by users hitting it, 2019-2021; in 2015 it read
// "Limit for stacks has been exceeded").
const stackLimitMessage = "Limit for stack has been exceeded"
