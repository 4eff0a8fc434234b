package engine

import (
	"path/filepath"
	"testing"
)

// The account's quota of stacks (Options.StackLimit): a stack past it is
// refused, by CreateStack and by a CREATE change set, with nothing stored;
// a nested stack past it fails its resource, and the parent rolls back; a
// deleted stack frees its place. DescribeAccountLimits reports the quota.
func TestLifecycleStackLimit(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "nested"))
	h := newHarness(t, "stack-limit", Options{S3Dir: filepath.Join(dir, "s3"), StackLimit: 4})
	h.dir = "nested"
	limits, err := h.e.DescribeAccountLimits(ctx(), DescribeAccountLimitsInput{})
	if err != nil {
		t.Fatal(err)
	}
	h.note("   DescribeAccountLimits %v", limits.AccountLimits)
	leaf := "Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n"
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "other", TemplateBody: leaf}) })
	h.wait("other")
	// root, Network, App: 4 stacks with other; App's own child is the
	// fifth, refused: App fails, and root rolls back (its children
	// deleted, root ROLLBACK_COMPLETE: 2 stacks held).
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "root", TemplateBody: h.fixture("parent.yaml")})
	})
	h.wait("root")
	for _, n := range []string{"more", "b"} {
		h.mustDo(func() error { return h.create(CreateStackInput{StackName: n, TemplateBody: leaf}) })
		h.wait(n)
	}
	before := state(t, h.e)
	h.call("CreateStack refused (a fifth stack)", func() error {
		_, err := h.e.CreateStack(ctx(), CreateStackInput{StackName: "refused", TemplateBody: leaf})
		wantAPIError(t, err, CodeLimitExceeded, "Limit for stack has been exceeded")
		return err
	})
	h.call("CreateChangeSet refused (CREATE)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "refused", ChangeSetName: "cs", ChangeSetType: ChangeSetTypeCreate, TemplateBody: leaf})
		wantAPIError(t, err, CodeLimitExceeded, "Limit for stack has been exceeded")
		return err
	})
	if after := state(t, h.e); string(after) != string(before) {
		t.Fatal("a refused stack changed the stored state")
	}
	// A deleted stack frees its place.
	out, _ := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "other"})
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "other"}) })
	h.wait(out.Stacks[0].StackId)
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "again", TemplateBody: leaf}) })
	h.wait("again")
	if _, err := h.e.DescribeAccountLimits(ctx(), DescribeAccountLimitsInput{NextToken: "x"}); err == nil {
		t.Fatal("a NextToken DescribeAccountLimits never gave was accepted")
	}
	h.done()
}
