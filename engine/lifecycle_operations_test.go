package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// AWS's operations: every event carries the id of the operation that wrote
// it; CreateStack, UpdateStack and RollbackStack answer it; DescribeStacks
// and ListStacks show the last ones; DescribeEvents reads a stack's, an
// operation's or a change set's events.
func TestLifecycleOperations(t *testing.T) {
	h := newHarness(t, "operations", Options{PageSize: 4})
	ids := map[string]string{} // operation id -> short name in the log
	name := func(id string) string {
		if id == "" {
			return "-"
		}
		if n, ok := ids[id]; ok {
			return n
		}
		ids[id] = fmt.Sprintf("op%d", len(ids)+1)
		return ids[id]
	}
	last := func(stack string) []OperationEntry {
		t.Helper()
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, o := range out.Stacks[0].LastOperations {
			parts = append(parts, name(o.OperationId)+" "+o.OperationType)
		}
		h.note("   LastOperations of %s: [%s]", stack, strings.Join(parts, ", "))
		return out.Stacks[0].LastOperations
	}
	// events logs DescribeEvents' answer, every page, and checks that each
	// event is the stack event of the same id with the same operation.
	events := func(label string, in DescribeEventsInput) []OperationEvent {
		t.Helper()
		var all []OperationEvent
		for page := 0; ; page++ {
			out, err := h.e.DescribeEvents(ctx(), in)
			if err != nil {
				t.Fatalf("DescribeEvents %s: %v", label, err)
			}
			if len(out.OperationEvents) > 4 {
				t.Fatalf("a page of %d events, more than the page size", len(out.OperationEvents))
			}
			all = append(all, out.OperationEvents...)
			if in.NextToken = out.NextToken; in.NextToken == "" {
				break
			}
		}
		h.note("   DescribeEvents %s: %d events", label, len(all))
		for _, ev := range all {
			h.note("     %-4s %-17s %-11s %-18s %-6s %s", name(ev.OperationId), ev.OperationType, ev.OperationStatus, ev.EventType, ev.LogicalResourceId, ev.ResourceStatus)
		}
		return all
	}
	stackEvents := func(stack string) []StackEvent {
		t.Helper()
		var all []StackEvent
		in := DescribeStackEventsInput{StackName: stack}
		for {
			out, err := h.e.DescribeStackEvents(ctx(), in)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, out.StackEvents...)
			if in.NextToken = out.NextToken; in.NextToken == "" {
				return all
			}
		}
	}

	// A create, an update that fails and rolls back.
	var created *CreateStackOutput
	h.mustDo(func() error {
		return h.call("CreateStack app", func() error {
			var err error
			created, err = h.e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml")})
			return err
		})
	})
	h.wait("app")
	h.note("   CreateStack answered %s", name(created.OperationId))
	if l := last("app"); len(l) != 1 || l[0].OperationType != "CREATE_STACK" || l[0].OperationId != created.OperationId {
		t.Fatalf("after the create: %+v, CreateStack answered %s", l, created.OperationId)
	}
	var updated *UpdateStackOutput
	h.mustDo(func() error {
		return h.call("UpdateStack app (Hook fails)", func() error {
			var err error
			updated, err = h.e.UpdateStack(ctx(), UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"),
				Parameters: []Parameter{{ParameterKey: "Fail", ParameterValue: "true"}, {ParameterKey: "Value", ParameterValue: "two"}}})
			return err
		})
	})
	h.wait("app")
	h.note("   UpdateStack answered %s", name(updated.OperationId))
	l := last("app")
	if len(l) != 2 || l[0].OperationType != "ROLLBACK" || l[1].OperationType != "UPDATE_STACK" || l[1].OperationId != updated.OperationId {
		t.Fatalf("after the rolled back update: %+v", l)
	}
	rollback := l[0].OperationId

	// Every stack event carries its operation: the update's up to the
	// rollback's first event, the rollback's from there.
	seen := map[string]string{}
	for _, ev := range stackEvents("app") {
		if ev.OperationId == "" {
			t.Fatalf("event %s has no operation", ev.EventId)
		}
		if ev.IsStackEvent() {
			seen[ev.ResourceStatus] = ev.OperationId
		}
	}
	for status, want := range map[string]string{"CREATE_IN_PROGRESS": created.OperationId, "UPDATE_IN_PROGRESS": updated.OperationId,
		"UPDATE_ROLLBACK_IN_PROGRESS": rollback, "UPDATE_ROLLBACK_COMPLETE": rollback} {
		if seen[status] != want {
			t.Errorf("the stack's %s event is of operation %s, want %s", status, seen[status], want)
		}
	}
	all := events("app", DescribeEventsInput{StackName: "app"})
	if len(all) != len(stackEvents("app")) {
		t.Fatalf("DescribeEvents of the stack has %d events, DescribeStackEvents %d", len(all), len(stackEvents("app")))
	}
	byOp := events("of the update", DescribeEventsInput{OperationId: updated.OperationId})
	for _, ev := range byOp {
		if ev.OperationId != updated.OperationId || ev.OperationStatus != OperationFailed {
			t.Fatalf("an event of the update: %+v", ev)
		}
	}
	failed := events("of the update, failures only", DescribeEventsInput{StackName: "app", OperationId: updated.OperationId, Filters: &EventFilter{FailedEvents: ptr(true)}})
	if len(failed) != 1 || failed[0].LogicalResourceId != "Hook" || failed[0].EventType != EventTypeProvisioning {
		t.Fatalf("the failures of the update: %+v", failed)
	}
	for _, ev := range events("of the rollback", DescribeEventsInput{OperationId: rollback}) {
		if ev.OperationType != "ROLLBACK" || ev.OperationStatus != OperationSucceeded {
			t.Fatalf("an event of the rollback: %+v", ev)
		}
	}

	// A change set's creation of a stack is an operation; its execution
	// another.
	var cs *CreateChangeSetOutput
	h.must("CreateChangeSet web (CREATE)", func() error {
		var err error
		cs, err = h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "first", ChangeSetType: ChangeSetTypeCreate, TemplateBody: h.fixture("app.yaml")})
		return err
	})
	h.e.Run(ctx())
	if l := last("web"); len(l) != 1 || l[0].OperationType != "CREATE_CHANGESET" {
		t.Fatalf("a stack a change set made: %+v", l)
	}
	h.must("ExecuteChangeSet first", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: cs.Id})
		return err
	})
	h.wait("web")
	if l := last("web"); len(l) != 1 || l[0].OperationType != "CREATE_STACK" {
		t.Fatalf("a stack a change set created: %+v", l)
	}
	ofChangeSet := events("of change set first", DescribeEventsInput{ChangeSetName: cs.Id})
	if len(ofChangeSet) != len(stackEvents("web")) || ofChangeSet[len(ofChangeSet)-1].OperationType != "CREATE_CHANGESET" {
		t.Fatalf("the change set's events: %d of the stack's %d", len(ofChangeSet), len(stackEvents("web")))
	}

	// A create that fails with rollback disabled, then RollbackStack.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "db", TemplateBody: h.fixture("app.yaml"), DisableRollback: true,
			Parameters: []Parameter{{ParameterKey: "Fail", ParameterValue: "true"}}})
	})
	h.wait("db")
	last("db")
	var rolled *RollbackStackOutput
	h.must("RollbackStack db", func() error {
		var err error
		rolled, err = h.e.RollbackStack(ctx(), RollbackStackInput{StackName: "db"})
		return err
	})
	h.wait("db")
	h.note("   RollbackStack answered %s", name(rolled.OperationId))
	if l := last("db"); len(l) != 2 || l[0].OperationId != rolled.OperationId || l[0].OperationType != "ROLLBACK" || l[1].OperationType != "CREATE_STACK" {
		t.Fatalf("after RollbackStack: %+v", l)
	}
	for _, ev := range events("of db's create", DescribeEventsInput{OperationId: l0(last("db"), 1)}) {
		if ev.OperationStatus != OperationFailed {
			t.Fatalf("the failed create: %+v", ev)
		}
	}

	// The delete; the deleted stack by its ARN.
	out, _ := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"})
	arn := out.Stacks[0].StackId
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(arn)
	if l := last(arn); len(l) != 1 || l[0].OperationType != "DELETE_STACK" {
		t.Fatalf("a deleted stack: %+v", l)
	}
	listed, err := h.e.ListStacks(ctx(), ListStacksInput{StackStatusFilter: []string{"DELETE_COMPLETE"}})
	if err != nil || len(listed.StackSummaries) != 1 || len(listed.StackSummaries[0].LastOperations) != 1 || listed.StackSummaries[0].LastOperations[0].OperationType != "DELETE_STACK" {
		t.Fatalf("ListStacks of the deleted stack: %+v %v", listed, err)
	}
	events("of the deleted stack, failures only", DescribeEventsInput{StackName: arn, Filters: &EventFilter{FailedEvents: ptr(true)}})

	// Refused, nothing stored.
	before := state(t, h.e)
	for _, bad := range []struct {
		in   DescribeEventsInput
		want string
	}{
		{DescribeEventsInput{}, "One of ChangeSetName, OperationId or StackName must be specified."},
		{DescribeEventsInput{OperationId: "00000000-0000-0000-0000-000000000000"}, "Operation with id 00000000-0000-0000-0000-000000000000 does not exist"},
		{DescribeEventsInput{StackName: "web", OperationId: updated.OperationId}, "Operation with id " + updated.OperationId + " does not exist"},
		{DescribeEventsInput{StackName: "nope"}, "Stack [nope] does not exist"},
		{DescribeEventsInput{ChangeSetName: "first"}, "StackName must be specified if ChangeSetName is not specified as an ARN."},
		{DescribeEventsInput{StackName: "web", NextToken: "garbage"}, invalidToken().Message},
	} {
		_, err := h.e.DescribeEvents(ctx(), bad.in)
		wantAPIError(t, err, CodeValidationError, bad.want)
	}
	if after := state(t, h.e); string(before) != string(after) {
		t.Fatal("a refused DescribeEvents changed the stored state")
	}
	h.done()
}

