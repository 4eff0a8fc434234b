package plan

import "slices"

// ForCreate plans the creation of a stack: a Create step for every resource the
// bound template holds (its conditions applied), in dependency order, ties
// in template order, in the phase CREATE_IN_PROGRESS. Properties are not
// resolved here: the engine resolves each resource's properties against the
// live values when its step starts. A dependency cycle is a *CycleError.
func ForCreate(desired Bound) (*Plan, error) {
	f, err := newForward(desired)
	if err != nil {
		return nil, err
	}
	p := &Plan{Operation: OpCreate, Steps: make([]Step, len(f.order))}
	for k, v := range f.order {
		r := f.resources[v]
		p.Steps[k] = Step{
			ID:                  k + 1,
			LogicalID:           r.LogicalID,
			ResourceType:        r.Type,
			Action:              Create,
			Phase:               PhaseCreate,
			After:               f.after(v),
			Custom:              IsCustom(r.Type),
			DeletionPolicy:      policy(desired.DeletionPolicy(r.LogicalID)),
			UpdateReplacePolicy: policy(desired.UpdateReplacePolicy(r.LogicalID)),
		}
	}
	return p, nil
}

func sortInts(s []int) { slices.Sort(s) }
