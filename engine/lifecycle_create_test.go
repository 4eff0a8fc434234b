package engine

import "testing"

// Lifecycles of CreateStack (BEHAVIOUR.md §3, §4 A, B).

func TestLifecycleCreateSuccess(t *testing.T) {
	h := newHarness(t, "create-success", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml")})
	})
	st := h.wait("web")
	h.note("   outputs %v", st.Outputs)
	h.resources("web")
	h.objects()
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "web"}) })
	h.wait(st.StackId)
	h.objects()
	h.done()
}

func TestLifecycleCreateFailureRollback(t *testing.T) {
	h := newHarness(t, "create-failure-rollback", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("web")
	h.resources("web")
	h.objects()
	// ROLLBACK_COMPLETE: only DeleteStack is accepted.
	_ = h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true})
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "web"}) })
	h.wait(h.stackID("web"))
	h.done()
}

func TestLifecycleCreateRollbackFailedDeleteRetain(t *testing.T) {
	h := newHarness(t, "create-rollback-failed-delete-retain", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml")}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("web")
	h.objects()
	del := DeleteStackInput{StackName: "web"}
	del.Faults = h.faults("faults.yaml")
	// RetainResources is refused outside DELETE_FAILED.
	_ = h.deleteStack(DeleteStackInput{StackName: "web", RetainResources: []string{"Param"}})
	h.mustDo(func() error { return h.deleteStack(del) })
	h.wait("web")
	h.resources("web")
	id := h.stackID("web")
	h.mustDo(func() error {
		return h.deleteStack(DeleteStackInput{StackName: "web", RetainResources: []string{"Param"}})
	})
	h.wait(id)
	h.objects()
	h.done()
}

func TestLifecycleCreateDoNothing(t *testing.T) {
	h := newHarness(t, "create-do-nothing", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml"), OnFailure: OnFailureDoNothing}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("web")
	h.resources("web")
	// A stack created with DO_NOTHING cannot be updated from CREATE_FAILED.
	_ = h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true})
	id := h.stackID("web")
	h.mustDo(func() error { return h.deleteStack(DeleteStackInput{StackName: "web"}) })
	h.wait(id)
	h.objects()
	h.done()
}

func TestLifecycleCreateDisableRollbackThenRollbackStack(t *testing.T) {
	h := newHarness(t, "create-disable-rollback-then-rollback-stack", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml"), DisableRollback: true}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("web")
	h.must("RollbackStack web", func() error {
		_, err := h.e.RollbackStack(ctx(), RollbackStackInput{StackName: "web"})
		return err
	})
	h.wait("web")
	h.resources("web")
	h.objects()
	h.done()
}

func TestLifecycleCreateDisableRollbackThenUpdate(t *testing.T) {
	h := newHarness(t, "create-disable-rollback-then-update", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml"), DisableRollback: true}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	h.wait("web")
	// The failed resource is created again by an update of the same
	// template, without the fault.
	h.mustDo(func() error { return h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true}) })
	h.wait("web")
	h.resources("web")
	h.done()
}

func TestLifecycleCreateOnFailureDelete(t *testing.T) {
	h := newHarness(t, "create-on-failure-delete", Options{})
	in := CreateStackInput{StackName: "web", TemplateBody: h.fixture("template.yaml"), OnFailure: OnFailureDelete}
	in.Faults = h.faults("faults.yaml")
	h.mustDo(func() error { return h.create(in) })
	id := h.stackID("web")
	h.wait(id)
	h.objects()
	h.done()
}

// stackID is the ARN of the live stack with this name.
func (h *harness) stackID(name string) string {
	h.t.Helper()
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: name})
	if err != nil {
		h.t.Fatal(err)
	}
	return out.Stacks[0].StackId
}