func l0(l []OperationEntry, i int) string { return l[i].OperationId }

// The operation a stack status begins, given the stack's last one.
func TestOperationStartedBy(t *testing.T) {
	tag := func(typ string) store.OpTag {
		if typ == "" {
			return 0
		}
		t, _ := store.NewOpTag(3, typ)
		return t
	}
	for _, c := range []struct {
		status     statemachine.StackStatus
		last, want string
	}{
		{statemachine.StackStatusReviewInProgress, "", "CREATE_CHANGESET"},
		{statemachine.StackStatusCreateInProgress, "", "CREATE_STACK"},
		{statemachine.StackStatusCreateInProgress, "CREATE_CHANGESET", "CREATE_STACK"},
		{statemachine.StackStatusUpdateInProgress, "CREATE_STACK", "UPDATE_STACK"},
		{statemachine.StackStatusDeleteInProgress, "ROLLBACK", "DELETE_STACK"},
		{statemachine.StackStatusImportInProgress, "CREATE_CHANGESET", "CREATE_STACK"},
		{statemachine.StackStatusImportInProgress, "UPDATE_STACK", "UPDATE_STACK"},
		{statemachine.StackStatusRollbackInProgress, "CREATE_STACK", "ROLLBACK"},
		{statemachine.StackStatusUpdateRollbackInProgress, "UPDATE_STACK", "ROLLBACK"},
		{statemachine.StackStatusImportRollbackInProgress, "UPDATE_STACK", "ROLLBACK"},
		{statemachine.StackStatusUpdateRollbackInProgress, "ROLLBACK", "CONTINUE_ROLLBACK"},
		{statemachine.StackStatusUpdateRollbackInProgress, "CONTINUE_ROLLBACK", "CONTINUE_ROLLBACK"},
		{statemachine.StackStatusUpdateCompleteCleanupInProgress, "UPDATE_STACK", ""},
		{statemachine.StackStatusUpdateRollbackCompleteCleanupInProgress, "ROLLBACK", ""},
		{statemachine.StackStatusCreateComplete, "CREATE_STACK", ""},
		{statemachine.StackStatusUpdateRollbackFailed, "ROLLBACK", ""},
	} {
		if got := operationStartedBy(c.status, tag(c.last)); got != c.want {
			t.Errorf("%s after %q: %q, want %q", c.status, c.last, got, c.want)
		}
	}
}

