package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/faults"
)

// A custom resource whose Create got no answer has no physical id; the
// create's rollback still sends it a Delete (AWS sends one after a failed
// Create), which may fail too: ROLLBACK_FAILED. DeleteStack then sends
// the Delete again and, when it fails, RetainResources retains it
// (BEHAVIOUR.md §4 B). The delete used to forget it, as a resource never
// created: no event, the stack DELETE_FAILED for other resources or even
// DELETE_COMPLETE with it DELETE_FAILED, and a RetainResources naming it
// did nothing (found by the random worlds, seed 311).
func TestDeleteRetriesUnansweredCustomResource(t *testing.T) {
	target := resources.CustomFunc(func(_ context.Context, req *resources.CustomRequest) (*resources.CustomResponse, error) {
		return &resources.CustomResponse{Status: "SUCCESS", PhysicalResourceID: "thing"}, nil
	})
	e := newTestEngine(t, Options{ServiceTokens: map[string]resources.CustomTarget{"thing": target}})
	var evs []string
	e.Subscribe(func(ev StackEvent) {
		if !ev.IsStackEvent() {
			evs = append(evs, ev.LogicalResourceId+" "+ev.ResourceStatus)
		} else {
			evs = append(evs, ev.ResourceStatus)
		}
	})
	silent := []faults.Fault{{Match: faults.Match{LogicalID: "R"}, Kind: faults.NoResponse, Times: faults.Always}}
	in := CreateStackInput{StackName: "s", TemplateBody: `{"Resources": {"R": {"Type": "Custom::Thing", "Properties": {"ServiceToken": "thing"}}}}`}
	in.Faults = silent
	created, err := e.CreateStack(ctx(), in)
	if err != nil {
		t.Fatal(err)
	}
	id := created.StackId
	run := func(want string) {
		t.Helper()
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		if err := e.CheckInvariants(ctx()); err != nil {
			t.Fatal(err)
		}
		out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: id})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Stacks[0].StackStatus + " " + out.Stacks[0].StackStatusReason; strings.TrimSpace(got) != want {
			t.Fatalf("the stack is %q, want %q; events:\n%s", got, want, strings.Join(evs, "\n"))
		}
	}
	run("ROLLBACK_FAILED The following resource(s) failed to delete: [R].")
	evs = nil
	del := DeleteStackInput{StackName: id}
	del.Faults = silent
	if _, err := e.DeleteStack(ctx(), del); err != nil {
		t.Fatal(err)
	}
	run("DELETE_FAILED The following resource(s) failed to delete: [R].")
	if got, want := strings.Join(evs, ", "), "DELETE_IN_PROGRESS, R DELETE_IN_PROGRESS, R DELETE_FAILED, DELETE_FAILED"; got != want {
		t.Fatalf("the delete's events: %s, want %s", got, want)
	}
	evs = nil
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: id, RetainResources: []string{"R"}}); err != nil {
		t.Fatal(err)
	}
	run("DELETE_COMPLETE")
	if got, want := strings.Join(evs, ", "), "DELETE_IN_PROGRESS, R DELETE_SKIPPED, DELETE_COMPLETE"; got != want {
		t.Fatalf("the delete's events: %s, want %s", got, want)
	}
}
