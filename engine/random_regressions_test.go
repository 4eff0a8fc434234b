package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
)

// worldRegressions are randomized worlds that once failed, run by every
// `make test` whatever -random.worlds says. Each names what was wrong.
// Those pinned before the calls of random_calls_test.go were added replay
// as plain worlds, without them (as they failed); those pinned before the
// imports and signals of random_more_test.go were added, with the calls
// but without those; the later ones with everything.
var worldRegressions = []struct {
	seed uint64
	kind worldKind
	why  string
}{
	// A resource skipped by ContinueUpdateRollback kept, in the stack's
	// record, the properties its failed rollback left, instead of those
	// of the template rolled back to: a later update was planned against
	// the real state (an Update the template did not ask for), and when
	// it rolled back, the check expected those out-of-step properties
	// back (docs/planning.md, "Continuing a rollback that failed").
	{9718, plain, "skipped R22 updated again by v2, which rolls back"},
	{10572, plain, "skipped R34 updated again by v2, which rolls back"},
	{16470, plain, "skipped R35 updated again by v2, which rolls back"},
	{26229, plain, "skipped R14 updated again by v2, which rolls back"},
	{27318, plain, "skipped R07 (it referred to a replacement the cleanup deleted) updated again by v2"},
	{28288, plain, "skipped R32 updated again by v2, which rolls back"},
	{29209, plain, "skipped R17 updated again by v2, which rolls back"},
	// An update from UPDATE_FAILED (rollback disabled: the stack's template
	// is the failed one, its exports are not) that rolled back put back
	// the failed template's outputs, changing or removing exports that
	// another stack imported (settleOutputs' restore kept no check).
	{404, plain, "the export imp imports took the failed v1's value when v2 rolled back"},
	{29, plain, "the export imp imports went when v2 rolled back to the failed v1, which drops it"},
	{51, plain, "v1 failed before its outputs; v2's rollback to v1 removed the export imp imports"},
	// With a stack policy: an update from UPDATE_FAILED whose denied
	// resources were already UPDATE_FAILED found nothing it could deny,
	// stopped anyway and ended UPDATE_COMPLETE having run nothing.
	{213, plain, "v1 denied with rollback disabled; v2 ran nothing and ended UPDATE_COMPLETE"},
	{101, plain, "v2 from UPDATE_FAILED ended UPDATE_COMPLETE with R03 and R05 not updated"},
	// A nested stack whose TemplateURL changed to a template the same as
	// its child's was taken as unchanged: its record kept the old URL
	// while the stack's template had the new one.
	{226, plain, "R00 and R02 kept TemplateURL v0 after an UPDATE_COMPLETE to v1"},
	{597, plain, "R06 kept TemplateURL v0 after an UPDATE_COMPLETE by change set"},
	// An operation stopped before its first task (CancelUpdateStack right
	// after UpdateStack; a nested stack whose parent's step was cancelled
	// right after the child's create or update began) went on: beginning
	// its phase reset the stop.
	{15, calls, "CancelUpdateStack before v1's first task; R05 was updated after it"},
	{19, calls, "R20's child went on to CREATE_COMPLETE, R11's updated C0, after their steps were cancelled"},
	// A custom resource whose Create got no answer (no physical id) and
	// whose rollback's Delete failed was forgotten by the stack's delete:
	// no Delete sent again, RetainResources naming it did nothing, and the
	// stack ended DELETE_COMPLETE with it DELETE_FAILED.
	{311, calls, "R03 DELETE_FAILED after ROLLBACK_FAILED and OnFailure DELETE, retained, left DELETE_FAILED"},
	// A nested stack still rolling back by itself (cancelled by its
	// parent's update, which failed with rollback disabled) when the
	// parent's next update began its cleanup: the child held its cleanup
	// for the parent, which waited for it; both stuck.
	{9785, calls, "v2 rolled back at once; rnd stuck in UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS"},
	{16155, calls, "rnd stuck in UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS, a child's cleanup held"},
	{29054, calls, "v2 denied by the policy; R10's child held its cleanup after the parent's began"},
	// A replacement whose new physical resource was cancelled before its
	// handler named one, its rollback failed and skipped by
	// ContinueUpdateRollback: the record was UPDATE_COMPLETE with no
	// physical id (its dependents failed "has no physical resource", the
	// delete forgot it and left the old one in the account). The skip
	// points it back at its old physical resource (plan.Skip).
	{30082, plain, "R06 UPDATE_COMPLETE with no physical id after a skipped rollback of its replacement"},
	{42022, calls, "a skipped replacement left without a physical id"},
	{53816, calls, "a skipped replacement left without a physical id"},
	// An update's rollback replaced, at run time, a resource whose
	// forward replacement it had just put back: the new physical resource
	// got the generated name of the forward one (the same request key: one
	// client request token per operation), the handler answered that one
	// as an idempotent retry, and the rollback's cleanup, finding it the
	// resource's current one, released it as orphaned while the stack
	// still owned it. A rollback's requests derive names of their own.
	{2822, full, "R20's rollback replacement named as its forward one, owned and released"},
	{4447, full, "R36 and S0 owned by the stack and released (orphaned) after the rollback's replacement"},
	{4765, full, "R40 owned by the stack and released (orphaned) after the rollback's replacement"},
	// A cleanup's delete that failed after it took effect released
	// (orphaned) a physical resource the account no longer had; a later
	// replacement made it again under the same name, the stack's and
	// released at once (an import could have taken it from the stack).
	// Only what is still in the account is released.
	{5114, full, "R01's queue q5114-R01-v1 made again after its orphaned delete, owned and released"},
	{6682, full, "R00's topic t6682-R00-v0 made again after its orphaned delete, owned and released"},
	// An update's rollback replaced, at run time, a named resource whose
	// forward replacement (of that name) it had put back; the create
	// answered the forward one (the same request), and the rollback's
	// cleanup, which leaves a resource's current physical resource,
	// released it as orphaned all the same. A retired record that is its
	// resource's current physical resource stays the stack's.
	{9058, full, "R10's t9058-R10-v1, current after the rollback, released as orphaned by its cleanup"},
	{17425, full, "R20's rollback replacement current and released as orphaned"},
	{17520, full, "R20's rollback replacement current and released as orphaned"},
	{20249, full, "R10's rollback replacement current and released as orphaned"},
	{22508, full, "R41's rollback replacement current and released as orphaned"},
	// The worlds' model of the rollback triggers: an update that rolled
	// back (here by RollbackStack, after DisableRollback) puts back the
	// stack's configuration before it, so the next update was not watched
	// though the world thought so.
	{3528, watched, "v1's triggers gone with its RollbackStack; v2, the alarm in ALARM, completes"},
}

