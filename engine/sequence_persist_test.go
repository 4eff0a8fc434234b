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
	arn := func(e *Engine, stack string) string {
		t.Helper()
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
	e, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "one", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if got := arn(e, "one"); !strings.HasSuffix(got, ":task-definition/web:1") {
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
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "two", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if got := arn(e, "two"); !strings.HasSuffix(got, ":task-definition/web:2") {
		t.Errorf("after the first stack was deleted and the state reopened, the next revision is %s, want web:2", got)
	}
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}
