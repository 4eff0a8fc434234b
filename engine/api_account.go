package engine

import (
	"context"
	"sort"
	"time"

	"github.com/stacksim/stacksim/paramstore"
)

// The simulated account as other services than CloudFormation show it, for
// the clients of stacksim serve that read it beside their stacks: the
// parameter store (SSM's GetParameter: CDK reads its bootstrap version
// there), the S3 buckets the account's stacks made (CDK uploads its
// templates to its staging bucket), and the roles a client assumes.

const (
	bucketType = "AWS::S3::Bucket"
	roleType   = "AWS::IAM::Role"
)

// AccountParameter is a parameter of the account's parameter store, as
// SSM's GetParameter shows it.
type AccountParameter struct {
	Name    string
	Type    string
	Value   string
	Version int64
	ARN     string
	// LastModified is when the stack that holds it was last changed (the
	// simulated clock's start for a parameter made outside stacks).
	LastModified time.Time
}

// GetParameter finds a parameter of the account's parameter store, by name
// or ARN: an AWS::SSM::Parameter a stack made, one Options.SSMParameters
// gives, or one of AWS's public parameters (paramstore.Sources).
func (e *Engine) GetParameter(ctx context.Context, name string) (*AccountParameter, bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *AccountParameter
	err := e.view(func(tx *txn) error {
		p, ok := e.ssmSources(tx).Get(name)
		if !ok {
			return nil
		}
		out = &AccountParameter{Name: p.Name, Type: p.Type, Value: p.Value, Version: p.Version,
			ARN:          paramARN(e.opts.Partition, e.opts.Region, e.opts.AccountID, p.Name),
			LastModified: e.opts.Epoch}
		if p.Type == "" {
			out.Type = paramstore.TypeString
		}
		return nil
	})
	return out, out != nil, err
}

// paramARN is a parameter's ARN: arn:aws:ssm:REGION:ACCOUNT:parameter/NAME
// (a name that starts with / keeps it once).
func paramARN(partition, region, account, name string) string {
	if len(name) > 0 && name[0] == '/' {
		name = name[1:]
	}
	return "arn:" + partition + ":ssm:" + region + ":" + account + ":parameter/" + name
}

// BucketExists tells whether the account has the S3 bucket called name: an
// AWS::S3::Bucket a stack made.
func (e *Engine) BucketExists(ctx context.Context, name string) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	found := false
	err := e.view(func(tx *txn) error {
		found = tx.Object(bucketType, name) != nil
		return nil
	})
	return found, err
}

// Buckets lists the names of the account's S3 buckets (the
// AWS::S3::Bucket objects its stacks made), sorted.
func (e *Engine) Buckets(ctx context.Context) ([]string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	err := e.view(func(tx *txn) error {
		for _, o := range tx.Objects(bucketType) {
			out = append(out, o.ID)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// RoleExists tells whether the account has the IAM role whose ARN is arn:
// an AWS::IAM::Role a stack made.
func (e *Engine) RoleExists(ctx context.Context, arn string) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	found := false
	err := e.view(func(tx *txn) error {
		for _, o := range tx.Objects(roleType) {
			if a, _ := o.Model["Arn"].(string); a == arn {
				found = true
				return nil
			}
		}
		return nil
	})
	return found, err
}

// S3Dir is the directory that stands for S3 (Options.S3Dir), "" when there
// is none.
func (e *Engine) S3Dir() string { return e.opts.S3Dir }
