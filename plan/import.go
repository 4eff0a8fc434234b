package plan

import "slices"

// Resource import (an IMPORT change set): existing physical resources come
// into a stack. The import's template is the whole stack, the imported
// resources added; CloudFormation refuses an import that changes anything
// else.

// ImportTarget is one member of CreateChangeSet's ResourcesToImport: the
// logical resource, its type and the physical resource's identifier
// (PhysicalID: its primary identifier's values, joined with "|").
type ImportTarget struct {
	LogicalID    string
	ResourceType string
	PhysicalID   string
}

// ImportRefusal says why a plan cannot be an import: Changed are the
// resources the template creates (not imported), updates or removes;
// NotAdded the targets the template does not add (already in the stack, or
// not in the template at all). Both in plan, then target, order.
type ImportRefusal struct {
	Changed  []string
	NotAdded []string
}

func (r *ImportRefusal) Error() string {
	return "plan: the template changes more than the imported resources"
}

// ForImport turns p, the create or update plan of the import's template
// against the deployed stack, into the import's plan: an Import step for
// each target, which p must add, in p's order, each after the imports it
// depends on. A plan that changes anything else, or does not add every
// target, is an *ImportRefusal.
func ForImport(p *Plan, targets []ImportTarget) (*Plan, error) {
	byID := make(map[string]*ImportTarget, len(targets))
	for i := range targets {
		byID[targets[i].LogicalID] = &targets[i]
	}
	refusal := &ImportRefusal{}
	out := &Plan{Operation: OpImport}
	ids := map[int]int{} // p's step ID → the import step's
	added := map[string]bool{}
	for i := range p.Steps {
		s := &p.Steps[i]
		t := byID[s.LogicalID]
		switch {
		case s.Action == NoOp:
			continue
		case s.Action == Create && t != nil && (s.Phase == PhaseCreate || s.Phase == PhaseUpdate):
			step := Step{
				ID: len(out.Steps) + 1, LogicalID: s.LogicalID, ResourceType: s.ResourceType,
				Action: Import, Phase: PhaseImport, PhysicalID: t.PhysicalID, Custom: s.Custom,
				DeletionPolicy: s.DeletionPolicy, UpdateReplacePolicy: s.UpdateReplacePolicy,
			}
			for _, a := range s.After {
				if id, ok := ids[a]; ok {
					step.After = append(step.After, id)
				}
			}
			sortInts(step.After)
			ids[s.ID] = step.ID
			added[s.LogicalID] = true
			out.Steps = append(out.Steps, step)
		case s.Replaces != 0:
			// The cleanup of a replacement: its Modify is counted.
		default:
			if !slices.Contains(refusal.Changed, s.LogicalID) {
				refusal.Changed = append(refusal.Changed, s.LogicalID)
			}
		}
	}
	for _, t := range targets {
		if !added[t.LogicalID] {
			refusal.NotAdded = append(refusal.NotAdded, t.LogicalID)
		}
	}
	if len(refusal.Changed) > 0 || len(refusal.NotAdded) > 0 {
		return nil, refusal
	}
	return out, nil
}

// WithImports returns p, a create or update plan, with the Create steps of
// the targets made Import steps of the same phase, order and dependencies:
// a change set with ImportExistingResources adopts the existing resources
// its template names and creates the rest. A target that p does not add
// (a Create of its forward phase, not a replacement) is left out.
func WithImports(p *Plan, targets []ImportTarget) *Plan {
	if len(targets) == 0 || (p.Operation != OpCreate && p.Operation != OpUpdate) {
		return p
	}
	byID := make(map[string]*ImportTarget, len(targets))
	for i := range targets {
		byID[targets[i].LogicalID] = &targets[i]
	}
	out := *p
	out.Steps = slices.Clone(p.Steps)
	for i := range out.Steps {
		s := &out.Steps[i]
		t := byID[s.LogicalID]
		if t == nil || s.Action != Create || s.Replaces != 0 || (s.Phase != PhaseCreate && s.Phase != PhaseUpdate) {
			continue
		}
		s.Action, s.PhysicalID = Import, t.PhysicalID
	}
	return &out
}

// ImportRollback plans the rollback of an import from its journal: a
// Release of every resource whose import started (imported, failed or cut
// short), in reverse order. They leave the stack; nothing is deleted.
func ImportRollback(forward *Plan, journal Journal) (*Plan, error) {
	if forward.Operation != OpImport {
		return nil, errNotImport(forward.Operation)
	}
	last := journal.Last()
	out := &Plan{Operation: OpImportRollback}
	for i := len(forward.Steps) - 1; i >= 0; i-- {
		s := &forward.Steps[i]
		if _, ran := last[s.ID]; !ran {
			continue
		}
		out.Steps = append(out.Steps, Step{
			ID: len(out.Steps) + 1, LogicalID: s.LogicalID, ResourceType: s.ResourceType,
			Action: Release, Phase: PhaseImportRollback, PhysicalID: s.PhysicalID, Custom: s.Custom,
			DeletionPolicy: s.DeletionPolicy, UpdateReplacePolicy: s.UpdateReplacePolicy, Undoes: s.ID,
		})
	}
	return out, nil
}

type errNotImport Operation

func (e errNotImport) Error() string {
	return "plan: ImportRollback of a " + string(e) + " plan, not an IMPORT one"
}
