package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// Lifecycles of what a template reads from outside: the account's
// parameter store and secrets.

func TestLifecycleSSMParameters(t *testing.T) {
	h := newHarness(t, "ssm-parameters", Options{
		SSMParameters: map[string]string{"/app/subnets": "subnet-1,subnet-2", "/app/db-password": "s3cret-pw"},
		Secrets:       map[string]string{"app/api-key": "key-123"},
	})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "config", TemplateBody: h.fixture("config.yaml")})
	})
	h.wait("config")
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml")}) })
	st := h.wait("app")
	for _, p := range st.Parameters {
		h.note("   parameter %s = %s (resolved %s)", p.ParameterKey, p.ParameterValue, p.ResolvedValue)
	}
	h.note("   outputs %v", st.Outputs)
	// The handler got the values; the stack keeps the references.
	model := h.objectModel("AWS::RDS::DBInstance")
	pw, _ := model["MasterUserPassword"].(string)
	h.note("   database handler got MasterUsername=%v MasterUserPassword=%q", model["MasterUsername"], pw)
	h.secretsHidden("app", "s3cret-pw")

	// An update that changes no reference changes nothing.
	_ = h.updateStack(UpdateStackInput{StackName: "app", UsePreviousTemplate: true,
		Parameters: []Parameter{{ParameterKey: "ImageId", UsePreviousValue: true}, {ParameterKey: "DbHost", UsePreviousValue: true}, {ParameterKey: "Subnets", UsePreviousValue: true}}})

	// A parameter the store does not hold refuses the call; a reference
	// the store does not hold fails the resource; ssm-secure only where
	// AWS takes it.
	_ = h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("missing-parameter.yaml")})
	_ = h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("secure-misplaced.yaml")})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("missing-ref.yaml")})
	})
	h.wait("bad")
	for _, s := range []string{"bad", "app", "config"} {
		id := h.stackID(s)
		h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: s}) })
		h.wait(id)
	}
	h.objects()
	h.done()
}

// objectModel returns the model of the one object of a type.
func (h *harness) objectModel(typeName string) map[string]any {
	h.t.Helper()
	var out map[string]any
	h.e.mu.Lock()
	_ = h.e.view(func(tx *txn) error {
		if objs := tx.Objects(typeName); len(objs) == 1 {
			out = objs[0].Model
		}
		return nil
	})
	h.e.mu.Unlock()
	if out == nil {
		h.t.Fatalf("no single %s object", typeName)
	}
	return out
}

// secretsHidden fails when a secret value shows in what the API answers
// about a stack: its description, resources, events and template.
func (h *harness) secretsHidden(stack, secret string) {
	h.t.Helper()
	var shown []any
	add := func(v any, err error) {
		if err != nil {
			h.t.Fatal(err)
		}
		shown = append(shown, v)
	}
	add(h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack}))
	add(h.e.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: stack}))
	add(h.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: stack}))
	add(h.e.GetTemplate(ctx(), GetTemplateInput{StackName: stack, TemplateStage: TemplateStageProcessed}))
	b, _ := json.Marshal(shown)
	if strings.Contains(string(b), secret) {
		h.t.Errorf("the secret %q shows in the API's answers about %s", secret, stack)
	}
	if !strings.Contains(string(b), "{{resolve:ssm-secure:/app/db-password}}") {
		h.t.Errorf("the events do not show the reference as written")
	}
	h.note("   no answer about %s shows a secret's value", stack)
}
