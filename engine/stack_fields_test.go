package engine

import (
	"testing"
)

// The fields DescribeStacks derives from a stack's history, as AWS shows
// them (stack_fields.go): LastUpdatedTime on a stack created through a
// change set and not on one made by CreateStack; DeletionTime from a
// create rollback or a deletion on; ChangeSetId gone after them;
// EnableTerminationProtection absent once DELETE_COMPLETE.
func TestDescribeStackHistoryFields(t *testing.T) {
	h := newHarness(t, "describe-history-fields", Options{})
	e := h.e
	ok := "Resources:\n  C:\n    Type: Custom::Echo\n    Properties:\n      ServiceToken: echo\n"
	bad := "Resources:\n  C:\n    Type: Custom::Echo\n    Properties:\n      ServiceToken: echo\n      Fail: 'true'\n"
	describe := func(name string) Stack {
		t.Helper()
		out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: name})
		if err != nil {
			t.Fatal(err)
		}
		return out.Stacks[0]
	}
	viaChangeSet := func(name, body string) Stack {
		t.Helper()
		cs, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: name, ChangeSetName: "cs1", ChangeSetType: ChangeSetTypeCreate, TemplateBody: body})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		if _, err := e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: cs.Id}); err != nil {
			t.Fatal(err)
		}
		h.wait(name)
		return describe(cs.StackId)
	}

	made := viaChangeSet("made", ok)
	if made.StackStatus != "CREATE_COMPLETE" || made.LastUpdatedTime == nil || made.ChangeSetId == "" || made.DeletionTime != nil {
		t.Errorf("created by a change set: status %s LastUpdatedTime %v ChangeSetId %q DeletionTime %v; want CREATE_COMPLETE, a time, the change set, none",
			made.StackStatus, made.LastUpdatedTime, made.ChangeSetId, made.DeletionTime)
	}
	if p := made.EnableTerminationProtection; p == nil || *p {
		t.Errorf("EnableTerminationProtection = %v, want false", p)
	}

	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "direct", TemplateBody: ok}); err != nil {
		t.Fatal(err)
	}
	h.wait("direct")
	if d := describe("direct"); d.LastUpdatedTime != nil || d.ChangeSetId != "" {
		t.Errorf("created by CreateStack: LastUpdatedTime %v ChangeSetId %q, want neither", d.LastUpdatedTime, d.ChangeSetId)
	}

	failed := viaChangeSet("failed", bad)
	if failed.StackStatus != "ROLLBACK_COMPLETE" || failed.DeletionTime == nil || failed.ChangeSetId != "" {
		t.Errorf("create rolled back: status %s DeletionTime %v ChangeSetId %q; want ROLLBACK_COMPLETE, a time, none",
			failed.StackStatus, failed.DeletionTime, failed.ChangeSetId)
	}

	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "made"}); err != nil {
		t.Fatal(err)
	}
	h.wait(made.StackId)
	gone := describe(made.StackId)
	if gone.StackStatus != "DELETE_COMPLETE" || gone.DeletionTime == nil || gone.ChangeSetId != "" || gone.EnableTerminationProtection != nil {
		t.Errorf("deleted: status %s DeletionTime %v ChangeSetId %q EnableTerminationProtection %v; want DELETE_COMPLETE, a time, none, absent",
			gone.StackStatus, gone.DeletionTime, gone.ChangeSetId, gone.EnableTerminationProtection)
	}
	if gone.DeletionTime.Before(*made.LastUpdatedTime) {
		t.Errorf("DeletionTime %v is before the creation's %v", gone.DeletionTime, made.LastUpdatedTime)
	}
}
