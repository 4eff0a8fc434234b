package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
)

// A nested stack still rolling back by itself (its parent's update failed
// with rollback disabled, cancelling the child's update) when its
// parent's next update runs: the child's cleanup, once its rollback ends,
// waited to be released by its parent, as a child of the parent's current
// operation does. If the parent's cleanup had begun already (the next
// update denied by the stack policy, so rolled back at once), neither
// ever ran again: the parent stuck in
// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS (found by the random
// worlds, a call made as soon as the parent is at rest: seeds 9785,
// 16155, 29054). If the update was to update the child, it found it held
// in its cleanup and failed ("is in
// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS state and can not be
// updated"). A parent at rest, or whose cleanup begins, lets go of the
// children it does not wait for.
func TestNestedCleanupAfterParentMovedOn(t *testing.T) {
	const policy = `{"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"},
		{"Effect": "Deny", "Action": "Update:*", "Principal": "*", "Resource": "LogicalResourceId/B"}]}`
	const allowAll = `{"Statement": [{"Effect": "Allow", "Action": "Update:*", "Principal": "*", "Resource": "*"}]}`
	for _, tt := range []struct {
		name string
		next UpdateStackInput // the update made while the child rolls back
		want string
	}{
		{"denied, rolled back at once", UpdateStackInput{}, "UPDATE_ROLLBACK_COMPLETE"},
		{"updating the child again", UpdateStackInput{StackPolicyDuringUpdateBody: allowAll}, "UPDATE_COMPLETE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e, body := lateChildEngine(t)
			wait := func(want string) {
				t.Helper()
				if _, err := e.Run(ctx()); err != nil {
					t.Fatal(err)
				}
				st, err := e.WaitForStack(ctx(), "p")
				if err != nil {
					t.Fatal(err)
				}
				if st.StackStatus != want {
					t.Fatalf("p is %s %q, want %s", st.StackStatus, st.StackStatusReason, want)
				}
				if err := e.CheckInvariants(ctx()); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "p", TemplateBody: body("a1", "1"), StackPolicyBody: policy}); err != nil {
				t.Fatal(err)
			}
			wait("CREATE_COMPLETE")
			// A fails once B is updated, cancelling N's update (C slow
			// to update, slower to roll back); rollback disabled: p is
			// UPDATE_FAILED while N still rolls back.
			up := UpdateStackInput{StackName: "p", TemplateBody: body("a2", "2"), DisableRollback: true, StackPolicyDuringUpdateBody: allowAll}
			up.Faults = []faults.Fault{
				{Match: faults.Match{LogicalID: "A"}, Kind: faults.Fail, Code: resources.ErrGeneralServiceException, Message: "boom", Times: 1},
				{Match: faults.Match{LogicalID: "C", Phases: []resources.Phase{resources.PhaseForward}}, Kind: faults.Stall, Callbacks: 2, DelaySeconds: 30, Times: 1},
				{Match: faults.Match{LogicalID: "C", Phases: []resources.Phase{resources.PhaseRollback}}, Kind: faults.Stall, Callbacks: 2, DelaySeconds: 60, Times: 1},
			}
			if _, err := e.UpdateStack(ctx(), up); err != nil {
				t.Fatal(err)
			}
			st, err := e.WaitForStack(ctx(), "p")
			if err != nil || st.StackStatus != "UPDATE_FAILED" {
				t.Fatalf("p is %v (%v), want UPDATE_FAILED", st, err)
			}
			child := lateChild(t, e)
			if child.StackStatus != "UPDATE_ROLLBACK_IN_PROGRESS" {
				t.Fatalf("N's stack is %s, want it still UPDATE_ROLLBACK_IN_PROGRESS", child.StackStatus)
			}
			next := tt.next
			next.StackName, next.TemplateBody = "p", body("a3", "2")
			if _, err := e.UpdateStack(ctx(), next); err != nil {
				t.Fatal(err)
			}
			wait(tt.want)
			if got := lateChild(t, e).StackStatus; !strings.HasSuffix(got, "_COMPLETE") {
				t.Fatalf("N's stack is %s", got)
			}
		})
	}
}

// lateChildEngine makes an engine with the child templates in its S3
// directory, and the parent's template: B, A after B, and N.
func lateChildEngine(t *testing.T) (*Engine, func(a, child string) string) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "children"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1", "2"} {
		child := `{"Resources": {"C": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": "c` + v + `"}}}}`
		if err := os.WriteFile(filepath.Join(dir, "children", "child"+v+".json"), []byte(child), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	body := func(a, child string) string {
		return `{"Resources": {"B": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": "` + a + `"}},
			"A": {"Type": "AWS::SNS::Topic", "DependsOn": "B", "Properties": {"DisplayName": "` + a + `"}},
			"N": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://children.s3.amazonaws.com/child` + child + `.json"}}}}`
	}
	return newTestEngine(t, Options{S3Dir: dir}), body
}

func lateChild(t *testing.T, e *Engine) Stack {
	t.Helper()
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range out.Stacks {
		if st.ParentId != "" {
			return st
		}
	}
	t.Fatal("no nested stack")
	return Stack{}
}
