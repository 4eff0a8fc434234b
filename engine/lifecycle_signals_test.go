package engine

import (
	"fmt"
	"strings"
	"testing"
)

// runToSignals runs the loop until the stack is at rest or waits for
// signals (SignalsManual), and logs its status and what it waits for.
func (h *harness) runToSignals(stack string) {
	h.t.Helper()
	res, err := h.e.Drive(ctx(), RunOptions{StopAtSignals: true})
	if err != nil {
		h.t.Fatal(err)
	}
	h.check()
	out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
	if err != nil {
		h.t.Fatal(err)
	}
	h.note("-- %s %s (%s)", stack, out.Stacks[0].StackStatus, res.Stopped)
	waits, err := h.e.SignalWaits(ctx(), stack)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, w := range waits {
		h.note("   waits %s: %d of %d signal(s), until %s", w.LogicalResourceId, w.Received, w.Count, w.Deadline.Format("15:04:05"))
	}
}

func (h *harness) signal(stack, id, unique, status string) error {
	return h.call(fmt.Sprintf("SignalResource %s %s %s %s", stack, id, unique, status), func() error {
		_, err := h.e.SignalResource(ctx(), SignalResourceInput{StackName: stack, LogicalResourceId: id, UniqueId: unique, Status: status})
		return err
	})
}

// TestLifecycleSignalsAuto: with the default SignalsAuto the simulation
// signals an instance's creation policy and a wait condition itself, 30
// seconds after each is made; the wait condition's Data holds the signals.
func TestLifecycleSignalsAuto(t *testing.T) {
	h := newHarness(t, "signals-auto", Options{})
	h.dir = "signals"
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "web", TemplateBody: h.fixture("web.yaml")}) })
	h.wait("web")
	h.outputs("web")
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "web", TemplateBody: h.fixture("web-v2.yaml")})
	})
	h.wait("web")
	h.done()
}

// TestLifecycleSignalsManual: with SignalsManual only SignalResource
// signals. The call returns while a resource waits; a SUCCESS per UniqueId
// counts once; a signal to a resource that does not wait is refused; a
// wait condition's FAILURE signal fails the create; a creation policy
// nobody signals times out in virtual time.
func TestLifecycleSignalsManual(t *testing.T) {
	h := newHarness(t, "signals-manual", Options{Signals: SignalsManual})
	h.dir = "signals"
	h.mustDo(func() error { return h.create(CreateStackInput{StackName: "web", TemplateBody: h.fixture("web.yaml")}) })
	h.runToSignals("web")
	for _, c := range []struct{ id, unique, status string }{
		{"Ready", "early", SignalSuccess}, // not waiting yet
		{"Nope", "x", SignalSuccess},      // no such resource
		{"Server", "x", "DONE"},           // not a status
	} {
		if err := h.signal("web", c.id, c.unique, c.status); err == nil {
			t.Fatalf("the signal %+v was accepted", c)
		}
	}
	if err := h.signal("web", "Server", "i-0aaa", SignalSuccess); err != nil {
		t.Fatal(err)
	}
	h.runToSignals("web")
	if err := h.signal("web", "Server", "i-0aaa", SignalSuccess); err == nil {
		t.Fatal("a signal to a complete resource was accepted")
	}
	for _, u := range []string{"step-1", "step-1", "step-2"} {
		if err := h.signal("web", "Ready", u, SignalSuccess); err != nil {
			t.Fatal(err)
		}
		h.runToSignals("web")
	}
	h.outputs("web")

	// An update adds a worker that wants two signals: one comes, then
	// a FAILURE; the update rolls back.
	h.mustDo(func() error {
		return h.updateStack(UpdateStackInput{StackName: "web", TemplateBody: h.fixture("web-v2.yaml")})
	})
	h.runToSignals("web")
	if err := h.signal("web", "Worker", "i-0bbb", SignalSuccess); err != nil {
		t.Fatal(err)
	}
	if err := h.signal("web", "Worker", "i-0ccc", SignalFailure); err != nil {
		t.Fatal(err)
	}
	h.wait("web")

	// A new stack nobody signals: the server times out, the create rolls
	// back.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "quiet", TemplateBody: h.fixture("web.yaml")})
	})
	h.runToSignals("quiet")
	h.wait("quiet")

	// A wait condition's FAILURE signal.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "fails", TemplateBody: h.fixture("web.yaml")})
	})
	h.runToSignals("fails")
	if err := h.signal("fails", "Server", "i-0ddd", SignalSuccess); err != nil {
		t.Fatal(err)
	}
	h.runToSignals("fails")
	if err := h.signal("fails", "Ready", "setup", SignalFailure); err != nil {
		t.Fatal(err)
	}
	h.wait("fails")
	h.done()
}

// TestLifecycleSignalsPercent: an Auto Scaling group whose
// AutoScalingCreationPolicy takes 50% of its four signals completes with
// two FAILURE signals among four, fails at the third, and (UNVERIFIED)
// completes at its timeout when two SUCCESS signals came; a FAILURE after
// a SUCCESS of the same UniqueId counts as a FAILURE.
func TestLifecycleSignalsPercent(t *testing.T) {
	h := newHarness(t, "signals-percent", Options{Signals: SignalsManual})
	h.dir = "signals"
	for _, c := range []struct {
		stack   string
		signals []string
	}{
		{"two-failures", []string{"i-1 SUCCESS", "i-2 FAILURE", "i-2 FAILURE", "i-3 FAILURE", "i-4 SUCCESS"}},
		{"three-failures", []string{"i-1 FAILURE", "i-2 FAILURE", "i-3 FAILURE"}},
		{"timeout-with-two", []string{"i-1 SUCCESS", "i-2 SUCCESS"}},
		{"success-then-failure", []string{"i-1 SUCCESS", "i-1 FAILURE", "i-2 FAILURE", "i-3 FAILURE"}},
	} {
		h.mustDo(func() error {
			return h.create(CreateStackInput{StackName: c.stack, TemplateBody: h.fixture("group-percent.yaml")})
		})
		h.runToSignals(c.stack)
		for _, sig := range c.signals {
			id, status, _ := strings.Cut(sig, " ")
			h.mustDo(func() error { return h.signal(c.stack, "Group", id, status) })
		}
		h.wait(c.stack)
	}
	h.done()
}
