package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/stacksim/stacksim/resources"

	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Lifecycles of policies, custom resources, change sets, exports, run-time
// template errors, timeouts and retries.

func TestLifecycleDeletionPolicies(t *testing.T) {
	h := newHarness(t, "deletion-policies", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml")})
	})
	id := h.stackID("app")
	h.wait("app")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(id)
	h.resources(id)
	h.objects()
	h.done()
}

func TestLifecycleRetainExceptOnCreateRollback(t *testing.T) {
	h := newHarness(t, "retain-except-on-create-rollback", Options{})
	in := CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("app")
	h.objects()
	// With the stack's RetainExceptOnCreate, Retain resources go too.
	in2 := CreateStackInput{StackName: "app2", TemplateBody: h.fixture("template.yaml"), RetainExceptOnCreate: true}
	in2.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in2) })
	h.wait("app2")
	h.objects()
	h.done()
}

// Seeds 001 and 004: a custom resource is updated whenever its properties
// change (booleans and numbers arrive as strings); a new PhysicalResourceId
// in an Update's answer is a replacement whose old id gets a Delete in
// cleanup.
func TestLifecycleCustomResource(t *testing.T) {
	h := newHarness(t, "custom-resource", Options{})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")})
	})
	h.wait("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v3.yaml")})
	})
	h.wait("app")
	h.resources("app")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(h.opStack("app"))
	h.done()
}

// Seed 004: when the update that replaced a custom resource rolls back, the
// rollback sends an Update with ResourceProperties = OLD and
// OldResourceProperties = NEW to the old physical id, and the new one gets
// the Delete.
func TestLifecycleCustomResourceRollback(t *testing.T) {
	h := newHarness(t, "custom-resource-rollback", Options{})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	in := UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.updateStack(in) })
	h.wait("app")
	h.resources("app")
	h.done()
}

// BEHAVIOUR.md §7: a custom resource whose Create failed is still sent a
// Delete when the creation rolls back, with its ResourceProperties
// (ServiceToken included) and the PhysicalResourceId its FAILED response
// gave; one that never answered gets a Delete with a generated id. Both
// answer it, and the stack ends ROLLBACK_COMPLETE.
func TestLifecycleCustomResourceCreateFails(t *testing.T) {
	h := newHarness(t, "custom-resource-create-fails", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml")})
	})
	h.wait("app")
	in := CreateStackInput{StackName: "silent", TemplateBody: h.fixture("silent.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("silent")
	h.objects()
	h.done()
}

// Seed 001: "If an Update fails, CloudFormation will trigger a second
// Update during rollback. The rollback update will have
// ResourceProperties=OLD and OldResourceProperties=NEW" — NEW being what
// the failed Update asked for, whether the target answered FAILED or never
// answered.
func TestLifecycleCustomResourceUpdateFails(t *testing.T) {
	h := newHarness(t, "custom-resource-update-fails", Options{ServiceTokens: map[string]resources.CustomTarget{
		"other": resources.CustomFunc(func(context.Context, *resources.CustomRequest) (*resources.CustomResponse, error) {
			return nil, errors.New("the other target is never called: a service token cannot change")
		}),
	}})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")})
	})
	h.wait("app")
	in := UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v3.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.updateStack(in) })
	h.wait("app")
	// A service token cannot change: that Update is refused before any
	// request is sent, and its rollback goes from the properties applied.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v4.yaml")})
	})
	h.wait("app")
	h.resources("app")
	h.done()
}

func TestLifecycleChangeSetCreate(t *testing.T) {
	h := newHarness(t, "change-set-create", Options{})
	h.must("CreateChangeSet web first (CREATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "first", ChangeSetType: ChangeSetTypeCreate, TemplateBody: h.fixture("template.yaml")})
		return err
	})
	h.describeChangeSet("web", "first")
	h.must("CreateChangeSet web second (CREATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "second", ChangeSetType: ChangeSetTypeCreate, TemplateBody: h.fixture("template.yaml")})
		return err
	})
	_ = h.call("CreateChangeSet web third (UPDATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "third", TemplateBody: h.fixture("template.yaml")})
		return err
	})
	h.must("ExecuteChangeSet web first", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "web", ChangeSetName: "first"})
		return err
	})
	h.wait("web")
	h.listChangeSets("web")
	// A stack made by a change set and never executed can be deleted.
	h.must("CreateChangeSet draft only (CREATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "draft", ChangeSetName: "only", ChangeSetType: ChangeSetTypeCreate, TemplateBody: h.fixture("template.yaml")})
		return err
	})
	id := h.stackID("draft")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "draft"}) })
	h.wait(id)
	h.done()
}

