package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/engine"
)

// check checks a step's expectations.
func (r *runner) check(ctx context.Context, st *Step, label string) {
	x := st.Expect
	count := func() { r.res.Checked++ }
	if x.Error != nil {
		count()
		switch {
		case r.callErr == nil:
			r.fail(x.Pos, "%s: expected the call to be refused with %s, but it was accepted", label, x.Error.Code)
		case x.Error.Code != "" && r.callErr.Code != x.Error.Code:
			r.fail(x.Pos, "%s: expected error %s, got %s: %s", label, x.Error.Code, r.callErr.Code, r.callErr.Message)
		case x.Error.Message != "" && !strings.Contains(r.callErr.Message, x.Error.Message):
			r.fail(x.Pos, "%s: expected an error message containing %q, got %q", label, x.Error.Message, r.callErr.Message)
		}
	} else if r.callErr != nil {
		r.fail(st.Pos, "%s was refused: %s: %s (if that is expected, say so: expect: {error: %s})", label, r.callErr.Code, r.callErr.Message, r.callErr.Code)
	}
	id := r.ids[x.Stack]
	var stack *engine.Stack
	if id != "" {
		if out, err := r.e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: id}); err == nil {
			stack = &out.Stacks[0]
		}
	}
	needStack := x.Status != "" || x.Reason != "" || x.Drift != "" || x.LastOperations != nil || len(x.Resources) > 0 || len(x.Outputs) > 0 ||
		x.ContractViolations != nil || x.FaultsFired != nil
	if needStack && stack == nil {
		count()
		r.fail(x.Pos, "%s: stack %q does not exist", label, x.Stack)
		return
	}
	if x.Status != "" {
		count()
		if stack.StackStatus != x.Status {
			r.fail(x.Pos, "%s: expected %s to be %s, got %s%s", label, x.Stack, x.Status, stack.StackStatus, reasonSuffix(stack.StackStatusReason))
		}
	}
	if x.Drift != "" {
		count()
		if got := stack.DriftInformation.StackDriftStatus; got != x.Drift {
			r.fail(x.Pos, "%s: expected the drift status of %s to be %s, got %s", label, x.Stack, x.Drift, got)
		}
	}
	if x.LastOperations != nil {
		count()
		var got []string
		for _, o := range stack.LastOperations {
			got = append(got, o.OperationType)
		}
		if !slices.Equal(got, x.LastOperations) {
			r.fail(x.Pos, "%s: expected the last operations of %s to be [%s], got [%s]", label, x.Stack, strings.Join(x.LastOperations, ", "), strings.Join(got, ", "))
		}
	}
	if x.Reason != "" {
		count()
		if !strings.Contains(stack.StackStatusReason, x.Reason) {
			r.fail(x.Pos, "%s: expected the status reason of %s to contain %q, got %q", label, x.Stack, x.Reason, stack.StackStatusReason)
		}
	}
	if len(x.Resources) > 0 {
		r.checkResources(ctx, x, stack, label)
	}
	if len(x.Outputs) > 0 {
		got := map[string]string{}
		for _, o := range stack.Outputs {
			got[o.OutputKey] = o.OutputValue
		}
		for _, kv := range x.Outputs {
			count()
			v, ok := got[kv.Key]
			switch {
			case !ok:
				r.fail(kv.Pos, "%s: %s has no output %s (it has %s)", label, x.Stack, kv.Key, keyList(got))
			case v != kv.Value:
				r.fail(kv.Pos, "%s: expected output %s = %q, got %q", label, kv.Key, kv.Value, v)
			}
		}
	}
	if len(x.Exports) > 0 {
		got := map[string]string{}
		in := engine.ListExportsInput{}
		for {
			out, err := r.e.ListExports(ctx, in)
			if err != nil {
				break
			}
			for _, ex := range out.Exports {
				got[ex.Name] = ex.Value
			}
			if out.NextToken == "" {
				break
			}
			in.NextToken = out.NextToken
		}
		for _, kv := range x.Exports {
			count()
			v, ok := got[kv.Key]
			switch {
			case !ok:
				r.fail(kv.Pos, "%s: no export %s (the exports are %s)", label, kv.Key, keyList(got))
			case v != kv.Value:
				r.fail(kv.Pos, "%s: expected export %s = %q, got %q", label, kv.Key, kv.Value, v)
			}
		}
	}
	if len(x.Events) > 0 {
		r.checkEvents(x, label)
	}
	if x.ContractViolations != nil || x.FaultsFired != nil {
		op, err := r.e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: stack.StackId})
		if err != nil {
			count()
			r.fail(x.Pos, "%s: %s has no operation to count violations and faults of: %v", label, x.Stack, err)
			return
		}
		if n := x.ContractViolations; n != nil {
			count()
			if got := op.Operation.ContractViolationCount; got != *n {
				var rules []string
				for _, v := range op.Operation.ContractViolations {
					rules = append(rules, v.LogicalResourceId+" "+v.Rule)
				}
				r.fail(x.Pos, "%s: expected %d contract violation(s), got %d %v", label, *n, got, rules)
			}
		}
		if n := x.FaultsFired; n != nil {
			count()
			if got := len(op.Operation.FaultsFired); got != *n {
				r.fail(x.Pos, "%s: expected %d fault(s) to fire, %d did", label, *n, got)
			}
		}
	}
}

