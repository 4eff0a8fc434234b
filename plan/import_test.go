package plan

import (
	"errors"
	"reflect"
	"testing"
)

func TestForImport(t *testing.T) {
	// An update plan: A kept, B and C added (C depends on B and on A), D
	// added too.
	update := &Plan{Operation: OpUpdate, Steps: []Step{
		{ID: 1, LogicalID: "A", ResourceType: "T", Action: NoOp, Phase: PhaseUpdate},
		{ID: 2, LogicalID: "B", ResourceType: "T", Action: Create, Phase: PhaseUpdate, DeletionPolicy: "Retain"},
		{ID: 3, LogicalID: "C", ResourceType: "T", Action: Create, Phase: PhaseUpdate, After: []int{1, 2}, DeletionPolicy: "Retain"},
		{ID: 4, LogicalID: "D", ResourceType: "T", Action: Create, Phase: PhaseUpdate},
	}}
	targets := []ImportTarget{{"B", "T", "b-1"}, {"C", "T", "c-1"}, {"D", "T", "d-1"}}
	p, err := ForImport(update, targets)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{ID: 1, LogicalID: "B", ResourceType: "T", Action: Import, Phase: PhaseImport, PhysicalID: "b-1", DeletionPolicy: "Retain"},
		{ID: 2, LogicalID: "C", ResourceType: "T", Action: Import, Phase: PhaseImport, PhysicalID: "c-1", After: []int{1}, DeletionPolicy: "Retain"},
		{ID: 3, LogicalID: "D", ResourceType: "T", Action: Import, Phase: PhaseImport, PhysicalID: "d-1"},
	}
	if !reflect.DeepEqual(p.Steps, want) {
		t.Fatalf("import plan\n got %+v\nwant %+v", p.Steps, want)
	}
	if ch := Changes(p); len(ch) != 3 || ch[1].ResourceChange.Action != ChangeImport || ch[1].ResourceChange.PhysicalResourceID != "c-1" {
		t.Fatalf("changes: %+v", ch)
	}

	// Rolled back after B was imported and C failed (D never started):
	// C and B are released, in reverse order.
	rb, err := ImportRollback(p, Journal{{Step: 1, Outcome: Done}, {Step: 2, Outcome: InFlight}, {Step: 2, Outcome: Failed}})
	if err != nil {
		t.Fatal(err)
	}
	if err := rb.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(rb.Steps) != 2 || rb.Steps[0].LogicalID != "C" || rb.Steps[1].LogicalID != "B" || rb.Steps[0].Action != Release || rb.Steps[1].Undoes != 1 {
		t.Fatalf("rollback %+v", rb.Steps)
	}
	if _, err := ImportRollback(update, nil); err == nil {
		t.Fatal("ImportRollback of an update plan was accepted")
	}

	// What an import may not be: D added without being imported, A
	// changed, a target the plan does not add.
	changed := &Plan{Operation: OpUpdate, Steps: append([]Step{}, update.Steps...)}
	changed.Steps[0].Action = Update
	for _, c := range []struct {
		plan    *Plan
		targets []ImportTarget
		want    ImportRefusal
	}{
		{update, targets[:2], ImportRefusal{Changed: []string{"D"}}},
		{changed, targets, ImportRefusal{Changed: []string{"A"}}},
		{update, append(targets[:3:3], ImportTarget{"A", "T", "a-1"}), ImportRefusal{NotAdded: []string{"A"}}},
	} {
		_, err := ForImport(c.plan, c.targets)
		var got *ImportRefusal
		if !errors.As(err, &got) || !reflect.DeepEqual(*got, c.want) {
			t.Fatalf("got %v (%+v), want %+v", err, got, c.want)
		}
	}
}

