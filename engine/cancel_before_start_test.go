package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An operation stopped before its first task ran starts nothing: the
// stop's Stopping was reset when the phase began, so the resources were
// created or updated after all (and the update, its Cancelled flag kept,
// rolled them back after). Found by the random worlds (seeds 15 and 19).

// stopEvents makes the call, runs the engine to rest, checks the
// invariants and returns the events since the call, "STACK LOGICALID
// STATUS".
func stopEvents(t *testing.T, e *Engine, call func()) []string {
	t.Helper()
	var evs []string
	unsubscribe := e.Subscribe(func(ev StackEvent) {
		evs = append(evs, ev.StackName+" "+ev.LogicalResourceId+" "+ev.ResourceStatus)
	})
	defer unsubscribe()
	call()
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
	return evs
}

// CancelUpdateStack right after UpdateStack, before the update's first
// task: the update rolls back having updated nothing ("Stack update
// cancelled"; nothing was in flight, so nothing is "Resource update
// cancelled").
func TestCancelUpdateBeforeFirstTask(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := func(name string) string {
		return `{"Resources": {"A": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": "` + name + `"}}}}`
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "s", TemplateBody: body("a")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	evs := stopEvents(t, e, func() {
		if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "s", TemplateBody: body("b")}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: "s"}); err != nil {
			t.Fatal(err)
		}
	})
	want := []string{"s s UPDATE_IN_PROGRESS", "s s UPDATE_ROLLBACK_IN_PROGRESS", "s s UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "s s UPDATE_ROLLBACK_COMPLETE"}
	if strings.Join(evs, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(evs, "\n"), strings.Join(want, "\n"))
	}
	res, err := e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "s", LogicalResourceId: "A"})
	if err != nil {
		t.Fatal(err)
	}
	if res.StackResourceDetail.ResourceStatus != "CREATE_COMPLETE" {
		t.Fatalf("A is %s, want CREATE_COMPLETE (never updated)", res.StackResourceDetail.ResourceStatus)
	}
}

// A nested stack whose create its parent's update began, cancelled
// (CancelUpdateStack of the parent) before the child's first task: the
// child creates nothing and rolls back, as a child cancelled later does.
func TestNestedCreateCancelledBeforeFirstTask(t *testing.T) {
	dir := t.TempDir()
	child := `{"Resources": {"C": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": "c"}}}}`
	if err := os.MkdirAll(filepath.Join(dir, "children"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "children", "child.json"), []byte(child), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEngine(t, Options{S3Dir: dir})
	const topic = `"A": {"Type": "AWS::SNS::Topic", "Properties": {"DisplayName": "a"}}`
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "p", TemplateBody: `{"Resources": {` + topic + `}}`}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	evs := stopEvents(t, e, func() {
		up := UpdateStackInput{StackName: "p", TemplateBody: `{"Resources": {` + topic + `,
			"N": {"Type": "AWS::CloudFormation::Stack", "Properties": {"TemplateURL": "https://children.s3.amazonaws.com/child.json"}}}}`}
		if _, err := e.UpdateStack(ctx(), up); err != nil {
			t.Fatal(err)
		}
		res, err := e.RunUntil(ctx(), func(ev StackEvent) bool {
			return ev.IsStackEvent() && strings.HasPrefix(ev.StackName, "p-N-") && ev.ResourceStatus == "CREATE_IN_PROGRESS"
		})
		if err != nil || res.Match == nil {
			t.Fatalf("the child's create did not begin: %v %+v", err, res)
		}
		if _, err := e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: "p"}); err != nil {
			t.Fatal(err)
		}
	})
	var childEvents []string
	for _, ev := range evs {
		if strings.HasPrefix(ev, "p-N-") {
			childEvents = append(childEvents, ev[strings.Index(ev, " ")+1:])
		}
	}
	got := strings.Join(childEvents, "\n")
	if !strings.Contains(got, "ROLLBACK_COMPLETE") || strings.HasPrefix(got, "C ") || strings.Contains(got, "\nC ") {
		t.Fatalf("the child's events:\n%s\nwant its create stopped before C began, and rolled back", got)
	}
	st, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Stacks[0].StackStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("the parent is %s, want UPDATE_ROLLBACK_COMPLETE", st.Stacks[0].StackStatus)
	}
}
