package engine

import (
	"path/filepath"
	"strings"
	"testing"
)

// Nested stacks (engine/nested.go): three levels, from S3 URLs read in
// Options.S3Dir.

func nestedHarness(t *testing.T, name string) *harness {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "nested"))
	h := newHarness(t, name, Options{S3Dir: filepath.Join(dir, "s3")})
	h.dir = "nested"
	return h
}

func TestLifecycleNestedCreateDelete(t *testing.T) {
	h := nestedHarness(t, "nested-create-delete")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml"), Tags: []Tag{{Key: "team", Value: "core"}}})
	})
	st := h.wait("root")
	h.note("   outputs %v", st.Outputs)
	h.resources("root")
	h.describeChildren()
	h.objects()
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "root"}) })
	h.wait(st.StackId)
	h.objects()
	h.done()
}

// describeChildren notes what DescribeStacks says of every nested stack.
func (h *harness) describeChildren() {
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, s := range out.Stacks {
		if s.ParentId == "" {
			continue
		}
		timeout := 0
		if s.TimeoutInMinutes != nil {
			timeout = *s.TimeoutInMinutes
		}
		h.note("   stack %s %s parent=%s root=%s timeout=%d tags=%v params=%v outputs=%v", s.StackName, s.StackStatus,
			shortARN(s.ParentId), shortARN(s.RootId), timeout, s.Tags, s.Parameters, s.Outputs)
	}
}

// shortARN is the name part of a stack ARN.
func shortARN(arn string) string {
	parts := strings.Split(arn, "/")
	if len(parts) == 3 {
		return parts[1]
	}
	return arn
}

// A resource of the grandchild fails: the grandchild rolls back, its
// parent's resource fails with AWS's "Embedded stack ... was not
// successfully created" and so on up; each parent's rollback deletes the
// child once the child's own rollback has ended.
func TestLifecycleNestedCreateFails(t *testing.T) {
	h := nestedHarness(t, "nested-create-fails")
	in := CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")}
	in.Faults = h.faults("leaf-fails.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("root")
	h.describeChildren()
	h.objects()
	h.done()
}

// Two children side by side; one fails while the other's create is in
// flight: the other's resource is "Resource creation cancelled" and its
// child stops and rolls back, then the parent's rollback deletes both.
func TestLifecycleNestedCreateCancelled(t *testing.T) {
	h := nestedHarness(t, "nested-create-cancelled")
	in := CreateStackInput{StackName: "root", TemplateBody: h.fixture("siblings.yaml")}
	in.Faults = h.faults("network-slow-app-fails.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("root")
	h.describeChildren()
	h.objects()
	h.done()
}

// An update that changes a parameter the children read: Network and App
// are updated (their children's cleanups run in the root's cleanup), Leaf,
// where nothing changes, is not.
func TestLifecycleNestedUpdate(t *testing.T) {
	h := nestedHarness(t, "nested-update")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "root", UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "prod"}}})
	})
	st := h.wait("root")
	h.note("   outputs %v", st.Outputs)
	h.describeChildren()
	h.objects()
	h.done()
}

// App's update fails in its child: the child rolls back by itself, the
// root's App resource fails with AWS's "Embedded stack ... was not
// successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS ...", and
// the root's rollback rolls back Network, whose update had succeeded and
// whose cleanup waited (UPDATE_COMPLETE_CLEANUP_IN_PROGRESS →
// UPDATE_ROLLBACK_IN_PROGRESS); the children's rollback cleanups run in the
// root's.
func TestLifecycleNestedUpdateFailureRollback(t *testing.T) {
	h := nestedHarness(t, "nested-update-failure-rollback")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	in := UpdateStackInput{StackName: "root", UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "prod"}}}
	in.Faults = h.faults("topic-update-fails.yaml")
	h.mustDo(func() error { return h.updateStack(in) })
	st := h.wait("root")
	h.note("   outputs %v", st.Outputs)
	h.describeChildren()
	h.objects()
	h.done()
}

