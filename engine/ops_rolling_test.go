package engine

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

func TestRollingPolicyOf(t *testing.T) {
	roll := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return map[string]any{"AutoScalingRollingUpdate": m}
	}
	for _, c := range []struct {
		name   string
		policy any
		ok     bool
		want   rollingPolicy
		reason string
	}{
		{"none", nil, false, rollingPolicy{}, ""},
		{"replacing only", map[string]any{"AutoScalingReplacingUpdate": map[string]any{"WillReplace": true}}, false, rollingPolicy{}, ""},
		{"replacing wins", map[string]any{"AutoScalingReplacingUpdate": map[string]any{"WillReplace": "true"},
			"AutoScalingRollingUpdate": map[string]any{}}, false, rollingPolicy{}, ""},
		{"defaults", roll(), true, rollingPolicy{MaxBatch: 1, MinSuccess: 100, PauseText: "PT0S"}, ""},
		{"signals: PT5M by default", roll("WaitOnResourceSignals", "true"), true,
			rollingPolicy{MaxBatch: 1, MinSuccess: 100, Wait: true, Pause: 5 * time.Minute, PauseText: "PT5M"}, ""},
		{"all given, as strings", roll("MaxBatchSize", "3", "MinInstancesInService", "2", "MinSuccessfulInstancesPercent", "50",
			"PauseTime", "PT10M30S", "WaitOnResourceSignals", true), true,
			rollingPolicy{MaxBatch: 3, MinInService: 2, MinSuccess: 50, Wait: true, Pause: 10*time.Minute + 30*time.Second, PauseText: "PT10M30S"}, ""},
		{"batch of 0", roll("MaxBatchSize", 0), false, rollingPolicy{}, "MaxBatchSize must be a whole number of at least 1, not 0"},
		{"percent over 100", roll("MinSuccessfulInstancesPercent", "101"), false, rollingPolicy{}, "MinSuccessfulInstancesPercent must be a whole number from 0 to 100, not 101"},
		{"negative in service", roll("MinInstancesInService", "-1"), false, rollingPolicy{}, "MinInstancesInService must be a whole number of at least 0"},
		{"pause too long", roll("PauseTime", "PT2H"), false, rollingPolicy{}, "PauseTime PT2H is not an ISO 8601 duration of at most one hour"},
		{"pause not a duration", roll("PauseTime", "5 minutes"), false, rollingPolicy{}, "PauseTime 5 minutes is not an ISO 8601 duration"},
		{"wait not a boolean", roll("WaitOnResourceSignals", "yes"), false, rollingPolicy{}, `WaitOnResourceSignals must be true or false, not "yes"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok, reason := rollingPolicyOf(c.policy)
			if c.reason != "" {
				if !strings.Contains(reason, c.reason) || !strings.HasPrefix(reason, "UpdatePolicy.AutoScalingRollingUpdate.") {
					t.Fatalf("reason %q, want it to say %q", reason, c.reason)
				}
				return
			}
			if reason != "" || ok != c.ok {
				t.Fatalf("ok %v, reason %q; want ok %v", ok, reason, c.ok)
			}
			if ok && !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestRollFailed(t *testing.T) {
	for _, c := range []struct {
		percent, total, failures int
		failed                   bool
	}{
		{100, 2, 0, false}, {100, 2, 1, true}, {50, 2, 1, false}, {50, 2, 2, true},
		{95, 9, 0, false}, {95, 9, 1, true}, {0, 3, 3, false}, {34, 3, 1, false}, {34, 3, 2, true},
	} {
		st := &store.RollingState{Total: c.total, Failure: c.failures}
		if got := rollFailed(st, rollingPolicy{MinSuccess: c.percent}); got != c.failed {
			t.Errorf("%d%% of %d with %d failure(s): failed %v, want %v", c.percent, c.total, c.failures, got, c.failed)
		}
	}
}

// TestRollingUpdateResumesFromState: a rolling update saved in the middle
// (waiting on a batch's signal) goes on in an engine loaded from the
// state, to the same end as one never interrupted.
func TestRollingUpdateResumesFromState(t *testing.T) {
	body, err := os.ReadFile("testdata/lifecycles/rolling-update/group.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run := func(interrupt bool) []string {
		e := newTestEngine(t, Options{Seed: 1})
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: string(body)}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Drive(ctx(), RunOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "web", UsePreviousTemplate: true,
			Parameters: rollingParams("ami-0bbb2222", "2", "3", "1", "100")}); err != nil {
			t.Fatal(err)
		}
		if interrupt {
			for {
				waits, err := e.SignalWaits(ctx(), "web")
				if err != nil {
					t.Fatal(err)
				}
				if len(waits) > 0 {
					break
				}
				if res, err := e.Step(ctx(), 1); err != nil || res.Tasks == 0 {
					t.Fatalf("the update never waited for a batch's signal (%v)", err)
				}
			}
			loaded, err := NewFromState(state(t, e), e.opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = loaded.Close() })
			e = loaded
		}
		if _, err := e.Drive(ctx(), RunOptions{}); err != nil {
			t.Fatal(err)
		}
		out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web"})
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, ev := range out.StackEvents {
			lines = append(lines, ev.Timestamp.String()+" "+ev.LogicalResourceId+" "+ev.ResourceStatus+" "+ev.ResourceStatusReason)
		}
		return lines
	}
	want, got := run(false), run(true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed from the state:\n%s\nuninterrupted:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(strings.Join(got, "\n"), "Successfully terminated instance(s)") {
		t.Fatal("no rolling update happened")
	}
}
