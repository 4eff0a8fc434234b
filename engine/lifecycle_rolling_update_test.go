package engine

import (
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
)

// rollingParams are the parameters of rolling-update/group.yaml.
func rollingParams(image, desired, maxSize, minInService, minSuccess string) []Parameter {
	return []Parameter{{ParameterKey: "ImageId", ParameterValue: image}, {ParameterKey: "Desired", ParameterValue: desired},
		{ParameterKey: "MaxSize", ParameterValue: maxSize}, {ParameterKey: "MinInService", ParameterValue: minInService},
		{ParameterKey: "MinSuccess", ParameterValue: minSuccess}}
}

// instances logs the instances a group's record keeps.
func (h *harness) instances(stack, logicalID string) {
	h.t.Helper()
	var list []store.Instance
	err := h.e.view(func(tx *txn) error {
		if st := tx.FindStack(stack); st != nil {
			if rec := tx.Resource(st.Num, logicalID); rec != nil {
				list = groupInstances(rec)
			}
		}
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	ids := make([]string, len(list))
	for i, in := range list {
		ids[i] = in.Id
	}
	h.note("   instances %s: %s", logicalID, strings.Join(ids, " "))
}

// newRollingHarness is a harness with the stack web of
// rolling-update/group.yaml created.
func newRollingHarness(t *testing.T, name string, opts Options) *harness {
	h := newHarness(t, name, opts)
	h.dir = "rolling-update"
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "web", TemplateBody: h.fixture("group.yaml")})
	})
	h.wait("web")
	h.instances("web", "Group")
	return h
}

func (h *harness) rollTo(stack string, params []Parameter) {
	h.t.Helper()
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: stack, UsePreviousTemplate: true, Parameters: params})
	})
}

// TestLifecycleRollingUpdateAuto: a new launch configuration replaces the
// group's instances one batch at a time, the simulation signalling each
// new instance 30 seconds after it starts; a larger group with
// MinInstancesInService equal to its capacity grows first, and its last
// batch replaces with 0; a change of anything else is an update in place.
func TestLifecycleRollingUpdateAuto(t *testing.T) {
	h := newRollingHarness(t, "rolling-update-auto", Options{})

	// Two instances, batches of one, one kept in service (AWS's recorded
	// sequence).
	h.rollTo("web", rollingParams("ami-0bbb2222", "2", "3", "1", "100"))
	h.wait("web")
	h.instances("web", "Group")

	// Not a launch change: in place, no rolling.
	h.rollTo("web", rollingParams("ami-0bbb2222", "2", "4", "1", "100"))
	h.wait("web")

	// Three in service with three wanted: the group grows to four first.
	h.rollTo("web", rollingParams("ami-0ccc3333", "3", "4", "3", "100"))
	h.wait("web")
	h.instances("web", "Group")

	// Cancelled while its first batch waits for its signal: the rollback
	// replaces the instance the update launched.
	h.rollTo("web", rollingParams("ami-0ddd4444", "3", "4", "1", "100"))
	for {
		waits, err := h.e.SignalWaits(ctx(), "web")
		if err != nil {
			t.Fatal(err)
		}
		if len(waits) > 0 {
			break
		}
		if res, err := h.e.Step(ctx(), 1); err != nil || res.Tasks == 0 {
			t.Fatalf("the update never waited for a batch's signal (%v)", err)
		}
	}
	h.must("CancelUpdateStack web", func() error {
		_, err := h.e.CancelUpdateStack(ctx(), CancelUpdateStackInput{StackName: "web"})
		return err
	})
	h.wait("web")
	h.instances("web", "Group")

	// A smaller capacity, in place: the group keeps two of its instances;
	// a larger one with a new launch: the group grows by an instance of the
	// new launch first, and ends with three of it.
	h.rollTo("web", rollingParams("ami-0ccc3333", "2", "4", "3", "100"))
	h.wait("web")
	h.instances("web", "Group")
	h.rollTo("web", rollingParams("ami-0eee5555", "3", "4", "1", "100"))
	h.wait("web")
	h.instances("web", "Group")
	h.done()
}

// TestLifecycleRollingUpdateSignals: with SignalsManual a batch waits for
// SignalResource; a batch nobody signals times out, which at 100%
// MinSuccessfulInstancesPercent fails the group, and the rollback rolls
// the instances the update launched back to the old launch; with 50% one
// FAILURE of two is allowed; MinInstancesInService must be less than
// MaxSize.
func TestLifecycleRollingUpdateSignals(t *testing.T) {
	h := newRollingHarness(t, "rolling-update-signals", Options{Signals: SignalsManual})

	h.rollTo("web", rollingParams("ami-0bbb2222", "2", "3", "1", "100"))
	h.runToSignals("web")
	h.mustDo(func() error { return h.signal("web", "Group", "i-new-1", SignalSuccess) })
	h.runToSignals("web")
	// Nobody signals the second batch: it times out, the update fails and
	// rolls back, rolling the two new instances back. A UniqueId counts
	// once in the whole update.
	h.must("the timeout", func() error { _, err := h.e.Step(ctx(), 1); return err })
	h.runToSignals("web")
	h.instances("web", "Group")
	h.mustDo(func() error { return h.signal("web", "Group", "i-back-1", SignalSuccess) })
	h.runToSignals("web")
	for _, id := range []string{"i-back-1", "i-back-2"} {
		h.mustDo(func() error { return h.signal("web", "Group", id, SignalSuccess) })
	}
	h.wait("web")
	h.instances("web", "Group")

	// 50%: one FAILURE of two is allowed, a second would not be.
	h.rollTo("web", rollingParams("ami-0ccc3333", "2", "3", "1", "50"))
	h.runToSignals("web")
	h.mustDo(func() error { return h.signal("web", "Group", "i-bad", SignalFailure) })
	h.runToSignals("web")
	h.mustDo(func() error { return h.signal("web", "Group", "i-good", SignalSuccess) })
	h.wait("web")
	h.instances("web", "Group")

	// As many in service as the group can hold: refused.
	h.rollTo("web", rollingParams("ami-0ddd4444", "2", "3", "3", "100"))
	h.wait("web")
	h.instances("web", "Group")
	h.done()
}
