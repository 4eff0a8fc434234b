package statemachine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplainStackOf: a stack's explanation accepts what CheckOperation
// accepts for that stack — the operations a status allows only when
// rollback was disabled are listed, without their condition, exactly when
// it was — and its refusals are AWS's answers naming the stack.
func TestExplainStackOf(t *testing.T) {
	const arn = "arn:aws:cloudformation:us-east-1:123456789012:stack/orders/1"
	for _, c := range []struct {
		status           StackStatus
		disabled, noop   bool
		accepted         string
		refused, message string // an operation refused and its message
	}{
		{status: StackStatusUpdateFailed, accepted: "DeleteStack RollbackStack",
			refused: "UpdateStack", message: "Stack:" + arn + " is in UPDATE_FAILED state and can not be updated."},
		{status: StackStatusUpdateFailed, disabled: true,
			accepted: "CreateChangeSet(UPDATE) ExecuteChangeSet(UPDATE) UpdateStack DeleteStack RollbackStack",
			refused:  "CreateStack", message: "Stack [orders] already exists"},
		{status: StackStatusCreateFailed, disabled: true,
			accepted: "CreateChangeSet(UPDATE) ExecuteChangeSet(UPDATE) UpdateStack DeleteStack RollbackStack",
			refused:  "ContinueUpdateRollback", message: "ContinueUpdateRollback cannot be called from stack with CREATE_FAILED status"},
		{status: StackStatusCreateFailed, disabled: true, noop: true, accepted: "DeleteStack RollbackStack",
			refused: "UpdateStack", message: "This stack cannot be updated from [CREATE_FAILED] state because it contains [on-failure: DO_NOTHING]. Please use disable-rollback option instead"},
		{status: StackStatusUpdateComplete,
			accepted: "CreateChangeSet(UPDATE,IMPORT) ExecuteChangeSet(UPDATE,IMPORT) UpdateStack DeleteStack",
			refused:  "RollbackStack", message: "RollbackStack cannot be called from stack with UPDATE_COMPLETE status"},
	} {
		info := StackInfo{StackName: "orders", StackID: arn, Status: c.status, DisableRollback: c.disabled, OnFailureDoNothing: c.noop}
		x, err := ExplainStackOf(info)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range x.Permissions {
			got = append(got, p.String())
			types := p.ChangeSetTypes
			if len(types) == 0 {
				types = []ChangeSetType{""}
			}
			for _, ct := range types {
				i := info
				i.ChangeSetType = ct
				if err := CheckOperation(p.Operation, i); err != nil && !IsNoOp(err) {
					t.Errorf("%+v: %s listed as accepted, CheckOperation says %v", info, p, err)
				}
			}
		}
		if g := strings.Join(got, " "); g != c.accepted {
			t.Errorf("%+v: accepted %q, want %q", info, g, c.accepted)
		}
		found := false
		for _, r := range x.Refusals {
			if r.When != "" {
				t.Errorf("%+v: refusal of %s has condition %q; a stack's refusals have none", info, r.Err.Operation, r.When)
			}
			if string(r.Err.Operation) == c.refused {
				found = true
				if r.Err.Error() != c.message {
					t.Errorf("%+v: %s refused with %q, want %q", info, c.refused, r.Err.Error(), c.message)
				}
			}
		}
		if !found {
			t.Errorf("%+v: %s not among the refusals", info, c.refused)
		}
	}
	if _, err := ExplainStackOf(StackInfo{Status: "NOPE"}); err == nil {
		t.Error("ExplainStackOf accepted an unknown status")
	}
}

// An explanation's JSON: a stack status lists its operations and
// refusals (as lists, even when empty); a resource status has neither.
func TestExplanationJSON(t *testing.T) {
	for _, c := range []struct {
		x        func() (Explanation, error)
		withOps  bool
		contains string
	}{
		{func() (Explanation, error) { return ExplainStack(StackStatusUpdateRollbackFailed) }, true, `"operation":"ContinueUpdateRollback"`},
		{func() (Explanation, error) { return ExplainStack(StackStatusDeleteComplete) }, true, `"final":true`},
		{func() (Explanation, error) { return ExplainResource(ResourceStatusDeleteSkipped) }, false, `"machine":"resource"`},
	} {
		x, err := c.x()
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		_, ops := doc["operations"].([]any)
		_, refused := doc["refusals"].([]any)
		if ops != c.withOps || refused != c.withOps || !strings.Contains(string(data), c.contains) {
			t.Errorf("%s: operations %v, refusals %v, want %v; %s", x.Status, ops, refused, c.withOps, data)
		}
		if _, ok := doc["arrivals"].([]any); !ok {
			t.Errorf("%s: arrivals is not a list: %s", x.Status, data)
		}
	}
}
