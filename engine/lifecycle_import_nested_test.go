package engine

import (
	"fmt"
	"path/filepath"
	"testing"
)

// parentOf logs a stack's ParentId and RootId.
func (h *harness) parentOf(stack string) {
	h.t.Helper()
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	s := out.Stacks[0]
	h.note("   %s %s parent=%q root=%q", s.StackName, s.StackStatus, s.ParentId, s.RootId)
}

// TestLifecycleImportNested: an IMPORT change set nests an existing stack
// (its StackId) as the nested stack of an AWS::CloudFormation::Stack
// resource. A stack that does not exist, a wrong identifier and a stack
// already nested are refused with nothing stored; a TemplateURL whose
// template is not the stack's fails the import, which rolls back and
// leaves the stack at the top level; once nested, the stack is updated
// through its parent.
func TestLifecycleImportNested(t *testing.T) {
	dir := filepath.Join("testdata", "lifecycles", "import-nested")
	h := newHarness(t, "import-nested", Options{S3Dir: filepath.Join(dir, "s3")})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "shared", TemplateBody: h.fixture("shared.yaml")})
	})
	h.wait("shared")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("app-v1.yaml")})
	})
	h.wait("app")
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "shared"})
	if err != nil {
		t.Fatal(err)
	}
	sharedID := out.Stacks[0].StackId

	importShared := func(stack, name, fixture string, id map[string]string) error {
		return h.call(fmt.Sprintf("CreateChangeSet %s %s (IMPORT Shared %v, %s)", stack, name, id, fixture), func() error {
			_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: stack, ChangeSetName: name, ChangeSetType: ChangeSetTypeImport,
				TemplateBody:      h.fixture(fixture),
				ResourcesToImport: []ResourceToImport{{ResourceType: "AWS::CloudFormation::Stack", LogicalResourceId: "Shared", ResourceIdentifier: id}}})
			return err
		})
	}
	execute := func(stack, name string) {
		h.describeChangeSet(stack, name)
		h.must("ExecuteChangeSet "+stack+" "+name, func() error {
			_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: stack, ChangeSetName: name})
			return err
		})
		h.wait(stack)
	}

	before := state(t, h.e)
	for _, id := range []map[string]string{
		{"StackId": "arn:aws:cloudformation:us-east-1:123456789012:stack/nope/00000000-0000-0000-0000-000000000000"},
		{"StackName": "shared"},
	} {
		if err := importShared("app", "bad", "app-import.yaml", id); err == nil {
			t.Fatalf("the import of %v was accepted", id)
		}
	}
	if string(state(t, h.e)) != string(before) {
		t.Fatal("a refused import changed the state")
	}

	// Another template at the TemplateURL: the import fails and rolls back.
	h.mustDo(func() error {
		return importShared("app", "other", "app-import-other.yaml", map[string]string{"StackId": sharedID})
	})
	execute("app", "other")
	h.parentOf("shared")

	h.mustDo(func() error {
		return importShared("app", "nest", "app-import.yaml", map[string]string{"StackId": sharedID})
	})
	execute("app", "nest")
	h.resources("app")
	h.parentOf("shared")

	// Nested now: not importable again, elsewhere.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "third", TemplateBody: h.fixture("app-v1.yaml")})
	})
	h.wait("third")
	if err := importShared("third", "again", "app-import.yaml", map[string]string{"StackId": sharedID}); err == nil {
		t.Fatal("a nested stack was imported again")
	}

	// Updated through its parent.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app-v2.yaml")})
	})
	h.wait("app")
	h.outputs("app")
	h.parentOf("shared")
	h.done()
}
