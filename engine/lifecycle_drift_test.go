package engine

import (
	"fmt"
	"testing"
)

// driftReport logs a stack's drift detection and what it found.
func (h *harness) driftReport(stack, id string, filters ...string) {
	h.t.Helper()
	st, err := h.e.DescribeStackDriftDetectionStatus(ctx(), DescribeStackDriftDetectionStatusInput{StackDriftDetectionId: id})
	if err != nil {
		h.t.Fatal(err)
	}
	h.note("   detection %s: %s, stack %s, %d drifted %q", stack, st.DetectionStatus, st.StackDriftStatus, *st.DriftedStackResourceCount, st.DetectionStatusReason)
	out, err := h.e.DescribeStackResourceDrifts(ctx(), DescribeStackResourceDriftsInput{StackName: stack, StackResourceDriftStatusFilters: filters})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, d := range out.StackResourceDrifts {
		h.note("   drift %-6s %-8s expected %s actual %s", d.LogicalResourceId, d.StackResourceDriftStatus, d.ExpectedProperties, d.ActualProperties)
		for _, p := range d.PropertyDifferences {
			h.note("     %s %s %q → %q", p.DifferenceType, p.PropertyPath, p.ExpectedValue, p.ActualValue)
		}
	}
	s, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	h.note("   stack DriftInformation %s", s.Stacks[0].DriftInformation.StackDriftStatus)
	rs, err := h.e.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rs.StackResources {
		h.note("   resource %-6s DriftInformation %s", r.LogicalResourceId, r.DriftInformation.StackResourceDriftStatus)
	}
}

func (h *harness) detect(stack string) string {
	h.t.Helper()
	var id string
	h.must("DetectStackDrift "+stack, func() error {
		out, err := h.e.DetectStackDrift(ctx(), DetectStackDriftInput{StackName: stack})
		if out != nil {
			id = out.StackDriftDetectionId
		}
		return err
	})
	return id
}

func (h *harness) driftResource(in DriftResourceInput) error {
	if h.drifted == nil {
		h.drifted = map[string]bool{}
	}
	h.drifted[in.StackName+"/"+in.LogicalResourceId] = true
	return h.call(fmt.Sprintf("DriftResource %s %s (set %v, remove %v, delete %v)", in.StackName, in.LogicalResourceId, in.Properties, in.RemoveProperties, in.Delete), func() error {
		_, err := h.e.DriftResource(ctx(), in)
		return err
	})
}

// TestLifecycleDrift: drift detection reads each resource through its
// handler and compares what the template set: in sync after the create;
// a value changed and a resource deleted behind the stack's back
// (DriftResource) are MODIFIED (with the property's difference) and
// DELETED, the stack DRIFTED; DetectStackResourceDrift checks one; an
// update that sets the value the resource has brings it back in sync;
// refusals change nothing.
func TestLifecycleDrift(t *testing.T) {
	h := newHarness(t, "drift", Options{})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml")}) })
	h.wait("app")
	h.driftReport("app", h.detect("app"))

	h.mustDo(func() error {
		return h.driftResource(DriftResourceInput{StackName: "app", LogicalResourceId: "Param", Properties: map[string]any{"Value": "two", "Tags": map[string]any{"team": "web", "owner": "ops"}}})
	})
	h.mustDo(func() error {
		return h.driftResource(DriftResourceInput{StackName: "app", LogicalResourceId: "Topic", Delete: true})
	})
	// Refused, nothing stored: a custom resource is not the simulation's;
	// nothing given.
	before := state(t, h.e)
	if err := h.driftResource(DriftResourceInput{StackName: "app", LogicalResourceId: "Hook", Delete: true}); err == nil {
		t.Fatal("DriftResource of a custom resource was accepted")
	}
	if err := h.driftResource(DriftResourceInput{StackName: "app", LogicalResourceId: "Param"}); err == nil {
		t.Fatal("DriftResource with nothing to change was accepted")
	}
	if after := state(t, h.e); string(before) != string(after) {
		t.Fatal("a refused DriftResource changed the stored state")
	}
	id := h.detect("app")
	h.driftReport("app", id)
	h.note("   only MODIFIED:")
	h.driftReport("app", id, DriftModified)

	h.must("DetectStackResourceDrift app Param", func() error {
		out, err := h.e.DetectStackResourceDrift(ctx(), DetectStackResourceDriftInput{StackName: "app", LogicalResourceId: "Param"})
		if err == nil {
			h.note("   drift Param %s, %d difference(s)", out.StackResourceDrift.StackResourceDriftStatus, len(out.StackResourceDrift.PropertyDifferences))
		}
		return err
	})
	if err := h.call("DetectStackResourceDrift app Hook", func() error {
		_, err := h.e.DetectStackResourceDrift(ctx(), DetectStackResourceDriftInput{StackName: "app", LogicalResourceId: "Hook"})
		return err
	}); err == nil {
		t.Fatal("DetectStackResourceDrift of a custom resource was accepted")
	}
	if err := h.call("DescribeStackDriftDetectionStatus (no such id)", func() error {
		_, err := h.e.DescribeStackDriftDetectionStatus(ctx(), DescribeStackDriftDetectionStatusInput{StackDriftDetectionId: "00000000-0000-0000-0000-000000000000"})
		return err
	}); err == nil {
		t.Fatal("an unknown detection id was accepted")
	}

	// The template catches up with the parameter's value and tags.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "app", TemplateBody: h.fixture("app.yaml"), Parameters: []Parameter{{ParameterKey: "Value", ParameterValue: "two"}}})
	})
	h.wait("app")
	h.driftReport("app", h.detect("app"))
	h.done()
}
