package engine

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
	"github.com/stacksim/stacksim/template"
)

// Refusals of the calls that change stacks: AWS's codes and messages, and
// nothing changed (the state file's bytes are the same before and after).
func TestOperationRefusals(t *testing.T) {
	e := newTestEngine(t, Options{})
	ok := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: ok}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	iam := "Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n"
	cases := []struct {
		name string
		call func() error
		code string
		msg  string
	}{
		{"name pattern", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "my_stack", TemplateBody: ok})
			return err
		}, CodeValidationError, "1 validation error detected: Value 'my_stack' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*"},
		{"name length", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "a" + strings.Repeat("b", 128), TemplateBody: ok})
			return err
		}, CodeValidationError, "Member must have length less than or equal to 128"},
		{"exists", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: ok})
			return err
		}, CodeAlreadyExists, "Stack [web] already exists"},
		{"capabilities", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "iam", TemplateBody: iam})
			return err
		}, CodeInsufficientCapabilities, "Requires capabilities : [CAPABILITY_IAM]"},
		{"no template", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x"})
			return err
		}, CodeValidationError, "Either Template URL or Template Body must be specified."},
		{"both rollback options", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: ok, DisableRollback: true, OnFailure: OnFailureDelete})
			return err
		}, CodeValidationError, "You can specify either DisableRollback or OnFailure, but not both."},
		{"template error", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: "Resources:\n  A:\n    Properties: {}\n"})
			return err
		}, CodeValidationError, "Template format error: [/Resources/A] Every Resources object must contain a Type member."},
		{"import", func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !ImportValue nope\n"})
			return err
		}, CodeValidationError, "No export named nope found."},
		{"no updates", func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", UsePreviousTemplate: true})
			return err
		}, CodeValidationError, "No updates are to be performed."},
		{"update missing", func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "nope", TemplateBody: ok})
			return err
		}, CodeValidationError, "Stack [nope] does not exist"},
		{"type change", func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", TemplateBody: "Resources:\n  Topic:\n    Type: AWS::SQS::Queue\n"})
			return err
		}, CodeValidationError, "Update of resource type is not permitted."},
		{"continue", func() error {
			_, err := e.ContinueUpdateRollback(ctx(), ContinueUpdateRollbackInput{StackName: "web"})
			return err
		}, CodeValidationError, "ContinueUpdateRollback cannot be called from stack with CREATE_COMPLETE status"},
		{"cancel", func() error {
			_, err := e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: "web"})
			return err
		}, CodeValidationError, "CancelUpdateStack cannot be called from current stack status"},
		{"rollback", func() error {
			_, err := e.RollbackStack(ctx(), RollbackStackInput{StackName: "web"})
			return err
		}, CodeValidationError, "RollbackStack cannot be called from stack with CREATE_COMPLETE status"},
		{"retain outside DELETE_FAILED", func() error {
			_, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "web", RetainResources: []string{"Topic"}})
			return err
		}, CodeValidationError, "RetainResources can only be specified"},
		{"change set import", func() error {
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "cs", ChangeSetType: ChangeSetTypeImport, TemplateBody: ok})
			return err
		}, CodeValidationError, "ResourcesToImport must be given for a change set of type IMPORT"},
		{"change set create on a stack", func() error {
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "cs", ChangeSetType: ChangeSetTypeCreate, TemplateBody: ok})
			return err
		}, CodeValidationError, "Stack [web] already exists and cannot be created again with the changeSet [cs]."},
		{"execute missing change set", func() error {
			_, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "web", ChangeSetName: "nope"})
			return err
		}, CodeChangeSetNotFound, "ChangeSet [nope] does not exist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := state(t, e)
			err := c.call()
			var api *APIError
			if !errors.As(err, &api) || api.Code != c.code || !strings.Contains(api.Message, c.msg) {
				t.Fatalf("got %v, want %s: %s", err, c.code, c.msg)
			}
			if after := state(t, e); !bytes.Equal(before, after) {
				t.Fatalf("a refused call changed the state:\n%s", lineDiff(string(before), string(after)))
			}
		})
	}
}

// A template error is a ValidationError with AWS's message that wraps the
// positioned errors, for FILE:LINE:COL.
func TestTemplateErrorsArePositioned(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  A:\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: !Ref Nowhere\n"
	_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: body, Extensions: Extensions{TemplateFile: "web.yaml"}})
	var te *template.Error
	if !errors.As(err, &te) || te.File != "web.yaml" || te.Line != 5 {
		t.Fatalf("%v (%#v)", err, te)
	}
	if !IsCode(err, CodeValidationError) {
		t.Fatal(err)
	}
	out, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: "Parameters:\n  Env:\n    Type: String\n    Default: dev\n    NoEcho: true\nResources:\n  R:\n    Type: AWS::IAM::Role\n    Properties:\n      AssumeRolePolicyDocument: {}\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Parameters) != 1 || out.Parameters[0].DefaultValue != "dev" || !out.Parameters[0].NoEcho || len(out.Capabilities) != 1 {
		t.Fatalf("%+v", out)
	}
	if _, err := e.ValidateTemplate(ctx(), ValidateTemplateInput{TemplateBody: "{"}); !IsCode(err, CodeValidationError) {
		t.Fatal(err)
	}
}

