package engine

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
)

// changeSetRun creates a CREATE or UPDATE change set with
// ImportExistingResources, shows it, and runs it to rest.
func (h *harness) changeSetRun(stack, name, csType, fixture string) {
	h.t.Helper()
	h.changeSetRunWith(stack, name, csType, fixture, ExecuteChangeSetInput{})
}

// changeSetRunWith is changeSetRun with the ExecuteChangeSet call's other
// members (DisableRollback, faults) from exec.
func (h *harness) changeSetRunWith(stack, name, csType, fixture string, exec ExecuteChangeSetInput) {
	h.t.Helper()
	h.must(fmt.Sprintf("CreateChangeSet %s %s (%s, ImportExistingResources, %s)", stack, name, csType, fixture), func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: stack, ChangeSetName: name, ChangeSetType: csType,
			TemplateBody: h.fixture(fixture), ImportExistingResources: true})
		return err
	})
	h.describeChangeSet(stack, name)
	out, err := h.e.ListChangeSets(ctx(), ListChangeSetsInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, s := range out.Summaries {
		if s.ChangeSetName == name && !s.ImportExistingResources {
			h.t.Fatalf("ListChangeSets shows %s without ImportExistingResources", name)
		}
	}
	exec.StackName, exec.ChangeSetName = stack, name
	h.must(fmt.Sprintf("ExecuteChangeSet %s %s (DisableRollback %v, %d fault(s))", stack, name, exec.DisableRollback, len(exec.Faults)), func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), exec)
		return err
	})
	h.wait(stack)
	h.resources(stack)
}

// TestLifecycleImportExisting: change sets made with
// ImportExistingResources import the resources of their template that
// exist (a static name, a retaining DeletionPolicy, in no stack) and
// create the rest, in a create and in an update; a failure rolls the
// operation back and lets the imported resources go again; a delete
// retains them.
func TestLifecycleImportExisting(t *testing.T) {
	h := newHarness(t, "import-existing", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "owner", TemplateBody: h.fixture("owner.yaml")})
	})
	h.wait("owner")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "live", TemplateBody: h.fixture("live.yaml")})
	})
	h.wait("live")
	owner := h.stackID("owner")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "owner"}) })
	h.wait(owner)
	h.objects()

	// Refused, nothing stored: ImportExistingResources on an IMPORT change
	// set.
	before := state(t, h.e)
	if err := h.call("CreateChangeSet app refused (IMPORT, ImportExistingResources)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: "refused", ChangeSetType: ChangeSetTypeImport,
			TemplateBody: h.fixture("app-v1.yaml"), ImportExistingResources: true,
			ResourcesToImport: []ResourceToImport{{ResourceType: "AWS::SSM::Parameter", LogicalResourceId: "Config", ResourceIdentifier: map[string]string{"Name": "shared-config"}}}})
		return err
	}); err == nil {
		t.Fatal("ImportExistingResources was accepted on an IMPORT change set")
	}
	if after := state(t, h.e); !bytes.Equal(before, after) {
		t.Fatal("a refused change set changed the stored state")
	}

	// A create that imports one resource and fails on another: rolled
	// back, the imported one let go (spare-config is in no stack again).
	h.changeSetRun("bad", "first", ChangeSetTypeCreate, "bad.yaml")
	h.objects()

	// The same with rollback disabled, the import still reading when the
	// create fails: cut short (IMPORT_FAILED), the stack CREATE_FAILED;
	// deleted, the resource it never adopted is left alone (DELETE_SKIPPED,
	// spare-config still there).
	exec := ExecuteChangeSetInput{DisableRollback: true}
	exec.Faults = h.faults("throttle-read.yaml")
	h.changeSetRunWith("kept", "first", ChangeSetTypeCreate, "bad.yaml", exec)
	kept := h.stackID("kept")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "kept"}) })
	h.wait(kept)
	h.objects()

	// A create that imports one resource, creates three.
	h.changeSetRun("app", "v1", ChangeSetTypeCreate, "app-v1.yaml")
	// An update that imports one and fails: rolled back, extra-config let
	// go again; then the same without the failing resource.
	h.changeSetRun("app", "v2", ChangeSetTypeUpdate, "app-v2.yaml")
	// With rollback disabled, Extra still being read when Clash fails:
	// IMPORT_FAILED, the stack UPDATE_FAILED; the next update imports it
	// again (it was never the stack's).
	exec = ExecuteChangeSetInput{DisableRollback: true}
	exec.Faults = h.faults("throttle-extra.yaml")
	h.changeSetRunWith("app", "v2b", ChangeSetTypeUpdate, "app-v2-parallel.yaml", exec)
	h.changeSetRun("app", "v3", ChangeSetTypeUpdate, "app-v3.yaml")
	h.objects()

	// Deleted: the imported resources stay (their policies retain).
	app := h.stackID("app")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "app"}) })
	h.wait(app)
	h.objects()
	h.done()
}

// TestLifecycleImportExistingNested: a root's change set made with
// ImportExistingResources imports what exists in its nested stacks too —
// when the nested stack is created, and when it is updated (the nested
// change set shows the Import).
func TestLifecycleImportExistingNested(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "lifecycles", "import-existing", "s3"))
	h := newHarness(t, "import-existing-nested", Options{S3Dir: dir})
	h.dir = "import-existing"
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "owner", TemplateBody: h.fixture("nested-owner.yaml")})
	})
	h.wait("owner")
	owner := h.stackID("owner")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "owner"}) })
	h.wait(owner)

	h.changeSetRun("root", "first", ChangeSetTypeCreate, "root.yaml")
	h.describeChildren()
	h.must("CreateChangeSet root second (UPDATE, ImportExistingResources, IncludeNestedStacks, root-v2.yaml)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "root", ChangeSetName: "second", ChangeSetType: ChangeSetTypeUpdate,
			TemplateBody: h.fixture("root-v2.yaml"), ImportExistingResources: true, IncludeNestedStacks: true})
		return err
	})
	h.describeChangeSet("root", "second")
	d, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{StackName: "root", ChangeSetName: "second"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range d.Changes {
		if id := c.ResourceChange.ChangeSetID; id != "" {
			h.note("   nested change set of %s:", c.ResourceChange.LogicalResourceID)
			n, err := h.e.DescribeChangeSet(ctx(), DescribeChangeSetInput{ChangeSetName: id})
			if err != nil {
				t.Fatal(err)
			}
			for _, nc := range n.Changes {
				h.note("     %s %s %s", nc.ResourceChange.Action, nc.ResourceChange.LogicalResourceID, nc.ResourceChange.PhysicalResourceID)
			}
		}
	}
	h.must("ExecuteChangeSet root second", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "root", ChangeSetName: "second"})
		return err
	})
	h.wait("root")
	h.describeChildren()
	h.objects()
	h.done()
}
