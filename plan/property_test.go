package plan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

// Property-based tests over random stacks: random dependency graphs of
// resources of four kinds (replaced create-then-delete, replaced
// delete-then-create, plain, custom), random updates of them, and a failure
// at every step of every update.

// The iteration counts, reported in the issue note.
const (
	propertyStacks = 250 // random stacks per property
)

var propertySchemas = Schemas(func(typeName string) Schema {
	switch typeName {
	case "Test::Thing::Ctd":
		return &resources.Schema{TypeName: typeName, CreateOnlyProperties: []string{"/properties/Name"},
			ConditionalCreateOnlyProperties: []string{"/properties/Mode"}}
	case "Test::Thing::Dtc":
		return &resources.Schema{TypeName: typeName, CreateOnlyProperties: []string{"/properties/Name"},
			Replacement: "delete_then_create"}
	}
	return nil
})

var propertyTypes = []string{"Test::Thing::Ctd", "Test::Thing::Dtc", "Test::Thing::Plain", "Custom::Thing"}

// spec is one resource of a random stack, in its two versions.
type spec struct {
	id                string
	typ               string
	inBefore, inAfter bool
	before, after     map[string]any // the resource's template JSON
}

// randomStacks makes the before and after templates of a random update:
// a universe of resources in a hidden order, each depending only on earlier
// ones, each present before, after or both, the after version a mutation of
// the before one.
func randomStacks(r *rand.Rand) (before, after []byte) {
	n := 2 + r.IntN(10)
	specs := make([]*spec, n)
	for i := range specs {
		s := &spec{id: fmt.Sprintf("R%02d", i), typ: propertyTypes[r.IntN(len(propertyTypes))]}
		switch x := r.IntN(10); {
		case i == 0 || x < 7: // every template has a resource
			s.inBefore, s.inAfter = true, true
		case x < 8:
			s.inBefore = true
		default:
			s.inAfter = true
		}
		specs[i] = s
	}
	for i, s := range specs {
		if s.inBefore {
			s.before = randomResource(r, s, specs[:i], func(o *spec) bool { return o.inBefore }, nil)
		}
		if s.inAfter {
			s.after = randomResource(r, s, specs[:i], func(o *spec) bool { return o.inAfter }, s.before)
		}
	}
	render := func(pick func(*spec) map[string]any) []byte {
		res := map[string]any{}
		for _, s := range specs {
			if m := pick(s); m != nil {
				res[s.id] = m
			}
		}
		b, err := json.Marshal(map[string]any{"Resources": res})
		if err != nil {
			panic(err)
		}
		return b
	}
	return render(func(s *spec) map[string]any { return s.before }),
		render(func(s *spec) map[string]any { return s.after })
}

// randomResource makes one version of a resource, referring only to
// earlier resources present in the same version. With prev, each property
// keeps its previous value with some probability (if what it refers to is
// still there), so that updates mix no-ops with every kind of change.
func randomResource(r *rand.Rand, s *spec, earlier []*spec, present func(*spec) bool, prev map[string]any) map[string]any {
	var deps []string
	for _, o := range earlier {
		if present(o) {
			deps = append(deps, o.id)
		}
	}
	dep := func() string { return deps[r.IntN(len(deps))] }
	props := map[string]any{}
	var prevProps map[string]any
	if prev != nil {
		prevProps, _ = prev["Properties"].(map[string]any)
	}
	keep := func(key string) bool {
		v, ok := prevProps[key]
		if !ok || r.IntN(10) < 3 {
			return false
		}
		for _, ref := range refsIn(v) {
			if !slices.Contains(deps, ref) {
				return false
			}
		}
		props[key] = v
		return true
	}
	if !keep("Name") {
		if len(deps) > 0 && r.IntN(3) == 0 {
			props["Name"] = map[string]any{"Fn::Sub": "${" + dep() + "}-" + s.id}
		} else {
			props["Name"] = fmt.Sprintf("%s-%d", s.id, r.IntN(3))
		}
	}
	if !keep("Value") {
		if len(deps) > 0 && r.IntN(2) == 0 {
			props["Value"] = map[string]any{"Fn::GetAtt": []any{dep(), "Arn"}}
		} else {
			props["Value"] = fmt.Sprint(r.IntN(3))
		}
	}
	if s.typ == "Test::Thing::Ctd" && !keep("Mode") {
		props["Mode"] = fmt.Sprintf("m%d", r.IntN(2))
	}
	if !keep("Refs") && len(deps) > 0 && r.IntN(2) == 0 {
		refs := []any{}
		for k := r.IntN(3); k > 0; k-- {
			refs = append(refs, map[string]any{"Ref": dep()})
		}
		props["Refs"] = refs
	}
	if s.typ == "Custom::Thing" {
		props["ServiceToken"] = "arn:aws:lambda:us-east-1:123456789012:function:thing"
	}
	out := map[string]any{"Type": s.typ, "Properties": props}
	if len(deps) > 0 && r.IntN(4) == 0 {
		out["DependsOn"] = []any{dep()}
	}
	if r.IntN(4) == 0 {
		out["DeletionPolicy"] = "RetainExceptOnCreate"
	}
	return out
}