// worldKind says which of the random worlds' calls a world makes.
type worldKind int

const (
	// plain: none of the calls of random_calls_test.go (nor of
	// random_more_test.go).
	plain worldKind = iota
	// calls: those of random_calls_test.go, not the imports and signals
	// of random_more_test.go.
	calls
	// full: every call but the rollback triggers of random_triggers_test.go
	// (the regressions pinned before they were added).
	full
	// watched: every call and rollback triggers, no Auto Scaling group.
	watched
	// rolled: all of watched's, and in signal worlds an Auto Scaling
	// group whose updates roll (random_rolling_test.go).
	rolled
)

func TestRandomWorldRegressions(t *testing.T) {
	for _, r := range worldRegressions {
		t.Run(fmt.Sprintf("seed=%d", r.seed), func(t *testing.T) {
			t.Logf("regression: %s", r.why)
			runWorldIn(t, r.seed, "", ContractReport, r.kind)
		})
	}
}

// The check of a completed rollback: it holds for a rollback that returns
// every resource to what the stack recorded before the update, and fails
// for one that does not — above all for the wrong rollback of seed 9718's
// family, which puts back what a skipped resource really was instead of
// the template it is recorded as consistent with.
func TestNotRestored(t *testing.T) {
	const topic, other = "arn:aws:sns:us-east-1:123456789012:rnd-R15", "arn:aws:sns:us-east-1:123456789012:rnd-R16"
	// Before the update: R22 (Value: !Ref R18) was skipped by an earlier
	// ContinueUpdateRollback; the stack records it as its template says,
	// thing-R18, though it really holds the topic's ARN.
	before := map[string]snap{
		"R15": {phys: topic, props: map[string]any{"DisplayName": "none"}},
		"R18": {phys: "thing-R18", props: map[string]any{"ServiceToken": "thing"}},
		"R22": {phys: "CFN-R22", props: map[string]any{"Type": "String", "Value": "thing-R18"}, deps: []string{"R18"}},
	}
	rec := func(lid, typ, phys string, props map[string]any, mods ...func(*store.ResourceRecord)) *store.ResourceRecord {
		r := &store.ResourceRecord{LogicalResourceId: lid, ResourceType: typ, PhysicalResourceId: phys, Properties: props}
		for _, m := range mods {
			m(r)
		}
		return r
	}
	topicRec := rec("R15", "AWS::SNS::Topic", topic, map[string]any{"DisplayName": "none"})
	thingRec := rec("R18", "Custom::Thing", "thing-R18", map[string]any{"ServiceToken": "thing"})
	skipped := func(r *store.ResourceRecord) { r.Skipped = true }
	tests := []struct {
		name string
		now  []*store.ResourceRecord
		want string // a part of the problem; "" for none
	}{
		{"back to the recorded template", []*store.ResourceRecord{topicRec, thingRec,
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": "thing-R18"})}, ""},
		{"back to what the skipped resource really was", []*store.ResourceRecord{topicRec, thingRec,
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": topic})}, "R22: the rollback left"},
		{"left as the failed update made it", []*store.ResourceRecord{thingRec,
			rec("R15", "AWS::SNS::Topic", topic, map[string]any{"DisplayName": "new"}),
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": "thing-R18"})}, "R15: the rollback left"},
		{"a property lost", []*store.ResourceRecord{topicRec, thingRec,
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String"})}, "R22: the rollback left"},
		{"skipped again by this rollback", []*store.ResourceRecord{topicRec, thingRec,
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": other}, skipped)}, ""},
		{"replaced: another physical resource", []*store.ResourceRecord{topicRec, thingRec,
			rec("R22", "AWS::SSM::Parameter", "CFN-R22-NEW", map[string]any{"Type": "String", "Value": other})}, ""},
		{"what it refers to was replaced", []*store.ResourceRecord{topicRec,
			rec("R18", "Custom::Thing", "thing-R18-p1", map[string]any{"ServiceToken": "thing"}),
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": "thing-R18-p1"})}, ""},
		{"a custom resource answers what it likes", []*store.ResourceRecord{topicRec,
			rec("R18", "Custom::Thing", "thing-R18", map[string]any{"ServiceToken": "other"}),
			rec("R22", "AWS::SSM::Parameter", "CFN-R22", map[string]any{"Type": "String", "Value": "thing-R18"})}, ""},
		{"removed", []*store.ResourceRecord{topicRec, thingRec}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := notRestored(before, tt.now)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("the check fails a right rollback: %s", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("the check says %q of a wrong rollback, want a problem with %q", got, tt.want)
			}
		})
	}
}
