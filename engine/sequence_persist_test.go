package engine

import (
	"path/filepath"
	"strings"
	"testing"
)

// A task definition family's revision goes on across processes and stacks:
// the stack that made revision 1 is deleted, the state file saved and
// opened again, and the next stack's task definition of the same family
// is revision 2, as on AWS (the family's name is kept). The account's
// invariants hold with the sequence's objects, which no stack owns.
func TestTaskDefinitionRevisionSurvivesTheStateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	body := "Resources:\n  Task:\n    Type: AWS::ECS::TaskDefinition\n    Properties:\n      Family: web\n      ContainerDefinitions: [{Name: app, Image: nginx}]\nOutputs:\n  Arn: {Value: !Ref Task}\n"
	e, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := createdOutput(t, e, "one", body); !strings.HasSuffix(got, ":task-definition/web:1") {
		t.Fatalf("the first revision is %s", got)
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "one"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if err := e.Save(); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if e, err = Open(path, Options{}); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := createdOutput(t, e, "two", body); !strings.HasSuffix(got, ":task-definition/web:2") {
		t.Errorf("after the first stack was deleted and the state reopened, the next revision is %s, want web:2", got)
	}
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}

// A Lambda function deleted out of band (DriftResource) ends its versions'
// numbering as a delete by its stack does: the function made again under
// the same name by another stack publishes version 1.
func TestFunctionDeletedByHandEndsItsVersions(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      FunctionName: orders\n      Role: arn:aws:iam::123456789012:role/r\n      Runtime: python3.12\n      Handler: index.handler\n      Code: {ZipFile: 'def handler(e, c): pass'}\n  V:\n    Type: AWS::Lambda::Version\n    Properties:\n      FunctionName: !Ref Fn\nOutputs:\n  Version: {Value: !GetAtt V.Version}\n"
	if v := createdOutput(t, e, "one", body); v != "1" {
		t.Fatalf("the first version is %s", v)
	}
	if _, err := e.DriftResource(ctx(), DriftResourceInput{StackName: "one", LogicalResourceId: "Fn", Delete: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "one"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if v := createdOutput(t, e, "two", body); v != "1" {
		t.Errorf("the function deleted by hand and made again publishes version %s, want 1", v)
	}
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}

// createdOutput creates a stack of body, runs it to rest and returns its
// one output's value; the stack must end CREATE_COMPLETE.
func createdOutput(t *testing.T, e *Engine, stack, body string) string {
	t.Helper()
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: stack, TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		t.Fatal(err)
	}
	st := out.Stacks[0]
	if st.StackStatus != "CREATE_COMPLETE" || len(st.Outputs) != 1 {
		t.Fatalf("%s: %s %s", stack, st.StackStatus, st.StackStatusReason)
	}
	return st.Outputs[0].OutputValue
}
