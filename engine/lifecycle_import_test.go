package engine

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// importInto creates an IMPORT change set of resources (logical id=name
// of the SSM parameter) and, when it is accepted and execute is set, runs
// it to rest.
func (h *harness) importInto(stack, name, fixture string, execute bool, targets ...string) error {
	var rs []ResourceToImport
	if h.drifted == nil {
		h.drifted = map[string]bool{}
	}
	for _, t := range targets {
		id, param, _ := strings.Cut(t, "=")
		// An imported resource is what it was, not what the template says
		// (AWS: "we recommend running drift detection on imported
		// resources"): the check of the cloud leaves it out.
		h.drifted[stack+"/"+id] = true
		rs = append(rs, ResourceToImport{ResourceType: "AWS::SSM::Parameter", LogicalResourceId: id, ResourceIdentifier: map[string]string{"Name": param}})
	}
	err := h.call(fmt.Sprintf("CreateChangeSet %s %s (IMPORT %s, %s)", stack, name, strings.Join(targets, " "), fixture), func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: stack, ChangeSetName: name, ChangeSetType: ChangeSetTypeImport,
			TemplateBody: h.fixture(fixture), ResourcesToImport: rs})
		return err
	})
	if err != nil || !execute {
		return err
	}
	h.describeChangeSet(stack, name)
	h.must("ExecuteChangeSet "+stack+" "+name, func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: stack, ChangeSetName: name})
		return err
	})
	h.wait(stack)
	h.resources(stack)
	h.listChangeSets(stack)
	return nil
}

// TestLifecycleImport: resources a stack retained come into another stack
// (a new one) and back into their first (an existing one) by IMPORT
// change sets; an import whose resource does not exist rolls back, the
// resources it had read released again; what an import may not do is
// refused with nothing stored.
func TestLifecycleImport(t *testing.T) {
	h := newHarness(t, "import", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "owner", TemplateBody: h.fixture("owner-v1.yaml")})
	})
	h.wait("owner")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "owner", TemplateBody: h.fixture("owner-v2.yaml")})
	})
	h.wait("owner")
	h.objects()

	// A new stack made of a retained resource.
	if err := h.importInto("app", "adopt", "app.yaml", true, "Config=shared-config"); err != nil {
		t.Fatal(err)
	}
	h.objects()

	// Refused, nothing stored: the resource is app's now; no
	// DeletionPolicy; another resource changed; outputs added.
	before := state(t, h.e)
	for _, c := range []struct{ fixture, target string }{
		{"app.yaml", "Config=shared-config"},
		{"no-policy.yaml", "Config=extra-config"},
		{"changed.yaml", "Again=extra-config"},
		{"outputs.yaml", "Again=extra-config"},
		{"owner-import-ok.yaml", "Keep=keep"},
	} {
		stack := "owner"
		if c.fixture == "app.yaml" || c.fixture == "no-policy.yaml" {
			stack = "third"
		}
		if err := h.importInto(stack, "refused", c.fixture, false, c.target); err == nil {
			t.Fatalf("the import of %s with %s was accepted", c.target, c.fixture)
		}
	}
	if after := state(t, h.e); !bytes.Equal(before, after) {
		t.Fatal("a refused import changed the stored state")
	}

	// Into an existing stack, with a resource that does not exist: the
	// import rolls back, the stack back on its template, the resource it
	// had read released again.
	if err := h.importInto("owner", "ghost", "owner-import.yaml", true, "Again=extra-config", "Ghost=ghost-config"); err != nil {
		t.Fatal(err)
	}
	h.objects()

	// Again, without the ghost: imported, dependent on a resource the
	// stack had, and updated afterwards as any resource is.
	if err := h.importInto("owner", "again", "owner-import-ok.yaml", true, "Again=extra-config"); err != nil {
		t.Fatal(err)
	}
	h.objects()
	id := h.stackID("owner")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "owner"}) })
	h.wait(id)
	h.objects()
	h.done()
}