// The child's rollback fails too: the root ends UPDATE_ROLLBACK_FAILED;
// ContinueUpdateRollback names the child's resource as App.Topic in
// ResourcesToSkip, and the root and its child complete their rollback.
func TestLifecycleNestedRollbackFailedContinue(t *testing.T) {
	h := nestedHarness(t, "nested-update-rollback-failed-continue")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	in := UpdateStackInput{StackName: "root", UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "prod"}}}
	in.Faults = h.faults("topic-update-and-rollback-fail.yaml")
	h.mustDo(func() error { return h.updateStack(in) })
	h.wait("root")
	h.describeChildren()
	// Only resources whose rollback failed may be skipped.
	_ = h.continueRollback(ContinueUpdateRollbackInput{StackName: "root", ResourcesToSkip: []string{"App.Leaf"}})
	_ = h.continueRollback(ContinueUpdateRollbackInput{StackName: "root", ResourcesToSkip: []string{"Network.Queue"}})
	h.mustDo(func() error {
		return h.continueRollback(ContinueUpdateRollbackInput{StackName: "root", ResourcesToSkip: []string{"App.Topic"}})
	})
	h.wait("root")
	h.describeChildren()
	h.objects()
	h.done()
}

func (h *harness) continueRollback(in ContinueUpdateRollbackInput) error {
	label := "ContinueUpdateRollback " + in.StackName
	if len(in.ResourcesToSkip) > 0 {
		label += " ResourcesToSkip=" + bracketed(in.ResourcesToSkip)
	}
	return h.call(label, func() error {
		_, err := h.e.ContinueUpdateRollback(ctx(), in)
		return err
	})
}

// A change set with IncludeNestedStacks: a change set of its own for each
// nested stack that changes (Network; App's parameters read an output of
// Network that the update may change, so App is updated from its
// template when the change set runs),
// with ParentChangeSetId and RootChangeSetId; only the root's can be
// executed, and executing it runs the nested ones.
func TestLifecycleNestedChangeSet(t *testing.T) {
	h := nestedHarness(t, "nested-change-set")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	var rootCS string
	h.mustDo(func() error {
		return h.call("CreateChangeSet root/prod (IncludeNestedStacks)", func() error {
			out, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "root", ChangeSetName: "prod", UsePreviousTemplate: true,
				IncludeNestedStacks: true, Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "prod"}}})
			if out != nil {
				rootCS = out.Id
			}
			return err
		})
	})
	var nested []string
	var describe func(id, indent string)
	describe = func(id, indent string) {
		out, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: id})
		if err != nil {
			t.Fatal(err)
		}
		h.note("%s change set %s of %s: %s %s nested=%v parent=%s root=%s", indent, out.ChangeSetName, out.StackName, out.Status, out.ExecutionStatus,
			out.IncludeNestedStacks, changeSetName(out.ParentChangeSetId), changeSetName(out.RootChangeSetId))
		for _, ch := range out.Changes {
			rc := ch.ResourceChange
			h.note("%s   %s %s %s replacement=%s changeSet=%s", indent, rc.Action, rc.LogicalResourceID, rc.ResourceType, rc.Replacement, changeSetName(rc.ChangeSetID))
			if rc.ChangeSetID != "" {
				nested = append(nested, rc.ChangeSetID)
				describe(rc.ChangeSetID, indent+"  ")
			}
		}
	}
	describe(rootCS, "  ")
	if len(nested) != 1 {
		t.Fatalf("%d nested change sets, want 1 (Network)", len(nested))
	}
	_ = h.call("ExecuteChangeSet (a nested one)", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: nested[0]})
		return err
	})
	h.mustDo(func() error {
		return h.call("ExecuteChangeSet root/prod", func() error {
			_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{ChangeSetName: rootCS})
			return err
		})
	})
	h.wait("root")
	for _, id := range append([]string{rootCS}, nested...) {
		out, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: id})
		if err != nil {
			t.Fatal(err)
		}
		h.note("   change set %s: %s", out.ChangeSetName, out.ExecutionStatus)
	}
	h.describeChildren()

	// Three levels: new stack tags reach every nested stack (a tag is
	// propagated), the grandchild's change set is its parent's change's.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "sib", TemplateBody: h.fixture("siblings.yaml")})
	})
	h.wait("sib")
	h.mustDo(func() error {
		return h.call("CreateChangeSet sib/tagged (IncludeNestedStacks)", func() error {
			out, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "sib", ChangeSetName: "tagged", UsePreviousTemplate: true,
				IncludeNestedStacks: true, Tags: []Tag{{Key: "cost-center", Value: "42"}}})
			if out != nil {
				rootCS = out.Id
			}
			return err
		})
	})
	nested = nil
	describe(rootCS, "  ")
	if len(nested) != 3 {
		t.Fatalf("%d nested change sets, want 3 (Network, App, App's Leaf)", len(nested))
	}
	h.mustDo(func() error {
		return h.call("DeleteChangeSet sib/tagged", func() error {
			_, err := h.e.DeleteChangeSet(ctx(), DeleteChangeSetInput{ChangeSetName: rootCS})
			return err
		})
	})
	for _, id := range nested {
		if _, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: id}); err == nil {
			t.Errorf("nested change set %s outlived its root's deletion", id)
		}
	}
	h.done()
}