// refsIn lists the resources a template value refers to.
func refsIn(v any) []string {
	var out []string
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := t["Ref"].(string); ok {
			return []string{ref}
		}
		if ga, ok := t["Fn::GetAtt"].([]any); ok {
			return []string{ga[0].(string)}
		}
		if sub, ok := t["Fn::Sub"].(string); ok {
			var id string
			fmt.Sscanf(sub, "${%3s}", &id)
			return []string{id}
		}
		for _, e := range t {
			out = append(out, refsIn(e)...)
		}
	case []any:
		for _, e := range t {
			out = append(out, refsIn(e)...)
		}
	}
	return out
}

// randomCase makes a test case from a random update.
func randomCase(t *testing.T, seed uint64) *testCase {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 99))
	before, after := randomStacks(r)
	tc := &testCase{name: fmt.Sprintf("random-%d", seed)}
	tc.before = bindTemplate(t, tc.name+"/before.json", before, nil)
	tc.after = bindTemplate(t, tc.name+"/after.json", after, nil)
	tc.world = newWorld(propertySchemas)
	tc.deployed = tc.world.deploy(t, tc.before, nil)
	return tc
}

func (tc *testCase) randomUpdate(t *testing.T) *Plan {
	t.Helper()
	p, err := ForUpdate(UpdateInput{Deployed: tc.deployed, Desired: tc.after, Live: tc.world, Schemas: propertySchemas})
	if err != nil {
		t.Fatalf("%s: ForUpdate: %v", tc.name, err)
	}
	checkPlan(t, p)
	return p
}

// checkEdges checks that a plan's order respects every dependency: in the
// forward phase each desired dependency comes first and is in After; in the
// cleanup phase each deployed dependency comes after, with an edge.
func checkEdges(t *testing.T, tc *testCase, p *Plan) {
	t.Helper()
	pos := map[string]map[Phase]int{}
	for i, s := range p.Steps {
		if pos[s.LogicalID] == nil {
			pos[s.LogicalID] = map[Phase]int{}
		}
		pos[s.LogicalID][s.Phase] = i
	}
	for i, s := range p.Steps {
		switch s.Phase {
		case PhaseUpdate, PhaseCreate:
			for _, dep := range tc.after.DependsOn(s.LogicalID) {
				j, ok := pos[dep][s.Phase]
				if !ok || j >= i || !slices.Contains(s.After, p.Steps[j].ID) {
					t.Fatalf("%s: step %d (%s) does not come after its dependency %s\n%s", tc.name, s.ID, s.LogicalID, dep, p)
				}
			}
		case PhaseUpdateCleanup:
			for _, d := range tc.deployed.Resources {
				if d.LogicalID != s.LogicalID {
					continue
				}
				for _, dep := range d.DependsOn {
					if j, ok := pos[dep][s.Phase]; ok && (j <= i || !slices.Contains(p.Steps[j].After, s.ID)) {
						t.Fatalf("%s: cleanup of %s does not come before the cleanup of its dependency %s\n%s", tc.name, s.LogicalID, dep, p)
					}
				}
			}
		}
	}
}

