package engine

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
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
		h.t.Fatalf("no single %s object\n%s", typeName, h.out.String())
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

// Macros: the account's AWS::CloudFormation::Macro objects, their
// functions mapped like ServiceTokens, applied in AWS's order with
// AWS::Include; CAPABILITY_AUTO_EXPAND for a direct create, not for a
// change set; GetTemplate's two stages.
func TestLifecycleMacros(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "macros", "s3"))
	var h *harness
	stamp := resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
		h.note("   macro %s requestId=%s params=%s values=%s", req.TransformID, req.RequestID, jsonText(req.Params), jsonText(req.TemplateParameterValues))
		var tpl map[string]any
		if err := json.Unmarshal(req.Fragment, &tpl); err != nil {
			return nil, err
		}
		res := tpl["Resources"].(map[string]any)
		res["Stamp"] = map[string]any{"Type": "AWS::SSM::Parameter", "Properties": map[string]any{"Type": "String", "Value": "stamped by " + req.TransformID}}
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "success", "fragment": tpl})
	})
	upper := resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
		h.note("   macro %s fragment=%s params=%s", req.TransformID, compactJSON(req.Fragment), jsonText(req.Params))
		s, _ := req.Params["InputString"].(string)
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "success", "fragment": strings.ToUpper(s)})
	})
	broken := resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "failure", "errorMessage": "Count must be a number"})
	})
	h = newHarness(t, "macros", Options{S3Dir: dir, ServiceTokens: map[string]resources.CustomTarget{
		"arn:aws:lambda:us-east-1:123456789012:function:stamp": stampTarget{stamp},
		"upper": stampTarget{upper},
		"arn:aws:lambda:us-east-1:123456789012:function:broken": stampTarget{broken},
	}})
	app := CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml")}
	_ = h.create(app) // no macro Stamp in the account yet
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "macros", TemplateBody: h.fixture("macros.yaml")})
	})
	h.wait("macros")
	_ = h.create(app) // CAPABILITY_AUTO_EXPAND missing
	app.Capabilities = []string{"CAPABILITY_AUTO_EXPAND"}
	h.mustDo(func() error { return h.create(app) })
	st := h.wait("app")
	h.note("   outputs %v", st.Outputs)
	for _, stage := range []string{TemplateStageOriginal, TemplateStageProcessed} {
		got, err := h.e.GetTemplate(ctx(), GetTemplateInput{StackName: "app", TemplateStage: stage})
		if err != nil {
			t.Fatal(err)
		}
		h.note("   template %s:\n%s", stage, indent(got.TemplateBody))
	}
	// GetTemplateSummary describes the template as submitted (its
	// parameters, its transforms) and what the processed one makes (its
	// resource types and capabilities): the stack's, processed when it was
	// made, and a body given, whose macros run as ValidateTemplate runs them.
	for _, in := range []GetTemplateSummaryInput{{StackName: "app"}, {TemplateBody: h.fixture("app.yaml")}} {
		sum, err := h.e.GetTemplateSummary(ctx(), in)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, p := range sum.Parameters {
			keys = append(keys, p.ParameterKey)
		}
		of := "stack app"
		if in.StackName == "" {
			of = "app.yaml"
		}
		h.note("   summary of %s: parameters %v transforms %v capabilities %v types %v", of, keys, sum.DeclaredTransforms, sum.Capabilities, sum.ResourceTypes)
	}
	// A change set needs no CAPABILITY_AUTO_EXPAND; the macros run when it
	// is made, and its execution runs what they made.
	h.mustDo(func() error {
		return h.call("CreateChangeSet app v2", func() error {
			_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "v2", UsePreviousTemplate: true,
				Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "dev"}}})
			return err
		})
	})
	cs, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "app", ChangeSetName: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	h.note("   change set %s %s %s", cs.Status, cs.ExecutionStatus, cs.StatusReason)
	for _, c := range cs.Changes {
		h.note("   change %s %s replacement=%s", c.ResourceChange.Action, c.ResourceChange.LogicalResourceID, c.ResourceChange.Replacement)
	}
	h.mustDo(func() error {
		return h.call("ExecuteChangeSet app v2", func() error {
			_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "v2"})
			return err
		})
	})
	h.wait("app")
	_ = h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("broken.yaml"), Capabilities: []string{"CAPABILITY_AUTO_EXPAND"}})
	_ = h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("missing-include.yaml"), Capabilities: []string{"CAPABILITY_AUTO_EXPAND"}})
	for _, s := range []string{"app", "macros"} {
		id := h.stackID(s)
		h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: s}) })
		h.wait(id)
	}
	h.objects()
	h.done()
}

// stampTarget is a macro function as a ServiceToken's target.
type stampTarget struct{ resources.MacroFunc }

