package engine

import (
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/plan"
)

// TestPlanIndex: where each step is and which steps wait on it, for a plan
// numbered as the planner numbers (dense) and for one whose IDs are sparse
// (a state file's), against the plain reading of the plan.
func TestPlanIndex(t *testing.T) {
	for _, c := range []struct {
		name  string
		ids   []int
		after map[int][]int
	}{
		{"dense", []int{1, 2, 3, 4, 6}, map[int][]int{2: {1}, 3: {1, 2}, 6: {3, 4}}},
		{"sparse", []int{7, 100000, 5000000}, map[int][]int{100000: {7}, 5000000: {7, 100000}}},
		{"empty", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := &plan.Plan{}
			for _, id := range c.ids {
				p.Steps = append(p.Steps, plan.Step{ID: id, After: c.after[id]})
			}
			ix := newPlanIndex(p)
			for i, id := range c.ids {
				if at, ok := ix.stepAt(id); !ok || at != i {
					t.Errorf("stepAt(%d) = %d, %v; want %d", id, at, ok, i)
				}
				var want []int
				for _, other := range c.ids {
					for _, a := range c.after[other] {
						if a == id {
							want = append(want, other)
						}
					}
				}
				if got := ix.dependentsOf(id); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
					t.Errorf("dependentsOf(%d) = %v, want %v", id, got, want)
				}
			}
			for _, id := range []int{-1, 0, 5, 8, 1 << 30} {
				if _, ok := ix.stepAt(id); ok {
					t.Errorf("stepAt(%d) found a step the plan does not have", id)
				}
				if got := ix.dependentsOf(id); got != nil {
					t.Errorf("dependentsOf(%d) = %v for a step the plan does not have", id, got)
				}
			}
		})
	}
}
