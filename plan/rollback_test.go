package plan

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/template"
)

// journalText renders a journal for golden files.
func journalText(j Journal) string {
	var b strings.Builder
	for _, e := range j {
		fmt.Fprintf(&b, "  step %d %s: %s", e.Step, e.LogicalID, e.Outcome)
		if e.Action != 0 {
			fmt.Fprintf(&b, " ran=%s", e.Action)
		}
		if e.OldPhysicalID != "" {
			fmt.Fprintf(&b, " old=%s", e.OldPhysicalID)
		}
		if e.NewPhysicalID != "" {
			fmt.Fprintf(&b, " new=%s", e.NewPhysicalID)
		}
		if e.OldDeleted {
			b.WriteString(" old-deleted")
		}
		if e.ReplacedAtRunTime {
			b.WriteString(" replaced-at-run-time")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// failAndRollBack runs an update plan in the world of tc with a failure,
// then its rollback, checks that the rollback restored the stack, and
// returns what happened for a golden file.
func failAndRollBack(t *testing.T, tc *testCase, forward *Plan, f failure, r *rand.Rand) string {
	t.Helper()
	w := tc.world
	before := w.snapshot()
	j, failed := w.exec(t, forward, tc.after, tc.before, f, r)
	if !failed {
		t.Fatalf("step %d did not fail the update", f.step)
	}
	rb, err := Rollback(forward, j, RollbackOptions{})
	if err != nil {
		t.Fatalf("Rollback: %v\njournal:\n%s", err, journalText(j))
	}
	checkPlan(t, rb)
	if _, failed := w.exec(t, rb, tc.before, tc.before, failure{}, r); failed {
		t.Fatal("the rollback failed")
	}
	checkRestored(t, w, before, tc.before, rb, j)
	return fmt.Sprintf("journal:\n%srollback:\n%s", journalText(j), rb)
}

// checkRestored checks that a world is back where it was: the same logical
// resources with the same properties, and no physical resource left over.
// A resource whose old physical resource the update deleted
// (DeleteThenCreate) is back as a new one; its dependents' properties then
// follow it, as the previous template resolves.
func checkRestored(t testing.TB, w *world, before snapshot, previous *template.Bound, rb *Plan, j Journal) {
	t.Helper()
	after := w.snapshot()
	ctx := func() string { return fmt.Sprintf("\njournal:\n%srollback:\n%s", journalText(j), rb) }
	if !reflect.DeepEqual(sortedKeys(after.current), sortedKeys(before.current)) {
		t.Fatalf("logical resources %v after the rollback, want %v%s", sortedKeys(after.current), sortedKeys(before.current), ctx())
	}
	recreated := false
	for l, p := range after.current {
		if p != before.current[l] {
			recreated = true
			if w.phys[p] == nil {
				t.Fatalf("%s points at %s, which does not exist%s", l, p, ctx())
			}
		}
	}
	for l := range after.current {
		want := before.props[l]
		if recreated {
			m, err := previous.Properties(l, w)
			if err != nil {
				t.Fatal(err)
			}
			want = m
		}
		if !valuesEqual(after.props[l], want) {
			t.Fatalf("%s has properties %v after the rollback, want %v%s", l, after.props[l], want, ctx())
		}
	}
	live := map[string]bool{}
	for _, p := range after.current {
		live[p] = true
	}
	if !reflect.DeepEqual(after.phys, live) {
		var extra []string
		for p := range after.phys {
			if !live[p] {
				extra = append(extra, p)
			}
		}
		sort.Strings(extra)
		t.Fatalf("physical resources left over after the rollback: %v%s", extra, ctx())
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestRollbackFiveResourceUpdate fails the update of five resources at each
// of its steps, with and without the failing step having made its physical
// resource, and checks each rollback plan (golden) and that running it
// restores the stack.
func TestRollbackFiveResourceUpdate(t *testing.T) {
	var out strings.Builder
	tc := loadCase(t, "update-rollback-five")
	forward := tc.update(t)
	fmt.Fprintf(&out, "forward:\n%s", forward)
	for _, s := range forward.In(PhaseUpdate) {
		for _, partial := range []bool{false, true} {
			name := fmt.Sprintf("fail at step %d (%s %s), partial=%v", s.ID, s.Action, s.LogicalID, partial)
			t.Run(name, func(t *testing.T) {
				tc := loadCase(t, "update-rollback-five")
				fmt.Fprintf(&out, "\n== %s\n", name)
				out.WriteString(failAndRollBack(t, tc, forward, failure{step: s.ID, partial: partial}, rand.New(rand.NewPCG(1, 1))))
			})
		}
	}
	golden(t, "update-rollback-five/rollbacks.golden", []byte(out.String()))
}

func TestRollbackOfCreate(t *testing.T) {
	b := bindTemplate(t, "create.yaml", []byte(`
Resources:
  A:
    Type: AWS::SQS::Queue
  B:
    Type: AWS::SQS::Queue
    DeletionPolicy: Retain
    Properties:
      QueueName: !GetAtt A.QueueName
  C:
    Type: AWS::SQS::Queue
    DeletionPolicy: RetainExceptOnCreate
  D:
    Type: Custom::Thing
    Properties:
      ServiceToken: !Ref A
  E:
    Type: AWS::SQS::Queue
    DeletionPolicy: Snapshot
    DependsOn: B
`), nil)
	p, err := ForCreate(b)
	if err != nil {
		t.Fatal(err)
	}
	j := Journal{
		{Step: 1, LogicalID: "A", Outcome: Done, NewPhysicalID: "a-1"},
		{Step: 2, LogicalID: "B", Outcome: Done, NewPhysicalID: "b-1"},
		{Step: 3, LogicalID: "C", Outcome: Done, NewPhysicalID: "c-1"},
		{Step: 4, LogicalID: "D", Outcome: Failed},    // a custom resource's failed Create: still a Delete
		{Step: 5, LogicalID: "E", Outcome: InFlight},  // never named a physical resource: Forget
		{Step: 5, LogicalID: "E", Outcome: Cancelled}, // the last entry counts
		{Step: 2, LogicalID: "B", Outcome: Done, NewPhysicalID: "b-1"},
	}
	for _, tt := range []struct {
		opts RollbackOptions
		want string
	}{
		{RollbackOptions{}, "C Delete c-1, D Delete -, E Forget -, B Retain b-1, A Delete a-1"},
		{RollbackOptions{RetainExceptOnCreate: true}, "C Delete c-1, D Delete -, E Forget -, B Delete b-1, A Delete a-1"},
	} {
		rb, err := Rollback(p, j, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		checkPlan(t, rb)
		if rb.Operation != OpRollback || rb.Phases()[0] != PhaseRollback {
			t.Errorf("operation %s", rb.Operation)
		}
		var got []string
		for _, s := range rb.Steps {
			phys := s.PhysicalID
			if phys == "" {
				phys = "-"
			}
			got = append(got, s.LogicalID+" "+s.Action.String()+" "+phys)
		}
		// Dependents before dependencies (B after E, A after B and D), ties in
		// plan order.
		if g := strings.Join(got, ", "); g != tt.want {
			t.Errorf("rollback %+v:\n got %s\nwant %s\n%s", tt.opts, g, tt.want, rb)
		}
	}
}

func TestRollbackErrors(t *testing.T) {
	tc := loadCase(t, "update-sequence-c")
	forward := tc.update(t)
	tests := []struct {
		name string
		p    *Plan
		j    Journal
		want string
	}{
		{"a delete has no rollback", &Plan{Operation: OpDelete}, nil, "no rollback"},
		{"unknown step", forward, Journal{{Step: 9, Outcome: Done}}, "does not have"},
		{"cleanup reached", forward, Journal{{Step: 1, Outcome: Done}, {Step: 2, Outcome: Done}, {Step: 3, Outcome: Failed}}, "reached its UPDATE_COMPLETE_CLEANUP_IN_PROGRESS"},
		{"wrong logical id", forward, Journal{{Step: 1, LogicalID: "Topic2", Outcome: Done}}, "names Topic2"},
		{"no outcome", forward, Journal{{Step: 1, LogicalID: "Topic1"}}, "no outcome"},
		{"not a forward action", forward, Journal{{Step: 1, Action: Retain, Outcome: Done}}, "not a forward action"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Rollback(tt.p, tt.j, RollbackOptions{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Rollback error = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestContinueRollback(t *testing.T) {
	tc := loadCase(t, "update-rollback-five")
	forward := tc.update(t)
	r := rand.New(rand.NewPCG(2, 2))
	// Fail at Alarm (the last step): everything else is done.
	last := forward.In(PhaseUpdate)[len(forward.In(PhaseUpdate))-1]
	j, _ := tc.world.exec(t, forward, tc.after, tc.before, failure{step: last.ID, partial: true}, r)
	rb, err := Rollback(forward, j, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// The rollback of Seeder (a custom resource's handler) fails; Policy's
	// Update never starts; the rest is done.
	var rj Journal
	var seeder, policy *Step
	for i := range rb.Steps {
		s := &rb.Steps[i]
		switch {
		case s.LogicalID == "Seeder" && s.Phase == PhaseUpdateRollback:
			seeder = s
			rj = append(rj, Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: Failed})
		case s.LogicalID == "Policy" && s.Phase == PhaseUpdateRollback:
			policy = s
		case s.Phase == PhaseUpdateRollback:
			rj = append(rj, Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: Done})
		}
	}
	if seeder == nil || policy == nil {
		t.Fatalf("rollback without Seeder or Policy steps:\n%s", rb)
	}

	cont, err := ContinueRollback(rb, rj, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, cont)
	ids := func(p *Plan) []int {
		var out []int
		for _, s := range p.Steps {
			out = append(out, s.ID)
		}
		return out
	}
	if cont.Step(seeder.ID) == nil || cont.Step(seeder.ID).Action != seeder.Action || cont.Step(policy.ID) == nil {
		t.Errorf("continued rollback lacks the failed or unstarted steps:\n%s", cont)
	}
	for _, s := range cont.Steps {
		if e, ok := rj.Last()[s.ID]; ok && e.Outcome == Done {
			t.Errorf("done step %d is planned again", s.ID)
		}
		for _, a := range s.After {
			if cont.Step(a) == nil {
				t.Errorf("step %d after %d, which is not in the plan", s.ID, a)
			}
		}
	}

	skipped, err := ContinueRollback(rb, rj, []string{"Seeder"})
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, skipped)
	if !reflect.DeepEqual(ids(skipped), ids(cont)) {
		t.Errorf("skipping changed the steps: %v vs %v", ids(skipped), ids(cont))
	}
	if s := skipped.Step(seeder.ID); s.Action != Skip || s.CallsHandler() {
		t.Errorf("Seeder's step is %s, want Skip without a handler call", s.Action)
	}
	golden(t, "update-rollback-five/continue.golden", []byte(fmt.Sprintf("rollback:\n%s\ncontinued:\n%s\nskipping Seeder:\n%s", rb, cont, skipped)))

	_, err = ContinueRollback(rb, rj, []string{"Seeder", "Queue", "Nope", "Nope"})
	var se *SkipError
	if !errors.As(err, &se) || !slices.Equal(se.LogicalIDs, []string{"Queue", "Nope"}) {
		t.Errorf("ContinueRollback error = %v, want a SkipError for [Queue Nope] (Queue's rollback is done)", err)
	}
	if _, err := ContinueRollback(forward, nil, nil); err == nil {
		t.Error("ContinueRollback of an update plan: no error")
	}
	if _, err := ContinueRollback(rb, Journal{{Step: 99, Outcome: Done}}, nil); err == nil {
		t.Error("ContinueRollback with a stray journal entry: no error")
	}
}

func TestContinueRollbackSettlesGuardedCleanup(t *testing.T) {
	rb := &Plan{Operation: OpUpdateRollback, Steps: []Step{
		{ID: 1, LogicalID: "A", Action: Update, Phase: PhaseUpdateRollback, PhysicalID: "a-1", Custom: true, Scope: []string{ScopeProperties}},
		{ID: 2, LogicalID: "B", Action: Update, Phase: PhaseUpdateRollback, PhysicalID: "b-1", Custom: true, Scope: []string{ScopeProperties}},
		{ID: 3, LogicalID: "C", Action: Update, Phase: PhaseUpdateRollback, PhysicalID: "c-1", Scope: []string{ScopeProperties}},
		{ID: 4, LogicalID: "A", Action: Delete, Phase: PhaseUpdateRollbackCleanup, PhysicalID: "a-1", Replaces: 1, IfReplaced: true},
		{ID: 5, LogicalID: "B", Action: Delete, Phase: PhaseUpdateRollbackCleanup, PhysicalID: "b-1", Replaces: 2, IfReplaced: true},
	}}
	j := Journal{
		{Step: 1, LogicalID: "A", Outcome: Done, OldPhysicalID: "a-1", NewPhysicalID: "a-2", ReplacedAtRunTime: true},
		{Step: 2, LogicalID: "B", Outcome: Done, OldPhysicalID: "b-1"},
		{Step: 3, LogicalID: "C", Outcome: Failed, OldPhysicalID: "c-1"},
	}
	cont, err := ContinueRollback(rb, j, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, cont)
	var got []string
	for _, s := range cont.Steps {
		got = append(got, fmt.Sprintf("%d %s %s replaces=%d", s.ID, s.LogicalID, s.Action, s.Replaces))
	}
	want := []string{"3 C Update replaces=0", "4 A Delete replaces=0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("continued steps %v, want %v", got, want)
	}
}

// A resource that never completed (CREATE_FAILED: a create that failed
// with rollback disabled, then an update) has nothing to update back: the
// rollback's cascade plans no Update for it, and does not reach through it
// (what it refers to does not change its value), even when what it refers
// to may come back with another id.
func TestRollbackCascadeSkipsResourcesThatNeverCompleted(t *testing.T) {
	forward := &Plan{Operation: OpUpdate,
		Steps: []Step{
			{ID: 1, LogicalID: "A", ResourceType: "Custom::A", Custom: true, Action: Update, Phase: PhaseUpdate, PhysicalID: "a-1", Scope: []string{ScopeProperties}},
		},
		Prior: []PriorResource{
			{LogicalID: "A", Type: "Custom::A", PhysicalID: "a-1", Status: "UPDATE_COMPLETE"},
			{LogicalID: "B", Type: "AWS::SNS::Topic", Status: "CREATE_FAILED", DependsOn: []string{"A"}},
			{LogicalID: "C", Type: "AWS::SQS::Queue", PhysicalID: "c-1", Status: "CREATE_COMPLETE", DependsOn: []string{"B"}},
			{LogicalID: "D", Type: "AWS::SQS::Queue", PhysicalID: "d-1", Status: "CREATE_COMPLETE", DependsOn: []string{"A"}},
		}}
	j := Journal{{Step: 1, LogicalID: "A", Outcome: Failed, OldPhysicalID: "a-1"}}
	rb, err := Rollback(forward, j, RollbackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkPlan(t, rb)
	var got []string
	for _, s := range rb.Steps {
		got = append(got, fmt.Sprintf("%s %s %s", s.Phase, s.LogicalID, s.Action))
	}
	want := []string{
		"UPDATE_ROLLBACK_IN_PROGRESS A Update",
		"UPDATE_ROLLBACK_IN_PROGRESS D Update",
		"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS D Delete",
		"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS A Delete",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rollback steps\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
