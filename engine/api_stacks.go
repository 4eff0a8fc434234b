package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/statemachine"
)

// DescribeStacksInput is DescribeStacks' request. Without StackName it
// describes every stack that is not deleted.
type DescribeStacksInput struct {
	// StackName is a stack's name or ARN; a deleted stack only by ARN.
	StackName string `json:"StackName,omitempty"`
	NextToken string `json:"NextToken,omitempty"`
}

// DescribeStacksOutput is DescribeStacks' answer.
type DescribeStacksOutput struct {
	Stacks    []Stack `json:"Stacks"`
	NextToken string  `json:"NextToken,omitempty"`
}

// DescribeStacks describes one stack, or every live stack, newest first.
func (e *Engine) DescribeStacks(ctx context.Context, in DescribeStacksInput) (*DescribeStacksOutput, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &DescribeStacksOutput{Stacks: []Stack{}}
	err := e.view(func(tx *txn) error {
		if in.StackName != "" {
			st := tx.FindStack(in.StackName)
			if st == nil {
				return stackWithIDNotFound(in.StackName)
			}
			out.Stacks = append(out.Stacks, stackAPI(tx.Store.ID.Seed, st))
			return nil
		}
		page, next, err := e.stackPage(tx, "DescribeStacks", in.NextToken, func(st *store.StackRecord) bool { return st.Live() })
		if err != nil {
			return err
		}
		for _, st := range page {
			out.Stacks = append(out.Stacks, stackAPI(tx.Store.ID.Seed, st))
		}
		out.NextToken = next
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListStacksInput is ListStacks' request.
type ListStacksInput struct {
	// StackStatusFilter keeps the stacks in these statuses (all when empty).
	StackStatusFilter []string `json:"StackStatusFilter,omitempty"`
	NextToken         string   `json:"NextToken,omitempty"`
}

// ListStacksOutput is ListStacks' answer.
type ListStacksOutput struct {
	StackSummaries []StackSummary `json:"StackSummaries"`
	NextToken      string         `json:"NextToken,omitempty"`
}

// ListStacks lists every stack, deleted ones included, newest first.
func (e *Engine) ListStacks(ctx context.Context, in ListStacksInput) (*ListStacksOutput, error) {
	keep := map[statemachine.StackStatus]bool{}
	for _, s := range in.StackStatusFilter {
		st := statemachine.StackStatus(s)
		if !st.Valid() {
			return nil, enumError(s, "stackStatusFilter", stackStatusNames())
		}
		keep[st] = true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListStacksOutput{StackSummaries: []StackSummary{}}
	err := e.view(func(tx *txn) error {
		page, next, err := e.stackPage(tx, "ListStacks", in.NextToken, func(st *store.StackRecord) bool {
			return len(keep) == 0 || keep[st.StackStatus]
		})
		if err != nil {
			return err
		}
		for _, st := range page {
			out.StackSummaries = append(out.StackSummaries, stackSummary(tx.Store.ID.Seed, st))
		}
		out.NextToken = next
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// stackPage returns a page of the stacks that keep accepts, newest first
// (by creation), from the position token says, and the token of the next
// page ("" at the end).
func (e *Engine) stackPage(tx *txn, call, token string, keep func(*store.StackRecord) bool) ([]*store.StackRecord, string, error) {
	below := uint64(1) << 32 // stacks with Num below this
	if token != "" {
		parts, err := decodeToken(token, call, 1)
		if err != nil {
			return nil, "", err
		}
		n, perr := strconv.ParseUint(parts[0], 10, 32)
		if perr != nil {
			return nil, "", invalidToken()
		}
		below = n
	}
	all := tx.AllStacks()
	var page []*store.StackRecord
	size := e.pageSize()
	for i := len(all) - 1; i >= 0; i-- {
		st := all[i]
		if uint64(st.Num) >= below || !keep(st) {
			continue
		}
		if len(page) == size {
			return page, encodeToken(call, strconv.FormatUint(uint64(page[len(page)-1].Num), 10)), nil
		}
		page = append(page, st)
	}
	return page, "", nil
}

// api is the stack as DescribeStacks shows it.
func stackAPI(seed int64, s *store.StackRecord) Stack {
	out := Stack{
		StackId:               s.StackId,
		StackName:             s.StackName,
		ChangeSetId:           s.ChangeSetId,
		Description:           s.Description,
		Parameters:            publicParameters(s.Parameters),
		CreationTime:          s.CreationTime,
		DeletionTime:          optTime(s.DeletionTime),
		LastUpdatedTime:       optTime(s.LastUpdatedTime),
		RollbackConfiguration: cloneRollbackConfiguration(s.RollbackConfiguration),
		StackStatus:           string(s.StackStatus),
		StackStatusReason:     s.StackStatusReason,
		DisableRollback:       s.DisableRollback,
		NotificationARNs:      nonNil(s.NotificationARNs),
		Capabilities:          slices.Clone(s.Capabilities),
		Outputs:               slices.Clone(s.Outputs),
		RoleARN:               s.RoleARN,
		Tags:                  nonNil(s.Tags),
		ParentId:              s.ParentId,
		RootId:                s.RootId,
		DriftInformation:      stackDrift(s),
		RetainExceptOnCreate:  s.RetainExceptOnCreate,
		LastOperations:        lastOperationsOf(seed, s),
	}
	if s.StackStatus != statemachine.StackStatusDeleteComplete {
		p := s.EnableTerminationProtection
		out.EnableTerminationProtection = &p
	}
	if s.TimeoutInMinutes > 0 {
		t := s.TimeoutInMinutes
		out.TimeoutInMinutes = &t
	}
	return out
}

// summary is the stack as ListStacks shows it.
func stackSummary(seed int64, s *store.StackRecord) StackSummary {
	return StackSummary{
		StackId:             s.StackId,
		StackName:           s.StackName,
		TemplateDescription: s.Description,
		CreationTime:        s.CreationTime,
		LastUpdatedTime:     optTime(s.LastUpdatedTime),
		DeletionTime:        optTime(s.DeletionTime),
		StackStatus:         string(s.StackStatus),
		StackStatusReason:   s.StackStatusReason,
		ParentId:            s.ParentId,
		RootId:              s.RootId,
		DriftInformation:    stackDrift(s),
		LastOperations:      lastOperationsOf(seed, s),
	}
}

// noEchoMask is how DescribeStacks shows a NoEcho parameter's value.
const noEchoMask = "****"

// publicParameters returns the parameters as DescribeStacks shows them:
// NoEcho values masked.
func publicParameters(ps []store.ParamValue) []Parameter {
	if len(ps) == 0 {
		return nil
	}
	out := make([]Parameter, len(ps))
	for i, p := range ps {
		out[i] = Parameter{ParameterKey: p.Key, ParameterValue: p.Value, ResolvedValue: p.ResolvedValue}
		if p.NoEcho {
			out[i].ParameterValue = noEchoMask
			out[i].ResolvedValue = ""
		}
	}
	return out
}

func cloneRollbackConfiguration(c RollbackConfiguration) RollbackConfiguration {
	out := RollbackConfiguration{RollbackTriggers: slices.Clone(c.RollbackTriggers)}
	if c.MonitoringTimeInMinutes != nil {
		m := *c.MonitoringTimeInMinutes
		out.MonitoringTimeInMinutes = &m
	}
	return out
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// nonNil returns a copy of s, empty rather than nil (the lists AWS always
// returns, as [] when empty).
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return slices.Clone(s)
}

func stackStatusNames() []string {
	var out []string
	for _, s := range statemachine.StackStatuses() {
		out = append(out, string(s))
	}
	return out
}

// enumError is the service's answer to a value outside an enumeration, in
// the shape of its request validation:
// 1 validation error detected: Value 'X' at 'field' failed to satisfy
// constraint: Member must satisfy enum value set: [A, B]
func enumError(value, field string, allowed []string) *APIError {
	return ValidationError("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy enum value set: [%s]",
		readfile.Excerpt(value), field, strings.Join(allowed, ", "))
}

// requiredError is the service's answer to a required parameter left out.
func requiredError(field string) *APIError {
	return ValidationError("1 validation error detected: Value null at '%s' failed to satisfy constraint: Member must not be null", field)
}