// changeSetName is the name part of a change set ARN.
func changeSetName(arn string) string {
	if arn == "" {
		return "-"
	}
	return shortARN(arn)
}

// Operations on a nested stack itself: AWS allows them ("We strongly
// recommend that updates to nested stacks are run from the parent stack":
// AWS::CloudFormation::Stack's documentation). A child deleted directly
// fails its parent's next update of it; the parent is deleted still.
func TestLifecycleNestedDirectOperations(t *testing.T) {
	h := nestedHarness(t, "nested-direct-operations")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("siblings.yaml")})
	})
	h.wait("root")
	res, err := h.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "root", LogicalResourceId: "Network"})
	if err != nil {
		t.Fatal(err)
	}
	child := res.StackResourceDetail.PhysicalResourceId
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: child, UsePreviousTemplate: true, Parameters: []Parameter{{ParameterKey: "Env", ParameterValue: "direct"}}})
	})
	h.wait(child)
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: child}) })
	h.wait(child)
	_ = h.updateStack(UpdateStackInput{StackName: "root", TemplateBody: strings.ReplaceAll(h.fixture("siblings.yaml"), "staging", "later")})
	h.wait("root")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "root"}) })
	h.wait(h.stackID("root"))
	h.objects()
	h.done()
}

// A child's delete fails: the parent's resource is DELETE_FAILED with the
// child's reason and the parent DELETE_FAILED; deleting the parent again
// retaining the nested stack's resource leaves the child in the account.
func TestLifecycleNestedDeleteFails(t *testing.T) {
	h := nestedHarness(t, "nested-delete-fails")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("siblings.yaml")})
	})
	h.wait("root")
	in := DeleteStackInput{StackName: "root"}
	in.Faults = h.faults("queue-delete-fails.yaml")
	h.mustDo(func() error { return h.deleteStack(in) })
	h.wait("root")
	h.mustDo(func() error {
		return h.deleteStack(DeleteStackInput{StackName: "root", RetainResources: []string{"Network"}})
	})
	h.wait(h.stackID("root"))
	h.describeChildren()
	h.objects()
	h.done()
}