// TestWithImports: ImportExistingResources makes the Create steps of the
// resources that exist Import steps of the same phase and order; a
// rollback releases what it imported (whatever the DeletionPolicy: the
// operation did not create it) and deletes what it created.
func TestWithImports(t *testing.T) {
	create := &Plan{Operation: OpCreate, Steps: []Step{
		{ID: 1, LogicalID: "A", ResourceType: "T", Action: Create, Phase: PhaseCreate},
		{ID: 2, LogicalID: "B", ResourceType: "T", Action: Create, Phase: PhaseCreate, After: []int{1}, DeletionPolicy: "RetainExceptOnCreate"},
		{ID: 3, LogicalID: "C", ResourceType: "T", Action: Create, Phase: PhaseCreate, After: []int{2}},
	}}
	orig := append([]Step(nil), create.Steps...)
	p := WithImports(create, []ImportTarget{{"B", "T", "b-1"}, {"X", "T", "x-1"}})
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	want := append([]Step(nil), orig...)
	want[1].Action, want[1].PhysicalID = Import, "b-1"
	if !reflect.DeepEqual(p.Steps, want) {
		t.Fatalf("plan\n got %+v\nwant %+v", p.Steps, want)
	}
	if !reflect.DeepEqual(create.Steps, orig) {
		t.Fatal("WithImports changed the plan it was given")
	}
	if WithImports(create, nil) != create {
		t.Fatal("WithImports without targets made a new plan")
	}
	ch := Changes(p)
	if len(ch) != 3 || ch[1].ResourceChange.Action != ChangeImport || ch[1].ResourceChange.PhysicalResourceID != "b-1" || ch[0].ResourceChange.Action != ChangeAdd {
		t.Fatalf("changes: %+v", ch)
	}

	// The create failed at C, after A was made and B imported: A is
	// deleted, B released (not deleted, though RetainExceptOnCreate
	// deletes what a create made), in reverse order.
	rb, err := Rollback(p, Journal{{Step: 1, Outcome: Done, NewPhysicalID: "a-1"}, {Step: 2, Outcome: Done}, {Step: 3, Outcome: Failed}}, RollbackOptions{RetainExceptOnCreate: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rb.Validate(); err != nil {
		t.Fatal(err)
	}
	got := map[string]Step{}
	for _, s := range rb.Steps {
		got[s.LogicalID] = s
	}
	if b := got["B"]; b.Action != Release || b.PhysicalID != "b-1" || b.Undoes != 2 {
		t.Fatalf("B's rollback step %+v", b)
	}
	if a := got["A"]; a.Action != Delete || a.PhysicalID != "a-1" {
		t.Fatalf("A's rollback step %+v", a)
	}

	// In an update, the release is part of the cleanup of what the update
	// added.
	update := &Plan{Operation: OpUpdate, Prior: []PriorResource{{LogicalID: "A", Type: "T", PhysicalID: "a-1"}}, Steps: []Step{
		{ID: 1, LogicalID: "A", ResourceType: "T", Action: NoOp, Phase: PhaseUpdate, PhysicalID: "a-1"},
		{ID: 2, LogicalID: "B", ResourceType: "T", Action: Create, Phase: PhaseUpdate, After: []int{1}, DeletionPolicy: "Retain"},
		{ID: 3, LogicalID: "C", ResourceType: "T", Action: Create, Phase: PhaseUpdate, After: []int{2}},
	}}
	up := WithImports(update, []ImportTarget{{"B", "T", "b-1"}})
	urb, err := Rollback(up, Journal{{Step: 1, Outcome: Done}, {Step: 2, Outcome: Done}, {Step: 3, Outcome: Failed}}, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := urb.Validate(); err != nil {
		t.Fatal(err)
	}
	var release *Step
	for i := range urb.Steps {
		if urb.Steps[i].LogicalID == "B" {
			release = &urb.Steps[i]
		}
	}
	if release == nil || release.Action != Release || release.Phase != PhaseUpdateRollbackCleanup || release.PhysicalID != "b-1" {
		t.Fatalf("B's rollback step %+v in %+v", release, urb.Steps)
	}
}