func TestLifecycleChangeSetUpdate(t *testing.T) {
	h := newHarness(t, "change-set-update", Options{})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	h.must("CreateChangeSet app nothing (UPDATE, same template)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "nothing", UsePreviousTemplate: true})
		return err
	})
	h.describeChangeSet("app", "nothing")
	h.must("CreateChangeSet app rename (UPDATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "rename", TemplateBody: h.fixture("v2.yaml")})
		return err
	})
	h.must("CreateChangeSet app rename-again (UPDATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "rename-again", TemplateBody: h.fixture("v3.yaml")})
		return err
	})
	h.describeChangeSet("app", "rename")
	h.must("ExecuteChangeSet app rename", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "rename"})
		return err
	})
	h.wait("app")
	h.listChangeSets("app")
	_ = h.call("ExecuteChangeSet app rename-again", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "rename-again"})
		return err
	})
	h.done()
}

func TestLifecycleExportsImports(t *testing.T) {
	h := newHarness(t, "exports-imports", Options{})
	_ = h.create(CreateStackInput{StackName: "consumer", TemplateBody: h.fixture("importer.yaml")})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "producer", TemplateBody: h.fixture("exporter-v1.yaml")})
	})
	h.wait("producer")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "consumer", TemplateBody: h.fixture("importer.yaml")})
	})
	h.wait("consumer")
	h.resources("consumer")
	// A second stack cannot export the same name.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "copycat", TemplateBody: h.fixture("exporter-v1.yaml")})
	})
	h.wait("copycat")
	// The export in use can be neither removed nor the stack deleted.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "producer", TemplateBody: h.fixture("exporter-v2.yaml")})
	})
	h.wait("producer")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "producer"}) })
	h.wait("producer")
	// Once the importer is gone, the exporter goes.
	consumer := h.stackID("consumer")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "consumer"}) })
	h.wait(consumer)
	producer := h.stackID("producer")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "producer"}) })
	h.wait(producer)
	h.done()
}

func TestLifecycleTemplateErrorAtRunTime(t *testing.T) {
	h := newHarness(t, "template-error-at-run-time", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml")})
	})
	h.wait("app")
	h.done()
}

func TestLifecycleStackTimeout(t *testing.T) {
	h := newHarness(t, "stack-timeout", Options{})
	in := CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml"), TimeoutInMinutes: 1}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("app")
	h.objects()
	h.done()
}

func TestLifecycleRetriesAndEventualConsistency(t *testing.T) {
	h := newHarness(t, "retries-and-eventual-consistency", Options{MaxAttempts: 4})
	in := CreateStackInput{StackName: "app", TemplateBody: h.fixture("template.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("app")
	op, err := h.e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range op.Operation.FaultsFired {
		h.note("   fired %s %s %s %s attempt %d", f.Kind, f.LogicalResourceId, f.Action, f.Phase, f.Attempt)
	}
	h.done()
}

// opStack is the ARN of the stack's current operation's stack (the live
// stack with this name).
func (h *harness) opStack(name string) string { return h.stackID(name) }

// describeChangeSet logs a change set and its changes.
func (h *harness) describeChangeSet(stack, name string) {
	h.t.Helper()
	out, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: stack, ChangeSetName: name, IncludePropertyValues: true})
	if err != nil {
		h.t.Fatal(err)
	}
	h.note("   change set %s %s/%s %q", out.ChangeSetName, out.Status, out.ExecutionStatus, out.StatusReason)
	for _, c := range out.Changes {
		rc := c.ResourceChange
		h.note("     %s %s %s replacement=%s policy=%s scope=%v", rc.Action, rc.LogicalResourceID, rc.ResourceType, rc.Replacement, rc.PolicyAction, rc.Scope)
		for _, d := range rc.Details {
			h.note("       %s %s %s %s/%s %s before=%q after=%q", d.Target.Attribute, d.Target.Name, d.Target.RequiresRecreation, d.Evaluation, d.ChangeSource, d.CausingEntity, d.Target.BeforeValue, d.Target.AfterValue)
		}
	}
}

