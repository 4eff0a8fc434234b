package engine

import (
	"testing"
)

// A stack policy (ops_stack_policy.go): an update it denies fails the
// denied resources before anything starts and rolls back; the same update
// under an allow-all StackPolicyDuringUpdateBody goes through, and the
// stack keeps its own policy.
func TestLifecycleStackPolicy(t *testing.T) {
	h := newHarness(t, "stack-policy", Options{})
	policy := h.fixture("policy.json")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml"), StackPolicyBody: policy})
	})
	h.wait("app")
	h.policy("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")})
	})
	h.wait("app")
	h.resources("app")
	allow := `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml"), StackPolicyDuringUpdateBody: allow})
	})
	h.policy("app")
	h.wait("app")
	h.resources("app")
	h.policy("app")
	h.done()
}

// policy logs what GetStackPolicy answers.
func (h *harness) policy(stack string) {
	h.t.Helper()
	out, err := h.e.GetStackPolicy(ctx(), GetStackPolicyInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	body := out.StackPolicyBody
	if body == "" {
		body = "(none)"
	} else if len(body) > 60 {
		body = body[:60] + "..."
	}
	h.note("-- GetStackPolicy %s: %s", stack, body)
}

// An update the policy denies with rollback disabled leaves the denied
// resources UPDATE_FAILED; the next update is denied them again (it used
// to find nothing to deny, stop at once and end UPDATE_COMPLETE having
// run nothing), and one under an allow-all StackPolicyDuringUpdateBody
// goes through.
func TestLifecycleStackPolicyDisableRollback(t *testing.T) {
	h := newHarness(t, "stack-policy-disable-rollback", Options{})
	h.dir = "stack-policy"
	policy := h.fixture("policy.json")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml"), StackPolicyBody: policy})
	})
	h.wait("app")
	for i := 0; i < 2; i++ {
		h.mustDo(func() error {
			return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml"), DisableRollback: true})
		})
		h.wait("app")
		h.resources("app")
	}
	allow := `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml"), StackPolicyDuringUpdateBody: allow, DisableRollback: true})
	})
	h.wait("app")
	h.resources("app")
	h.done()
}
