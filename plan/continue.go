package plan

import (
	"fmt"
	"slices"
)

// ContinueRollback plans what is left of an update's rollback that stopped
// (UPDATE_ROLLBACK_FAILED), for ContinueUpdateRollback: the steps of the
// rollback plan that are not done by the journal of its run — failed ones
// are tried again — with the rollback-phase steps of the resources in skip
// (ResourcesToSkip) turned into Skip: the resource is marked UPDATE_COMPLETE
// without a handler call, and is left as it is, out of step with the
// template. The cleanup of what the update created still runs.
//
// The steps keep their IDs, so that the journal of the continued run goes on
// from the same numbering (an engine may keep one journal across
// continuations). A cleanup step guarded by a replacing step that is done is
// settled now: dropped when that step did not replace, kept unguarded when
// it did. A name in skip that has no rollback step left is a
// *SkipError; checking that each skipped resource is UPDATE_FAILED because
// its rollback failed, and the NestedStack.LogicalId form of nested stacks'
// resources, is the engine's job.
func ContinueRollback(rollback *Plan, journal Journal, skip []string) (*Plan, error) {
	if rollback.Operation != OpUpdateRollback {
		return nil, fmt.Errorf("plan: only an update's rollback continues, not a %s plan", rollback.Operation)
	}
	last := journal.Last()
	for id := range last {
		if rollback.Step(id) == nil {
			return nil, fmt.Errorf("plan: journal entry for step %d, which the rollback plan does not have", id)
		}
	}
	skipped := make(map[string]bool, len(skip))
	for _, id := range skip {
		skipped[id] = false
	}
	p := &Plan{Operation: OpUpdateRollback}
	left := make(map[int]bool, len(rollback.Steps))
	for _, s := range rollback.Steps {
		if e, ok := last[s.ID]; ok && e.Outcome == Done {
			continue
		}
		if s.Replaces != 0 {
			// A guarded cleanup whose replacing step is done is decided
			// now, so that the continued plan holds all it needs.
			if e, done := last[s.Replaces]; done && e.Outcome == Done {
				if !NeedsCleanup(&s, rollback.Step(s.Replaces), e) {
					continue
				}
				s.Replaces, s.IfReplaced = 0, false
			}
		}
		left[s.ID] = true
		if _, named := skipped[s.LogicalID]; named && s.Phase == PhaseUpdateRollback {
			skipped[s.LogicalID] = true
			s.Action = Skip
			s.Scope, s.PolicyAction = nil, ""
		}
		p.Steps = append(p.Steps, s)
	}
	var missing []string
	for _, id := range skip {
		if !skipped[id] && !slices.Contains(missing, id) {
			missing = append(missing, id)
		}
	}
	if missing != nil {
		return nil, &SkipError{LogicalIDs: missing}
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		after := s.After[:0:0]
		for _, a := range s.After {
			if left[a] {
				after = append(after, a)
			}
		}
		s.After = after
		if len(s.After) == 0 {
			s.After = nil
		}
	}
	return p, nil
}
