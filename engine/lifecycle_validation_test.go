package engine

import "testing"

// Pre-handler validation (ops_validate.go): a create whose resources fail
// their schema fails them all before anything starts, in CloudFormation's
// words (DetailedStatus VALIDATION_FAILED), and rolls back; an update
// likewise, its refused resources ended by the rollback; a value known
// only at run time is checked when its step starts; an imported value is
// checked when the create starts; a oneOf is checked, at the start when
// its alternatives are known, when the step starts otherwise.
func TestLifecyclePreHandlerValidation(t *testing.T) {
	h := newHarness(t, "pre-handler-validation", Options{})
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "bad", TemplateBody: h.fixture("bad-create.yaml")})
	})
	h.wait("bad")
	h.detailed("bad")
	h.resources("bad")

	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml")}) })
	h.wait("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("bad-update.yaml")})
	})
	h.wait("app")
	h.resources("app")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("bad-at-run-time.yaml")})
	})
	h.wait("app")
	h.detailed("app")
	h.resources("app")

	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "exporter", TemplateBody: h.fixture("exporter.yaml")})
	})
	h.wait("exporter")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "importer", TemplateBody: h.fixture("bad-import.yaml")})
	})
	h.wait("importer")
	h.detailed("importer")

	// a oneOf both of whose alternatives match, known at the start and
	// known only when the step starts
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "vectors", TemplateBody: h.fixture("bad-one-of.yaml")})
	})
	h.wait("vectors")
	h.detailed("vectors")
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "vectors-late", TemplateBody: h.fixture("bad-one-of-late.yaml")})
	})
	h.wait("vectors-late")
	h.resources("vectors-late")

	// a dependency and an if/then, each unmet by one table; the third
	// table meets both
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "tables", TemplateBody: h.fixture("bad-conditional.yaml")})
	})
	h.wait("tables")
	h.detailed("tables")
	h.resources("tables")
	h.done()
}

// detailed logs the events that carry a DetailedStatus.
func (h *harness) detailed(stack string) {
	h.t.Helper()
	out, err := h.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for i := len(out.StackEvents) - 1; i >= 0; i-- {
		if ev := out.StackEvents[i]; ev.DetailedStatus != "" {
			h.note("   detailed %s %s %s", ev.LogicalResourceId, ev.ResourceStatus, ev.DetailedStatus)
		}
	}
}