// Strict contract checking fails a handler that breaks the contract; the
// violations are counted on the operation.
func TestContractStrict(t *testing.T) {
	s, err := resources.ParseSchema("t", []byte(`{"typeName":"Test::Bad::Thing","description":"x","properties":{"Name":{"type":"string"}},
		"primaryIdentifier":["/properties/Name"],"additionalProperties":false}`))
	if err != nil {
		t.Fatal(err)
	}
	h := resources.HandlerFuncs{CreateFunc: func(_ ctxT, req *resources.Request) (*resources.ProgressEvent, error) {
		// SUCCESS without the primary identifier, and with a delay.
		ev := resources.Success(map[string]any{"Name": req.DesiredResourceState["Name"]})
		ev.CallbackDelaySeconds = 5
		return ev, nil
	}, DeleteFunc: func(_ ctxT, req *resources.Request) (*resources.ProgressEvent, error) {
		return resources.Success(nil), nil
	}}
	for _, mode := range []ContractMode{ContractReport, ContractStrict} {
		e := newTestEngine(t, Options{Contract: mode, Handlers: []TypeHandler{{TypeName: "Test::Bad::Thing", Schema: s, Handler: h}}})
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: "Resources:\n  T:\n    Type: Test::Bad::Thing\n    Properties:\n      Name: n\n"}); err != nil {
			t.Fatal(err)
		}
		st, err := e.WaitForStack(ctx(), "x")
		if err != nil {
			t.Fatal(err)
		}
		op, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: "x"})
		if err != nil {
			t.Fatal(err)
		}
		if op.Operation.ContractViolationCount == 0 || op.Operation.ContractViolations[0].Rule == "" {
			t.Fatalf("%v: no violation recorded: %+v", mode, op.Operation)
		}
		want := "CREATE_COMPLETE"
		if mode == ContractStrict {
			want = "ROLLBACK_COMPLETE"
		}
		if st.StackStatus != want {
			t.Fatalf("%v: the stack is %s, want %s", mode, st.StackStatus, want)
		}
	}
}

// GetTemplate of a change set, ListStackOperations.
func TestChangeSetTemplateAndOperations(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	if _, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "cs", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	out, err := e.GetTemplate(ctx(), GetTemplateInput{StackName: "web", ChangeSetName: "cs"})
	if err != nil || out.TemplateBody != body {
		t.Fatalf("%v %+v", err, out)
	}
	if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "web", ChangeSetName: "cs"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitForStack(ctx(), "web"); err != nil {
		t.Fatal(err)
	}
	ops, err := e.ListStackOperations(ctx(), ListStackOperationsInput{StackName: "web"})
	if err != nil || len(ops.Operations) != 1 || ops.Operations[0].Operation != "ExecuteChangeSet" || ops.Operations[0].InMotion {
		t.Fatalf("%v %+v", err, ops)
	}
}

type ctxT = context.Context

// docs/faults.md: a newPhysicalId fault on a registry type makes its
// handler break the contract, and the checker reports
// primary-identifier-changed (the fault acts inside the checker); the
// resource keeps its identifier. Faults that act on the call (fail,
// throttle...) stay outside it: the checker never judges them.
func TestContractSeesNewPhysicalIDFault(t *testing.T) {
	e := newTestEngine(t, Options{Contract: ContractReport})
	v := func(s string) string {
		return "Resources:\n  Param:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: " + s + "\n"
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "x", TemplateBody: v("1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitForStack(ctx(), "x"); err != nil {
		t.Fatal(err)
	}
	in := UpdateStackInput{StackName: "x", TemplateBody: v("2")}
	in.Faults = []faults.Fault{
		{Kind: faults.NewPhysicalID, Match: faults.Match{LogicalID: "Param", Actions: []resources.Action{resources.ActionUpdate}}},
		{Kind: faults.Throttle, Match: faults.Match{LogicalID: "Param", Actions: []resources.Action{resources.ActionUpdate}}},
	}
	if _, err := e.UpdateStack(ctx(), in); err != nil {
		t.Fatal(err)
	}
	st, err := e.WaitForStack(ctx(), "x")
	if err != nil || st.StackStatus != "UPDATE_COMPLETE" {
		t.Fatalf("%v %v", st, err)
	}
	op, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: "x"})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, cv := range op.Operation.ContractViolations {
		rules = append(rules, cv.Rule)
	}
	// The changed identifier also means the model does not hold the
	// request's Name (input-not-applied), and the fault's id, a Lambda log
	// stream's name, does not fit the Name's pattern (model-schema: a
	// Java pattern with lookaheads, run on regexp2); the throttle is no
	// violation.
	if !slices.Contains(rules, "primary-identifier-changed") || op.Operation.ContractViolationCount != len(rules) || slices.Contains(rules, "") {
		t.Fatalf("violations %d %v, want primary-identifier-changed: %+v", op.Operation.ContractViolationCount, rules, op.Operation.ContractViolations)
	}
	for _, r := range rules {
		if r != "primary-identifier-changed" && r != "input-not-applied" && r != "model-schema" {
			t.Fatalf("unexpected violation %s: %+v", r, op.Operation.ContractViolations)
		}
	}
	if len(op.Operation.FaultsFired) != 2 {
		t.Fatalf("faults fired: %v", op.Operation.FaultsFired)
	}
	r, err := e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "x", LogicalResourceId: "Param"})
	if err != nil || !strings.HasPrefix(r.StackResourceDetail.PhysicalResourceId, "CFN-Param-") {
		t.Fatalf("the resource lost its identifier: %+v %v", r, err)
	}
}