func (stampTarget) Deliver(context.Context, *resources.CustomRequest) (*resources.CustomResponse, error) {
	return nil, errors.New("a macro's function, not a custom resource's")
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func compactJSON(b []byte) string {
	var v any
	_ = json.Unmarshal(b, &v)
	return jsonText(v)
}

func indent(s string) string {
	return "     " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n     ")
}

// AWS::Serverless-2016-10-31, expanded by AWS's SAM translator.
func TestLifecycleServerless(t *testing.T) {
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		t.Skipf("python3 cannot import samtranslator (pip install aws-sam-translator): %v", err)
	}
	h := newHarness(t, "serverless", Options{})
	in := CreateStackInput{StackName: "sam", TemplateBody: h.fixture("app.yaml")}
	_ = h.create(in) // the role SAM makes needs CAPABILITY_IAM, the transform CAPABILITY_AUTO_EXPAND
	in.Capabilities = []string{"CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"}
	h.mustDo(func() error { return h.create(in) })
	st := h.wait("sam")
	h.note("   outputs %v", st.Outputs)
	h.resources("sam")
	got, err := h.e.GetTemplate(ctx(), GetTemplateInput{StackName: "sam", TemplateStage: TemplateStageProcessed})
	if err != nil {
		t.Fatal(err)
	}
	var processed map[string]any
	if err := json.Unmarshal([]byte(got.TemplateBody), &processed); err != nil {
		t.Fatalf("the processed template is not JSON: %v", err)
	}
	if _, still := processed["Transform"]; still {
		t.Error("the processed template still declares its transform")
	}
	v, err := h.e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: h.fixture("app.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	h.note("   validate-template: capabilities %v (%s), transforms %v", v.Capabilities, v.CapabilitiesReason, v.DeclaredTransforms)
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "sam"}) })
	h.wait(st.StackId)
	h.objects()
	h.done()
}

// Fn::GetStackOutput: another stack's output, read when the consumer is
// created or updated; a weak reference.
func TestLifecycleGetStackOutput(t *testing.T) {
	h := newHarness(t, "get-stack-output", Options{})
	consumer := CreateStackInput{StackName: "consumer", TemplateBody: h.fixture("consumer.yaml")}
	_ = h.create(consumer) // no producer yet
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "producer", TemplateBody: h.fixture("producer.yaml")})
	})
	h.wait("producer")
	_ = h.create(CreateStackInput{StackName: "consumer", TemplateBody: h.fixture("no-output.yaml")})
	_ = h.create(CreateStackInput{StackName: "consumer", TemplateBody: h.fixture("other-region.yaml")})
	h.mustDo(func() error { return h.create(consumer) })
	st := h.wait("consumer")
	h.note("   consumer outputs %v", st.Outputs)
	// The producer changes its output; the consumer keeps what it read
	// until it is updated, and does not hold the producer back.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "producer", UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Name", ParameterValue: "orders-v2"}}})
	})
	h.wait("producer")
	st = h.wait("consumer")
	h.note("   consumer outputs %v", st.Outputs)
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "consumer", TemplateBody: strings.Replace(h.fixture("consumer.yaml"), "Value: !GetAtt", "Description: read again\n    Value: !GetAtt", 1)})
	})
	st = h.wait("consumer")
	h.note("   consumer outputs %v", st.Outputs)
	for _, s := range []string{"producer", "consumer"} {
		id := h.stackID(s)
		h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: s}) })
		h.wait(id)
	}
	h.done()
}

// TemplateURL: S3 URLs read from Options.S3Dir, file:// paths, AWS's
// refusals.
func TestLifecycleTemplateURL(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "template-url"))
	h := newHarness(t, "template-url", Options{S3Dir: filepath.Join(dir, "s3")})
	url := "https://templates.s3.us-east-1.amazonaws.com/topic.yaml"
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "s", TemplateURL: url}) })
	st := h.wait("s")
	got, err := h.e.GetTemplate(ctx(), GetTemplateInput{StackName: "s"})
	if err != nil || got.TemplateBody != h.fixture("s3/templates/topic.yaml") {
		t.Fatalf("GetTemplate: %v %q", err, got)
	}
	if v, err := h.e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateURL: url}); err != nil || len(v.Parameters) != 0 {
		t.Fatalf("ValidateTemplate: %v %v", v, err)
	}
	_ = h.updateStack(UpdateStackInput{StackName: "s", TemplateURL: "https://s3.amazonaws.com/templates/topic.yaml"}) // the same template
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "s", TemplateURL: "file://" + filepath.Join(dir, "topic-and-queue.yaml")})
	})
	h.wait("s")
	for _, u := range []string{"s3://templates/topic.yaml", "https://example.com/topic.yaml", "https://templates.s3.amazonaws.com/missing.yaml"} {
		_ = h.updateStack(UpdateStackInput{StackName: "s", TemplateURL: u})
	}
	_ = h.create(CreateStackInput{StackName: "t", TemplateURL: url, TemplateBody: h.fixture("topic-and-queue.yaml")})
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "s"}) })
	h.wait(st.StackId)
	h.done()
}