func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return fmt.Sprintf(" (%s)", strings.TrimSpace(reason))
}

func keyList(m map[string]string) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(sortedKeys(m), ", ")
}

func (r *runner) checkResources(ctx context.Context, x *Expect, stack *engine.Stack, label string) {
	got := map[string]engine.StackResourceSummary{}
	in := engine.ListStackResourcesInput{StackName: stack.StackId}
	for {
		out, err := r.e.ListStackResources(ctx, in)
		if err != nil {
			break
		}
		for _, res := range out.StackResourceSummaries {
			got[res.LogicalResourceId] = res
		}
		if out.NextToken == "" {
			break
		}
		in.NextToken = out.NextToken
	}
	for _, want := range x.Resources {
		r.res.Checked++
		res, ok := got[want.LogicalID]
		if want.Absent {
			if ok {
				r.fail(want.Pos, "%s: expected %s to have no resource %s, it is %s", label, x.Stack, want.LogicalID, res.ResourceStatus)
			}
			continue
		}
		if !ok {
			r.fail(want.Pos, "%s: %s has no resource %s", label, x.Stack, want.LogicalID)
			continue
		}
		if want.Status != "" && res.ResourceStatus != want.Status {
			r.fail(want.Pos, "%s: expected %s to be %s, got %s%s", label, want.LogicalID, want.Status, res.ResourceStatus, reasonSuffix(res.ResourceStatusReason))
		}
		if got := res.DriftInformation.StackResourceDriftStatus; want.Drift != "" && got != want.Drift {
			r.fail(want.Pos, "%s: expected the drift status of %s to be %s, got %s", label, want.LogicalID, want.Drift, got)
		}
		if want.PhysicalID != "" && res.PhysicalResourceId != want.PhysicalID {
			r.fail(want.Pos, "%s: expected the physical id of %s to be %q, got %q", label, want.LogicalID, want.PhysicalID, res.PhysicalResourceId)
		}
		if want.PhysicalIDChanged != nil {
			before, had := r.before[x.Stack][want.LogicalID]
			changed := had && before != res.PhysicalResourceId
			if changed != *want.PhysicalIDChanged {
				if *want.PhysicalIDChanged {
					r.fail(want.Pos, "%s: expected the physical id of %s to change, it is still %q", label, want.LogicalID, res.PhysicalResourceId)
				} else {
					r.fail(want.Pos, "%s: expected the physical id of %s to stay %q, it is now %q", label, want.LogicalID, before, res.PhysicalResourceId)
				}
			}
		}
	}
}

// checkEvents: the expected events appear among the step's events, in
// order.
func (r *runner) checkEvents(x *Expect, label string) {
	i := 0
	for _, want := range x.Events {
		r.res.Checked++
		stack := want.Stack
		if stack == "" {
			stack = x.Stack
		}
		found := false
		for ; i < len(r.stepEvents); i++ {
			ev := r.stepEvents[i]
			if (stack == "" || ev.StackName == stack) && ev.LogicalResourceId == want.LogicalID && ev.ResourceStatus == want.Status &&
				strings.Contains(ev.ResourceStatusReason, want.Reason) && (want.PhysicalID == "" || ev.PhysicalResourceId == want.PhysicalID) {
				found = true
				i++
				break
			}
		}
		if !found {
			r.fail(want.Pos, "%s: expected the event %s (after the ones before it in the list), and the step wrote none", label, want)
			return
		}
	}
}