// DisableRollback reaches the children: the grandchild whose resource
// fails stops in CREATE_FAILED, and so does each parent up to the root;
// RollbackStack of the root deletes them all.
func TestLifecycleNestedCreateDisableRollback(t *testing.T) {
	h := nestedHarness(t, "nested-create-disable-rollback")
	in := CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml"), DisableRollback: true}
	in.Faults = h.faults("leaf-fails.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("root")
	h.describeChildren()
	h.mustDo(func() error {
		return h.call("RollbackStack root", func() error {
			_, err := h.e.RollbackStack(ctx(), RollbackStackInput{StackName: "root"})
			return err
		})
	})
	h.wait("root")
	h.describeChildren()
	h.objects()
	h.done()
}

// TestNestedNoChangeRefused: an update of a root that changes nothing in
// it nor in any of its nested stacks is refused as AWS refuses any update
// that changes nothing ("No updates are to be performed."), and changes
// nothing. (TestLifecycleNestedUpdate pins that a change inside a child
// is still an update.)
func TestNestedNoChangeRefused(t *testing.T) {
	h := nestedHarness(t, "nested-no-change")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	st := h.wait("root")
	before, err := h.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "root"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.e.UpdateStack(ctx(), UpdateStackInput{StackName: "root", UsePreviousTemplate: true})
	wantAPIError(t, err, CodeValidationError, "No updates are to be performed.")
	after, _ := h.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "root"})
	if len(after.StackEvents) != len(before.StackEvents) {
		t.Fatalf("a refused update wrote %d events", len(after.StackEvents)-len(before.StackEvents))
	}
	if d, _ := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: st.StackId}); d.Stacks[0].StackStatus != "CREATE_COMPLETE" {
		t.Fatalf("root is %s after a refused update", d.Stacks[0].StackStatus)
	}
}

// TestNestedNoChangeChangeSet: a change set of a root whose nested stacks
// change nothing is FAILED with AWS's "didn't contain changes" reason (so
// that aws cloudformation deploy says "No changes to deploy").
func TestNestedNoChangeChangeSet(t *testing.T) {
	h := nestedHarness(t, "nested-no-change-cs")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	for _, nested := range []bool{false, true} {
		name := "same"
		if nested {
			name = "same-nested"
		}
		if _, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "root", ChangeSetName: name, UsePreviousTemplate: true, IncludeNestedStacks: nested}); err != nil {
			t.Fatal(err)
		}
		d, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "root", ChangeSetName: name})
		if err != nil {
			t.Fatal(err)
		}
		if d.Status != ChangeSetStatusFailed || d.StatusReason != noChangesReason || len(d.Changes) != 0 {
			t.Fatalf("IncludeNestedStacks %v: %s %q with %d changes, want FAILED %q and none", nested, d.Status, d.StatusReason, len(d.Changes), noChangesReason)
		}
	}
}

// TestNestedTerminationProtection: nested stacks have their root's
// termination protection: set on the root it passes to them, a protected
// nested stack cannot be deleted directly, and it cannot be changed on a
// nested stack (User Guide, using-cfn-protect-stacks).
func TestNestedTerminationProtection(t *testing.T) {
	h := nestedHarness(t, "nested-termination-protection")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml"), EnableTerminationProtection: true})
	})
	root := h.wait("root")
	protection := func() map[string]bool {
		t.Helper()
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{})
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, s := range out.Stacks {
			if s.EnableTerminationProtection == nil {
				t.Fatalf("%s has no EnableTerminationProtection", s.StackName)
			}
			m[s.StackName] = *s.EnableTerminationProtection
		}
		return m
	}
	all := protection()
	if len(all) < 3 {
		t.Fatalf("want the root and its nested stacks, got %v", all)
	}
	var child string
	for name, on := range all {
		if !on {
			t.Fatalf("%s is not protected: %v", name, all)
		}
		if name != "root" && child == "" {
			child = name
		}
	}
	_, err := h.e.DeleteStack(ctx(), DeleteStackInput{StackName: child})
	wantAPIError(t, err, CodeValidationError, "Stack ["+child+"] cannot be deleted while TerminationProtection is enabled")
	off := false
	_, err = h.e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: child, EnableTerminationProtection: &off})
	if !IsCode(err, CodeValidationError) || !strings.Contains(err.Error(), "its root's") {
		t.Fatalf("UpdateTerminationProtection on a nested stack: %v", err)
	}
	if _, err := h.e.UpdateTerminationProtection(ctx(), UpdateTerminationProtectionInput{StackName: "root", EnableTerminationProtection: &off}); err != nil {
		t.Fatal(err)
	}
	for name, on := range protection() {
		if on {
			t.Fatalf("%s still protected after the root's was turned off", name)
		}
	}
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "root"}) })
	h.wait(root.StackId)
}
