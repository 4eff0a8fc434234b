package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

func TestParseISODuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"PT15M", 15 * time.Minute, true}, {"PT1H30M", 90 * time.Minute, true}, {"PT600S", 10 * time.Minute, true},
		{"P1D", 24 * time.Hour, true}, {"P1DT2H", 26 * time.Hour, true}, {"pt5m", 5 * time.Minute, true}, {"PT0S", 0, true},
		{"", 0, false}, {"P", 0, false}, {"PT", 0, false}, {"P2000000D", 0, false}, {"15M", 0, false}, {"PT15", 0, false}, {"P1H", 0, false},
		{"PTM", 0, false}, {"PT1X", 0, false}, {"PT1H1D", 0, false},
		// each unit once, in order (Java's Duration.parse); T needs a unit after it
		{"PT1M1H", 0, false}, {"PT1H1H", 0, false}, {"P1D1D", 0, false}, {"P1DT", 0, false},
		// a time.Duration holds 106,751 days: more is refused, not wrapped to a negative one (fuzzing found P107000D)
		{"P106000D", 106000 * 24 * time.Hour, true}, {"P107000D", 0, false}, {"P1000000DT1000000H", 0, false},
	} {
		got, err := parseISODuration(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseISODuration(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}

func FuzzParseISODuration(f *testing.F) {
	for _, s := range []string{"PT15M", "P1DT2H", "PT", "PT1H1D", "P9999999999999999999D"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := parseISODuration(s); err == nil && (!strings.HasPrefix(strings.ToUpper(s), "P") || d < 0) {
			t.Fatalf("%q read as %v", s, d)
		}
	})
}

// What a resource waits for, and the policies that cannot be used.
func TestAllowedFailures(t *testing.T) {
	for _, c := range []struct{ count, percent, want int }{
		{5, 50, 2}, {5, 100, 0}, {5, 0, 5}, {4, 75, 1}, {3, 34, 1}, {1, 99, 0},
	} {
		if got := (signalPolicy{Count: c.count, MinSuccess: c.percent}).allowedFailures(); got != c.want {
			t.Errorf("%d%% of %d: %d failures allowed, want %d", c.percent, c.count, got, c.want)
		}
	}
}

func TestSignalPolicyOf(t *testing.T) {
	policy := func(rs map[string]any) *store.ResourceRecord {
		return &store.ResourceRecord{CreationPolicy: map[string]any{"ResourceSignal": rs}}
	}
	for _, c := range []struct {
		name   string
		rec    *store.ResourceRecord
		typ    string
		props  map[string]any
		want   signalPolicy
		ok     bool
		reason string
	}{
		{"defaults", policy(map[string]any{}), "AWS::EC2::Instance", nil, signalPolicy{Count: 1, Timeout: 5 * time.Minute, MinSuccess: 100}, true, ""},
		{"set", policy(map[string]any{"Count": "3", "Timeout": "PT1H"}), "AWS::AutoScaling::AutoScalingGroup", nil, signalPolicy{Count: 3, Timeout: time.Hour, MinSuccess: 100}, true, ""},
		{"group's percent", &store.ResourceRecord{CreationPolicy: map[string]any{"ResourceSignal": map[string]any{"Count": 5},
			"AutoScalingCreationPolicy": map[string]any{"MinSuccessfulInstancesPercent": "50"}}}, "AWS::AutoScaling::AutoScalingGroup", nil,
			signalPolicy{Count: 5, Timeout: 5 * time.Minute, MinSuccess: 50}, true, ""},
		{"percent of an instance: not a group's", &store.ResourceRecord{CreationPolicy: map[string]any{"ResourceSignal": map[string]any{},
			"AutoScalingCreationPolicy": map[string]any{"MinSuccessfulInstancesPercent": "50"}}}, "AWS::EC2::Instance", nil,
			signalPolicy{Count: 1, Timeout: 5 * time.Minute, MinSuccess: 100}, true, ""},
		{"bad percent", &store.ResourceRecord{CreationPolicy: map[string]any{"ResourceSignal": map[string]any{},
			"AutoScalingCreationPolicy": map[string]any{"MinSuccessfulInstancesPercent": 150}}}, "AWS::AutoScaling::AutoScalingGroup", nil,
			signalPolicy{}, false, "MinSuccessfulInstancesPercent must be a whole number from 0 to 100, not 150"},
		{"bad count", policy(map[string]any{"Count": "0"}), "AWS::EC2::Instance", nil, signalPolicy{}, false, "Count must be a whole number of at least 1"},
		{"too long", policy(map[string]any{"Timeout": "PT13H"}), "AWS::EC2::Instance", nil, signalPolicy{}, false, "at most 12 hours"},
		{"no policy", &store.ResourceRecord{}, "AWS::EC2::Instance", nil, signalPolicy{}, false, ""},
		{"wait condition", &store.ResourceRecord{}, waitConditionType, map[string]any{"Handle": "h", "Timeout": "60", "Count": "2"}, signalPolicy{Count: 2, Timeout: time.Minute, Handle: true, MinSuccess: 100}, true, ""},
		{"wait condition timeout", &store.ResourceRecord{}, waitConditionType, map[string]any{"Handle": "h", "Timeout": "43201"}, signalPolicy{}, false, "Timeout must be a number of seconds from 0 to 43200"},
		{"wait condition without handle", &store.ResourceRecord{}, waitConditionType, map[string]any{}, signalPolicy{}, false, ""},
	} {
		got, ok, reason := signalPolicyOf(c.rec, c.typ, c.props)
		if ok != c.ok || !strings.Contains(reason, c.reason) || (c.reason == "" && reason != "") || (ok && got != c.want) {
			t.Errorf("%s: got %+v %v %q, want %+v %v %q", c.name, got, ok, reason, c.want, c.ok, c.reason)
		}
	}
}
