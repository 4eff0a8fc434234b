package plan

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/plan/graph"
	"github.com/stacksim/stacksim/template"
)

func TestTypeChangeIsRefused(t *testing.T) {
	before := bindTemplate(t, "before.yaml", []byte("Resources:\n  A:\n    Type: AWS::SQS::Queue\n  B:\n    Type: AWS::SQS::Queue\n"), nil)
	after := bindTemplate(t, "after.yaml", []byte("Resources:\n  A:\n    Type: AWS::SNS::Topic\n  B:\n    Type: AWS::SNS::Topic\n"), nil)
	w := newWorld(nil)
	_, err := ForUpdate(UpdateInput{Deployed: w.deploy(t, before, nil), Desired: after, Live: w})
	var te *TypeChangeError
	if !errors.As(err, &te) || !reflect.DeepEqual(te.LogicalIDs, []string{"A", "B"}) {
		t.Fatalf("ForUpdate error = %v, want a TypeChangeError for [A B]", err)
	}
	want := "Update of resource type is not permitted. The new template modifies resource type of the following resources: [A, B]"
	if err.Error() != want {
		t.Errorf("message %q", err.Error())
	}
}

func TestCycleErrorWording(t *testing.T) {
	// Bind refuses cycles before the planner sees them; the planner's own
	// check words what it finds the same way.
	f := &forward{resources: []*template.Resource{{LogicalID: "A"}, {LogicalID: "B"}, {LogicalID: "C"}, {LogicalID: "D"}}}
	err := f.cycleError(&graph.CycleError{Cycles: [][]int{{0, 2}, {3}}})
	want := "Circular dependency between resources: [A, C]; Circular dependency between resources: [D]"
	var ce *CycleError
	if !errors.As(err, &ce) || err.Error() != want {
		t.Errorf("cycleError = %v, want %q", err, want)
	}
}

