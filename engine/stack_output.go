package engine

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// Fn::GetStackOutput (intrinsic-function-reference-getstackoutput.html):
// the value of another stack's output, without an export. "The referenced
// value is resolved at stack create or update time": a call whose template
// names a stack or an output that does not exist is refused when it is
// made (CreateStack, UpdateStack, CreateChangeSet), and the value is read
// when the resource that holds it is provisioned (or the output written).
// It is a weak reference: the producer may change or go afterwards, and the
// consumer keeps what it read until it is updated.
//
// stacksim simulates one account in one region: a Region other than the
// engine's, or a RoleArn of another account, names a stack the simulation
// does not have, and is refused. The wording of the refusals is stacksim's:
// no recording of AWS's was found (UNVERIFIED).

// GetStackOutput implements template.StackOutputResolver for a running
// operation.
func (l liveResolver) GetStackOutput(stackName, outputName, region, roleARN string) (any, error) {
	return l.e.stackOutput(l.tx, stackName, outputName, region, roleARN)
}

// GetStackOutput implements template.StackOutputResolver when a template
// is submitted: the output must exist now.
func (c checkResolver) GetStackOutput(stackName, outputName, region, roleARN string) (any, error) {
	c.trace.external()
	if !c.imports {
		return template.Unknown{Export: stackName + "." + outputName}, nil
	}
	return c.e.stackOutput(c.tx, stackName, outputName, region, roleARN)
}

// stackOutput reads an output of a stack of the simulated account.
func (e *Engine) stackOutput(tx *txn, stackName, outputName, region, roleARN string) (any, error) {
	if region != "" && region != e.opts.Region {
		return nil, fmt.Errorf("Fn::GetStackOutput cannot read stack %s in region %s: stacksim simulates one region, %s", stackName, region, e.opts.Region)
	}
	if roleARN != "" {
		if acct := roleAccount(roleARN); acct != "" && acct != e.opts.AccountID {
			return nil, fmt.Errorf("Fn::GetStackOutput cannot read stack %s of account %s (RoleArn %s): stacksim simulates one account, %s", stackName, acct, roleARN, e.opts.AccountID)
		}
	}
	st := tx.FindStack(stackName)
	if st == nil || !st.Live() {
		return nil, fmt.Errorf("Stack with id %s does not exist", stackName)
	}
	for _, o := range st.Outputs {
		if o.OutputKey == outputName {
			return o.OutputValue, nil
		}
	}
	return nil, fmt.Errorf("Output %s does not exist in stack %s", outputName, st.StackName)
}

// roleAccount is the account of an IAM role's ARN, or "".
func roleAccount(arn string) string {
	parts := strings.Split(arn, ":")
	if len(parts) < 6 || parts[0] != "arn" || parts[2] != "iam" {
		return ""
	}
	return parts[4]
}
