package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// SetStackPolicy and GetStackPolicy, and the policies CreateStack and
// UpdateStack take: AWS's answers (api/test_stack_policies.snapshot.json
// in LocalStack, recorded against AWS), nothing changed by a refusal.
func TestStackPolicyCalls(t *testing.T) {
	e := newTestEngine(t, Options{})
	tpl := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: one\n"
	tpl2 := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: two\n"
	tpl3 := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: three\n"
	deny := `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"*","Resource":"*"}]}`
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: tpl}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	get := func() string {
		t.Helper()
		out, err := e.GetStackPolicy(ctx(), GetStackPolicyInput{StackName: "web"})
		if err != nil {
			t.Fatal(err)
		}
		return out.StackPolicyBody
	}
	if got := get(); got != "" {
		t.Fatalf("a stack without a policy: %q", got)
	}

	before := state(t, e)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"Statement":[{"Effect":"Deny","Action":"Delete:*","Principal":"*","Resource":"*"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	refusals := []struct {
		name string
		in   SetStackPolicyInput
		msg  string
	}{
		{"not JSON", SetStackPolicyInput{StackName: "web", StackPolicyBody: "abc"}, "Error validating stack policy: Invalid stack policy"},
		{"principal", SetStackPolicyInput{StackName: "web", StackPolicyBody: `{"Statement":[{"Effect":"Deny","Action":"Update:*","Principal":"x1","Resource":"*"}]}`},
			"Error validating stack policy: Invalid stack policy"},
		{"bad policy by URL", SetStackPolicyInput{StackName: "web", StackPolicyURL: "file://" + bad}, "Error validating stack policy: Invalid stack policy"},
		{"both", SetStackPolicyInput{StackName: "web", StackPolicyBody: deny, StackPolicyURL: "file://" + bad}, "You cannot specify both StackPolicyURL and StackPolicyBody"},
		{"no stack", SetStackPolicyInput{StackName: "nope", StackPolicyBody: deny}, "Stack with id nope does not exist"},
	}
	for _, c := range refusals {
		_, err := e.SetStackPolicy(ctx(), c.in)
		wantAPIError(t, err, CodeValidationError, c.msg)
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "other", TemplateBody: tpl, StackPolicyBody: "{"}); err == nil {
		t.Error("CreateStack took a policy that is not JSON")
	}
	if after := state(t, e); string(after) != string(before) {
		t.Error("a refused policy changed the state")
	}

	// {} is kept and returned, and protects nothing (AWS-validated
	// test_update_with_empty_policy, test_policy_lifecycle).
	if _, err := e.SetStackPolicy(ctx(), SetStackPolicyInput{StackName: "web", StackPolicyBody: "{}"}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "{}" {
		t.Fatalf("GetStackPolicy after {} = %q", got)
	}
	// A policy given with an update does not govern it; it is the
	// stack's once the update succeeds.
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", TemplateBody: tpl2, StackPolicyBody: deny}); err != nil {
		t.Fatal(err)
	}
	if got := get(); got != "{}" {
		t.Errorf("GetStackPolicy during the update = %q, want the stack's {}", got)
	}
	st, err := e.WaitForStack(ctx(), "web")
	if err != nil || st.StackStatus != "UPDATE_COMPLETE" {
		t.Fatalf("update under {}: %v %v", st, err)
	}
	if got := get(); got != deny {
		t.Errorf("GetStackPolicy after the update = %q, want the update's", got)
	}
	// Now it denies.
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", TemplateBody: tpl3}); err != nil {
		t.Fatal(err)
	}
	st, err = e.WaitForStack(ctx(), "web")
	if err != nil || st.StackStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("update under a deny-all policy: %v %v", st, err)
	}
	ev, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, x := range ev.StackEvents {
		if x.LogicalResourceId == "Topic" && x.ResourceStatus == "UPDATE_FAILED" {
			found = x.ResourceStatusReason == "Action denied by stack policy: Statement [#1] does not allow [Update:*] for resource [*];"
			if !found {
				t.Errorf("reason %q", x.ResourceStatusReason)
			}
		}
	}
	if !found {
		t.Error("no UPDATE_FAILED event of Topic")
	}
}