func TestValidate(t *testing.T) {
	ok := &Plan{Operation: OpUpdate, Steps: []Step{
		{ID: 1, Action: Update, Phase: PhaseUpdate},
		{ID: 2, Action: Create, Phase: PhaseUpdate, After: []int{1}},
		{ID: 3, Action: Delete, Phase: PhaseUpdateCleanup},
	}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    *Plan
		want string
	}{
		{"unknown operation", &Plan{Operation: "EXPLODE"}, "unknown operation"},
		{"zero ID", &Plan{Operation: OpCreate, Steps: []Step{{Action: Create, Phase: PhaseCreate}}}, "positive"},
		{"duplicate ID", &Plan{Operation: OpCreate, Steps: []Step{{ID: 1, Action: Create, Phase: PhaseCreate}, {ID: 1, Action: Create, Phase: PhaseCreate}}}, "duplicate"},
		{"foreign phase", &Plan{Operation: OpCreate, Steps: []Step{{ID: 1, Action: Create, Phase: PhaseDelete}}}, "not a phase of CREATE"},
		{"phases out of order", &Plan{Operation: OpUpdate, Steps: []Step{{ID: 1, Action: Delete, Phase: PhaseUpdateCleanup}, {ID: 2, Action: Update, Phase: PhaseUpdate}}}, "after a later phase"},
		{"no action", &Plan{Operation: OpCreate, Steps: []Step{{ID: 1, Phase: PhaseCreate}}}, "invalid action"},
		{"after a later step", &Plan{Operation: OpCreate, Steps: []Step{{ID: 1, Action: Create, Phase: PhaseCreate, After: []int{2}}, {ID: 2, Action: Create, Phase: PhaseCreate}}}, "not an earlier step"},
		{"replaces nothing", &Plan{Operation: OpUpdate, Steps: []Step{{ID: 1, Action: Delete, Phase: PhaseUpdateCleanup, Replaces: 7}}}, "replaces 7"},
		{"after another phase", &Plan{Operation: OpUpdate, Steps: []Step{{ID: 1, Action: Update, Phase: PhaseUpdate}, {ID: 2, Action: Delete, Phase: PhaseUpdateCleanup, After: []int{1}}}}, "not an earlier step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.p.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestNoUpdates(t *testing.T) {
	p := loadCase(t, "update-no-changes").update(t)
	if p.HasChanges() {
		t.Errorf("HasChanges() on\n%s", p)
	}
	if c := Changes(p); c == nil || len(c) != 0 {
		t.Errorf("Changes() = %#v, want an empty list", c)
	}
	if b, _ := json.Marshal(Changes(p)); string(b) != "[]" {
		t.Errorf("Changes JSON %s", b)
	}
	if !loadCase(t, "update-sequence-c").update(t).HasChanges() {
		t.Error("HasChanges() false for a real update")
	}
}

func TestChangesOnlyForCreateAndUpdate(t *testing.T) {
	tc := loadCase(t, "delete-policies")
	if c := Changes(ForDelete(tc.deployed, nil)); len(c) != 0 {
		t.Errorf("Changes of a delete plan: %v", c)
	}
}

func TestWithoutValues(t *testing.T) {
	changes := Changes(loadCase(t, "update-sequence-c").update(t))
	bare := WithoutValues(changes)
	for _, c := range bare {
		for _, d := range c.ResourceChange.Details {
			if d.Target.BeforeValue != "" || d.Target.AfterValue != "" {
				t.Errorf("%s still has values", c.ResourceChange.LogicalResourceID)
			}
		}
	}
	if changes[0].ResourceChange.Details[0].Target.AfterValue == "" {
		t.Error("WithoutValues changed its input")
	}
}

func TestNeedsCleanup(t *testing.T) {
	fwd := &Step{ID: 1, Action: Update, PhysicalID: "old", Replacement: ReplacementConditional}
	cleanup := &Step{ID: 2, Action: Delete, PhysicalID: "old", Replaces: 1, IfReplaced: true}
	removed := &Step{ID: 3, Action: Delete, PhysicalID: "gone"}
	tests := []struct {
		name string
		s    *Step
		e    Entry
		want bool
	}{
		{"a removed resource always", removed, Entry{}, true},
		{"updated in place", cleanup, Entry{Step: 1, Outcome: Done, OldPhysicalID: "old"}, false},
		{"turned out a replacement", cleanup, Entry{Step: 1, Outcome: Done, Action: CreateThenDelete, OldPhysicalID: "old", NewPhysicalID: "new"}, true},
		{"delete-then-create: old already gone", cleanup, Entry{Step: 1, Outcome: Done, Action: DeleteThenCreate, OldDeleted: true, NewPhysicalID: "new"}, false},
		{"custom answered a new id", cleanup, Entry{Step: 1, Outcome: Done, OldPhysicalID: "old", NewPhysicalID: "new", ReplacedAtRunTime: true}, true},
		{"custom kept its id", cleanup, Entry{Step: 1, Outcome: Done, OldPhysicalID: "old", NewPhysicalID: "old", ReplacedAtRunTime: true}, false},
		{"replacement failed", cleanup, Entry{Step: 1, Outcome: Failed, Action: CreateThenDelete, NewPhysicalID: "new"}, false},
	}
	for _, tt := range tests {
		if got := NeedsCleanup(tt.s, fwd, tt.e); got != tt.want {
			t.Errorf("%s: NeedsCleanup = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestCallsHandler(t *testing.T) {
	tests := []struct {
		s    Step
		want bool
	}{
		{Step{Action: Create}, true},
		{Step{Action: Update, Scope: []string{ScopeProperties, ScopeMetadata}}, true},
		{Step{Action: Update, Scope: []string{ScopeMetadata}}, false},
		{Step{Action: Update, Scope: []string{ScopeDeletionPolicy}}, false},
		{Step{Action: Restore}, false},
		{Step{Action: Restore, Custom: true}, true},
		{Step{Action: Retain}, false},
		{Step{Action: Snapshot}, false},
		{Step{Action: Forget}, false},
		{Step{Action: Skip}, false},
		{Step{Action: Delete}, true},
		{Step{Action: DeleteThenCreate}, true},
	}
	for _, tt := range tests {
		if got := tt.s.CallsHandler(); got != tt.want {
			t.Errorf("%s %v: CallsHandler = %v", tt.s.Action, tt.s.Scope, got)
		}
	}
}

func TestIsCustom(t *testing.T) {
	for typ, want := range map[string]bool{
		"AWS::CloudFormation::CustomResource": true, "Custom::Anything": true,
		"AWS::SNS::Topic": false, "AWS::CloudFormation::Stack": false,
	} {
		if IsCustom(typ) != want {
			t.Errorf("IsCustom(%s) = %v", typ, !want)
		}
	}
}

func TestPlanJSONShape(t *testing.T) {
	p := loadCase(t, "update-sequence-c").update(t)
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "update-sequence-c/plan.golden.json", append(b, '\n'))
}