// listChangeSets logs a stack's change sets.
func (h *harness) listChangeSets(stack string) {
	h.t.Helper()
	out, err := h.e.ListChangeSets(ctx(), ListChangeSetsInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, s := range out.Summaries {
		h.note("   change set %s %s/%s", s.ChangeSetName, s.Status, s.ExecutionStatus)
	}
}

var _ = statemachine.NotExist

// Item 6 of issue 13: a custom resource whose ServiceToken is not mapped is
// answered by the simulated responder, with Data for every attribute the
// template reads of it (here by a resource, an Fn::Sub and outputs), the
// same after an update; one the template reads nothing of gets no Data. A
// mapped target keeps AWS's failure for a key its answer lacks.
func TestLifecycleCustomResourceUnmapped(t *testing.T) {
	h := newHarness(t, "custom-resource-unmapped", Options{})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	h.outputs("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml")})
	})
	h.wait("app")
	h.outputs("app")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(h.opStack("app"))
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "mapped", TemplateBody: h.fixture("mapped.yaml")})
	})
	h.wait("mapped")
	h.done()
}

// Item 1 of issue 13: a type that is in no registry is refused before
// anything starts, as AWS refuses it — by CreateStack, CreateChangeSet,
// UpdateStack and ValidateTemplate — each type once, in the template's
// order; a resource its condition leaves out is not checked by the calls
// that bind parameters. Registry types (Alexa::ASK::Skill among them) are
// simulated from their schemas, with AWS's Ref and ids; PermissiveTypes
// accepts the rest.
func TestLifecycleUnrecognizedTypes(t *testing.T) {
	h := newHarness(t, "unrecognized-types", Options{})
	typo := h.fixture("typo.yaml")
	if err := h.create(CreateStackInput{StackName: "app", TemplateBody: typo}); err == nil {
		t.Fatal("a template with unknown types was accepted")
	}
	if err := h.call("CreateChangeSet app", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "c1", ChangeSetType: ChangeSetTypeCreate, TemplateBody: typo})
		return err
	}); err == nil {
		t.Fatal("CreateChangeSet accepted unknown types")
	}
	if err := h.call("ValidateTemplate", func() error {
		_, err := h.e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: typo})
		var te *template.Error
		if errors.As(err, &te) {
			h.note("   at %s:%d:%d (%s)", te.File, te.Line, te.Col, te.Detail)
		}
		return err
	}); err == nil {
		t.Fatal("ValidateTemplate accepted unknown types")
	}
	if st, _ := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"}); st != nil {
		t.Fatalf("a refused call left a stack: %+v", st.Stacks)
	}
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("conditional.yaml")})
	})
	h.wait("app")
	if err := h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("conditional.yaml"),
		Parameters: []Parameter{{ParameterKey: "WithWidget", ParameterValue: "yes"}}}); err == nil {
		t.Fatal("UpdateStack accepted an unknown type its condition now keeps")
	}
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "registry", TemplateBody: h.fixture("registry.yaml")})
	})
	h.wait("registry")
	h.outputs("registry")
	h.resources("registry")

	p := newHarness(t, "unrecognized-types-permissive", Options{PermissiveTypes: true})
	p.mustDo(func() error { return p.create(CreateStackInput{StackName: "app", TemplateBody: typo}) })
	st := p.wait("app")
	h.note("== with PermissiveTypes: CreateStack of typo.yaml")
	h.note("-- %s %s", st.StackName, st.StackStatus)
	h.done()
}

// outputs logs a stack's outputs.
func (h *harness) outputs(stack string) {
	h.t.Helper()
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, o := range out.Stacks[0].Outputs {
		h.note("   output %s = %s", o.OutputKey, o.OutputValue)
	}
}