// An operation's status from the last status its stack events reached.
func TestOperationStatus(t *testing.T) {
	for _, c := range []struct {
		typ, last string
		followed  bool
		want      string
	}{
		{"CREATE_STACK", "CREATE_IN_PROGRESS", false, OperationInProgress},
		{"CREATE_STACK", "CREATE_IN_PROGRESS", true, OperationFailed},
		{"CREATE_STACK", "CREATE_COMPLETE", true, OperationSucceeded},
		{"CREATE_STACK", "CREATE_FAILED", false, OperationFailed},
		{"UPDATE_STACK", "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", false, OperationInProgress},
		{"UPDATE_STACK", "UPDATE_COMPLETE", false, OperationSucceeded},
		{"ROLLBACK", "ROLLBACK_COMPLETE", true, OperationSucceeded},
		{"ROLLBACK", "UPDATE_ROLLBACK_FAILED", false, OperationFailed},
		{"CONTINUE_ROLLBACK", "UPDATE_ROLLBACK_COMPLETE", false, OperationSucceeded},
		{"DELETE_STACK", "DELETE_FAILED", false, OperationFailed},
		{"DELETE_STACK", "DELETE_COMPLETE", false, OperationSucceeded},
		{"CREATE_CHANGESET", "REVIEW_IN_PROGRESS", true, OperationSucceeded},
	} {
		if got := operationStatus(c.typ, c.last, c.followed); got != c.want {
			t.Errorf("%s ending %s (followed %v): %s, want %s", c.typ, c.last, c.followed, got, c.want)
		}
	}
}

// A tag reads back as a state file writes it; other text is refused.
func TestOpTagText(t *testing.T) {
	tag, ok := store.NewOpTag(12, "CONTINUE_ROLLBACK")
	if !ok || tag.String() != "12 CONTINUE_ROLLBACK" || tag.Number() != 12 || tag.Type() != "CONTINUE_ROLLBACK" {
		t.Fatalf("%v %q", ok, tag)
	}
	if back, err := store.ParseOpTag(tag.String()); err != nil || back != tag {
		t.Fatalf("%v %v", back, err)
	}
	if back, err := store.ParseOpTag(""); err != nil || back != 0 {
		t.Fatalf("empty: %v %v", back, err)
	}
	for _, bad := range []string{"12", "x CREATE_STACK", "0 CREATE_STACK", "3 IMPORT", "-1 ROLLBACK", "3  ROLLBACK"} {
		if _, err := store.ParseOpTag(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	if _, ok := store.NewOpTag(1, "NOPE"); ok {
		t.Error("an unknown type made a tag")
	}
}

func ptr[T any](v T) *T { return &v }