// TestPropertyUpdateOrderAndOutcome: every random update's plan respects
// every edge, and running it without failure gives the desired stack with
// nothing left over.
func TestPropertyUpdateOrderAndOutcome(t *testing.T) {
	for seed := uint64(0); seed < propertyStacks; seed++ {
		tc := randomCase(t, seed)
		p := tc.randomUpdate(t)
		checkEdges(t, tc, p)
		r := rand.New(rand.NewPCG(seed, 7))
		j, failed := tc.world.exec(t, p, tc.after, tc.before, failure{}, r)
		if failed {
			t.Fatalf("%s: the update failed without a failure", tc.name)
		}
		w := tc.world
		want := tc.after.Resources()
		if len(w.current) != len(want) {
			t.Fatalf("%s: %d resources after the update, want %d\n%s%s", tc.name, len(w.current), len(want), p, journalText(j))
		}
		live := map[string]bool{}
		for _, res := range want {
			m, err := tc.after.Properties(res.LogicalID, w)
			if err != nil {
				t.Fatal(err)
			}
			phys := w.current[res.LogicalID]
			live[phys] = true
			if !valuesEqual(w.phys[phys].props, m) {
				t.Fatalf("%s: %s has %v after the update, want %v\n%s%s", tc.name, res.LogicalID, w.phys[phys].props, m, p, journalText(j))
			}
		}
		for id := range w.phys {
			if !live[id] {
				t.Fatalf("%s: physical resource %s left over after the update\n%s%s", tc.name, id, p, journalText(j))
			}
		}
	}
}

// TestPropertyUpdateRollbackRestores: for every random update and every
// step of its forward phase, a failure there (having made its physical
// resource or not, the steps in flight beside it cancelled) followed by the
// rollback the journal asks for restores the original resources and
// properties, with nothing left over.
func TestPropertyUpdateRollbackRestores(t *testing.T) {
	rollbacks := 0
	for seed := uint64(0); seed < propertyStacks; seed++ {
		p := randomCase(t, seed).randomUpdate(t)
		for _, s := range p.In(PhaseUpdate) {
			if s.Action == NoOp {
				continue
			}
			for _, partial := range []bool{false, true} {
				tc := randomCase(t, seed)
				failAndRollBack(t, tc, p, failure{step: s.ID, partial: partial}, rand.New(rand.NewPCG(seed, uint64(s.ID))))
				rollbacks++
			}
		}
	}
	t.Logf("%d random stacks, %d failed updates rolled back", propertyStacks, rollbacks)
}

// TestPropertyCreateRollbackRestores: a failure at every step of a random
// create, rolled back, leaves nothing behind.
func TestPropertyCreateRollbackRestores(t *testing.T) {
	rollbacks := 0
	for seed := uint64(0); seed < propertyStacks; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		_, after := randomStacks(r)
		b := bindTemplate(t, "create.json", after, nil)
		p, err := ForCreate(b)
		if err != nil {
			t.Fatal(err)
		}
		checkPlan(t, p)
		tc := &testCase{name: fmt.Sprintf("create-%d", seed), after: b}
		checkEdges(t, tc, p)
		for _, s := range p.Steps {
			for _, partial := range []bool{false, true} {
				w := newWorld(propertySchemas)
				j, failed := w.exec(t, p, b, b, failure{step: s.ID, partial: partial}, r)
				if !failed {
					t.Fatal("no failure")
				}
				rb, err := Rollback(p, j, RollbackOptions{})
				if err != nil {
					t.Fatal(err)
				}
				checkPlan(t, rb)
				if _, failed := w.exec(t, rb, b, b, failure{}, r); failed {
					t.Fatal("rollback failed")
				}
				if len(w.current) != 0 || len(w.phys) != 0 {
					t.Fatalf("%s: after the rollback of a failure at step %d: current %v, physical %d\n%s%s", tc.name, s.ID, w.current, len(w.phys), journalText(j), rb)
				}
				rollbacks++
			}
		}
	}
	t.Logf("%d random stacks, %d failed creates rolled back", propertyStacks, rollbacks)
}
