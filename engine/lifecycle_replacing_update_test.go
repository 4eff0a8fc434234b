package engine

import "testing"

// TestLifecycleReplacingUpdate: an Auto Scaling group with UpdatePolicy
// AutoScalingReplacingUpdate WillReplace is replaced when its launch
// configuration changes — a new group made, waiting for its CreationPolicy
// signals, the old one deleted in the cleanup — and updated in place when
// anything else changes; a new group whose instance signals FAILURE fails
// the update, which rolls back to the old group and deletes the new one.
func TestLifecycleReplacingUpdate(t *testing.T) {
	h := newHarness(t, "replacing-update", Options{Signals: SignalsManual})
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "web", TemplateBody: h.fixture("v1.yaml")}) })
	h.runToSignals("web")
	for _, id := range []string{"i-01", "i-02"} {
		h.mustDo(func() error { return h.signal("web", "Group", id, SignalSuccess) })
	}
	h.wait("web")
	h.resources("web")

	// Anything but a trigger: in place, no signals.
	params := func(image, max string) []Parameter {
		return []Parameter{{ParameterKey: "ImageId", ParameterValue: image}, {ParameterKey: "MaxSize", ParameterValue: max}}
	}
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true, Parameters: params("ami-0aaa1111", "4")})
	})
	h.wait("web")

	// A new image: a new launch configuration, so a new group (the change
	// set says so: Replacement True, where the schema alone says
	// Conditional).
	h.must("CreateChangeSet web preview (a new image)", func() error {
		_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "web", ChangeSetName: "preview", UsePreviousTemplate: true,
			Parameters: params("ami-0bbb2222", "4")})
		return err
	})
	h.describeChangeSet("web", "preview")
	h.must("DeleteChangeSet web preview", func() error {
		_, err := h.e.DeleteChangeSet(ctx(), DeleteChangeSetInput{StackName: "web", ChangeSetName: "preview"})
		return err
	})
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true, Parameters: params("ami-0bbb2222", "4")})
	})
	h.runToSignals("web")
	for _, id := range []string{"i-03", "i-04"} {
		h.mustDo(func() error { return h.signal("web", "Group", id, SignalSuccess) })
	}
	h.wait("web")
	h.resources("web")

	// Another image whose instance fails: back to the old group.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "web", UsePreviousTemplate: true, Parameters: params("ami-0ccc3333", "4")})
	})
	h.runToSignals("web")
	h.mustDo(func() error { return h.signal("web", "Group", "i-05", SignalFailure) })
	h.wait("web")
	h.resources("web")
	h.done()
}
