package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Signals sent to a wait condition handle's URL (what cfn-signal and curl
// PUT there): the URL must be the handle's own, whatever host it went to;
// two SUCCESS signals with their Data complete the condition (its Data is
// theirs, by UniqueId); a later signal is taken and changes nothing; a
// FAILURE fails the condition with its Data in AWS's words; signals sent
// before the condition waits are kept and counted when it starts.
func TestLifecycleWaitHandleURL(t *testing.T) {
	h := newHarness(t, "wait-handle", Options{Signals: SignalsManual})
	handleURL := func(stack string) string {
		t.Helper()
		out, err := h.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: stack, LogicalResourceId: "Handle"})
		if err != nil {
			t.Fatal(err)
		}
		u := out.StackResourceDetail.PhysicalResourceId
		// Sent to the server, not to S3: the same path and query.
		return "http://127.0.0.1:4599/" + u[strings.Index(u, "amazonaws.com/")+len("amazonaws.com/"):]
	}
	send := func(label string, sig WaitHandleSignal) error {
		return h.call("PUT handle URL "+label, func() error {
			err := h.e.SignalWaitHandle(ctx(), sig)
			var none *ErrNoWaitHandle
			if errors.As(err, &none) {
				h.note("!! no such handle")
				return nil
			}
			return err
		})
	}
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "boot", TemplateBody: h.fixture("boot.yaml")})
	})
	h.runToSignals("boot")
	url := handleURL("boot")
	for _, c := range []struct {
		label string
		sig   WaitHandleSignal
	}{
		{"(another signature)", WaitHandleSignal{URL: url[:len(url)-4] + "0000", Status: SignalSuccess, UniqueId: "a"}},
		{"(no status)", WaitHandleSignal{URL: url, UniqueId: "a"}},
		{"(no UniqueId)", WaitHandleSignal{URL: url, Status: SignalSuccess}},
	} {
		label := c.label
		before := state(t, h.e)
		_ = send(label, c.sig)
		if after := state(t, h.e); string(after) != string(before) {
			t.Fatalf("a refused signal %s changed the state", label)
		}
	}
	for i, id := range []string{"setup", "setup", "migrate"} {
		if err := send(fmt.Sprintf("%s SUCCESS", id), WaitHandleSignal{URL: url, Status: SignalSuccess, UniqueId: id, Data: fmt.Sprintf("step %d done", i+1)}); err != nil {
			t.Fatal(err)
		}
		h.runToSignals("boot")
	}
	h.outputs("boot")
	if err := send("late SUCCESS (taken, changes nothing)", WaitHandleSignal{URL: url, Status: SignalSuccess, UniqueId: "late"}); err != nil {
		t.Fatal(err)
	}

	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "broken", TemplateBody: h.fixture("boot.yaml")})
	})
	h.runToSignals("broken")
	if err := send("FAILURE", WaitHandleSignal{URL: handleURL("broken"), Status: SignalFailure, UniqueId: "setup", Data: "yum install failed"}); err != nil {
		t.Fatal(err)
	}
	h.wait("broken")

	// Signals before the wait condition waits are kept (a repeated UniqueId
	// the last one) and counted when it starts.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "early", TemplateBody: h.fixture("boot-late.yaml")})
	})
	h.runToSignals("early")
	early := handleURL("early")
	for _, sig := range []WaitHandleSignal{
		{URL: early, Status: SignalSuccess, UniqueId: "setup", Data: "first try"},
		{URL: early, Status: SignalSuccess, UniqueId: "setup", Data: "step 1 done"},
		{URL: early, Status: SignalSuccess, UniqueId: "migrate", Data: "step 2 done"},
	} {
		if err := send(sig.UniqueId+" SUCCESS (early: kept)", sig); err != nil {
			t.Fatal(err)
		}
	}
	h.mustDo(func() error { return h.signal("early", "Server", "i-0abc", SignalSuccess) })
	h.wait("early")
	h.outputs("early")
	h.done()
}
