package plan

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/plan/graph"
)

// Plan is the ordered actions of one stack operation. It is data: built,
// printed, stored (as JSON, in the engine's state file) and tested without
// executing anything.
//
// Steps lie phase by phase in the order of Operation.Phases(), and within a
// phase in a topological order (ties in template order): every step's After
// names steps of its own phase that come before it.
type Plan struct {
	Operation Operation `json:"operation"`
	Steps     []Step    `json:"steps"`
	// Prior, on an update plan, is the deployed stack the update starts
	// from, in deployed order: what its rollback needs to put the stack back
	// in the previous template's order.
	Prior []PriorResource `json:"prior,omitempty"`
	// Contexts, when asked for, are the steps' BeforeContext and
	// AfterContext by step ID (contexts.go); not kept in the plan's JSON.
	Contexts map[int]Context `json:"-"`
}

// PriorResource is a resource of the deployed stack as an update plan
// records it for its rollback.
type PriorResource struct {
	LogicalID           string   `json:"logicalId"`
	Type                string   `json:"type"`
	PhysicalID          string   `json:"physicalId,omitempty"`
	DependsOn           []string `json:"dependsOn,omitempty"`
	DeletionPolicy      string   `json:"deletionPolicy,omitempty"`
	UpdateReplacePolicy string   `json:"updateReplacePolicy,omitempty"`
	// Status is the resource's status when the update started
	// (DeployedResource.Status): a resource that never completed
	// (CREATE_FAILED) has nothing for the rollback to update back.
	Status string `json:"status,omitempty"`
}

// completed tells whether the resource ever got to a state it can be
// updated from ("" — a plan stored before Status was recorded — counts as
// completed; the engine skips an Update of a resource it cannot update).
func (pr *PriorResource) completed() bool { return pr.Status != statusCreateFailed }

// Step is one action on one resource.
//
// The engine runs the phases of a plan one after the other; within a phase
// it starts a step as soon as every step of After is done, so that
// independent resources run at once. After holds the step's direct
// dependencies within its phase; the phases themselves are the barrier
// between, say, the creates of an update and its cleanup deletes.
type Step struct {
	// ID identifies the step in its plan (and in a Journal). Plans made by
	// Create, Update, Delete and Rollback number their steps 1, 2, ... in
	// order; ContinueRollback keeps the IDs of the rollback it continues.
	ID           int    `json:"id"`
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
	Action       Action `json:"action"`
	Phase        Phase  `json:"phase"`
	// After are the steps of the same phase that must be done first.
	After []int `json:"after,omitempty"`
	// PhysicalID is the physical resource acted on: for an update or a
	// replacement the current (old) one, for a delete the one deleted, for
	// a Restore the one the logical resource goes back to.
	PhysicalID string `json:"physicalId,omitempty"`
	// NewPhysicalID, on rollback steps, is the physical resource the failed
	// operation made that the step leaves behind (Restore) or replaces
	// (DeleteThenCreate of a rollback).
	NewPhysicalID string `json:"newPhysicalId,omitempty"`
	// Custom marks a custom resource (AWS::CloudFormation::CustomResource,
	// Custom::*): every property change is an Update, which its handler may
	// turn into a replacement by answering a new physical id.
	Custom bool `json:"custom,omitempty"`

	// Replacement, PolicyAction, Scope and Details are the change-set view
	// of a create or update step (see Changes).
	Replacement  Replacement `json:"replacement,omitempty"`
	PolicyAction string      `json:"policyAction,omitempty"`
	Scope        []string    `json:"scope,omitempty"`
	Details      []Detail    `json:"details,omitempty"`

	// DeletionPolicy and UpdateReplacePolicy of the resource, as the template
	// the step works towards sets them ("Delete" when it sets none). A
	// rollback needs them to undo what the step made.
	DeletionPolicy      string `json:"deletionPolicy,omitempty"`
	UpdateReplacePolicy string `json:"updateReplacePolicy,omitempty"`

	// Replaces, on a cleanup step that removes the old physical resource of
	// a replacement, is the step (of the phase before) that replaces it.
	// Such a step runs only when that step did replace with the old
	// resource left in place (see NeedsCleanup).
	Replaces int `json:"replaces,omitempty"`
	// IfReplaced marks a cleanup step whose replacing step may or may not
	// replace (Replacement Conditional, a custom resource, an update a
	// rollback re-resolves): it is planned, but NeedsCleanup decides at run
	// time.
	IfReplaced bool `json:"ifReplaced,omitempty"`
	// Undoes, on a rollback step, is the step of the failed operation it
	// undoes.
	Undoes int `json:"undoes,omitempty"`
}

// CallsHandler tells whether the engine calls the resource's handler for the
// step. Update steps whose Scope holds no Properties (Metadata,
// CreationPolicy, UpdatePolicy, DeletionPolicy, UpdateReplacePolicy) change
// only what CloudFormation records; Restore calls a handler only for a
// custom resource; Retain, Snapshot (the engine records the snapshot of the
// resource's model), Forget, Skip, Release and NoOp never do; Import calls
// the handler's Read.
func (s *Step) CallsHandler() bool {
	switch s.Action {
	case Create, CreateThenDelete, DeleteThenCreate, Delete, Import:
		return true
	case Update:
		return len(s.Scope) == 0 || slices.Contains(s.Scope, ScopeProperties)
	case Restore:
		return s.Custom
	}
	return false
}

// Phases returns the phases of the plan's operation, in the order they run.
func (p *Plan) Phases() []Phase { return p.Operation.Phases() }

// Step returns the step of an ID, or nil.
func (p *Plan) Step(id int) *Step {
	if i := id - 1; i >= 0 && i < len(p.Steps) && p.Steps[i].ID == id {
		return &p.Steps[i]
	}
	for i := range p.Steps {
		if p.Steps[i].ID == id {
			return &p.Steps[i]
		}
	}
	return nil
}

// In returns the steps of one phase, in plan order. In a valid plan they
// lie together, and the slice shares the plan's steps: do not change it.
func (p *Plan) In(phase Phase) []Step {
	first, n := -1, 0
	for i := range p.Steps {
		if p.Steps[i].Phase == phase {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if contiguous(p.Steps[first:first+n], phase) {
		return p.Steps[first : first+n : first+n]
	}
	out := make([]Step, 0, n)
	for _, s := range p.Steps {
		if s.Phase == phase {
			out = append(out, s)
		}
	}
	return out
}

func contiguous(steps []Step, phase Phase) bool {
	for i := range steps {
		if steps[i].Phase != phase {
			return false
		}
	}
	return true
}

// HasChanges tells whether the plan does anything: a step other than NoOp.
// An update without changes is "No updates are to be performed."
func (p *Plan) HasChanges() bool {
	for _, s := range p.Steps {
		if s.Action != NoOp {
			return true
		}
	}
	return false
}

// Levels returns the step IDs of a phase grouped by how early they may run:
// level 0 needs nothing, level k needs something of level k-1. Running the
// levels one after the other, each at once, is as parallel as the plan
// allows; within a level IDs follow plan order.
func (p *Plan) Levels(phase Phase) [][]int {
	steps := p.In(phase)
	pos := make(map[int]int, len(steps))
	for i, s := range steps {
		pos[s.ID] = i
	}
	g := graph.New(len(steps))
	for i, s := range steps {
		for _, a := range s.After {
			if j, ok := pos[a]; ok {
				g.AddEdge(j, i)
			}
		}
	}
	levels, err := g.Levels()
	if err != nil { // Validate refuses such plans; keep plan order.
		levels = [][]int{make([]int, len(steps))}
		for i := range steps {
			levels[0][i] = i
		}
	}
	out := make([][]int, len(levels))
	for l, vs := range levels {
		out[l] = make([]int, len(vs))
		for k, v := range vs {
			out[l][k] = steps[v].ID
		}
	}
	return out
}

// Validate checks the plan's shape, as the engine should before running a
// plan read from a state file: step IDs positive and unique, every phase one
// of the operation's and in order, every After naming an earlier step of
// the same phase (so the steps of a phase are acyclic and in order), every
// Replaces naming a step of an earlier phase.
func (p *Plan) Validate() error {
	phases := p.Phases()
	if phases == nil {
		return fmt.Errorf("plan: unknown operation %q", p.Operation)
	}
	rank := make(map[Phase]int, len(phases))
	for i, ph := range phases {
		rank[ph] = i
	}
	seen := make(map[int]Phase, len(p.Steps))
	last := 0
	var faults []string
	for _, s := range p.Steps {
		r, ok := rank[s.Phase]
		switch {
		case s.ID <= 0:
			faults = append(faults, fmt.Sprintf("step %d: ID must be positive", s.ID))
		case seen[s.ID] != "":
			faults = append(faults, fmt.Sprintf("step %d: duplicate ID", s.ID))
		case !ok:
			faults = append(faults, fmt.Sprintf("step %d: phase %s is not a phase of %s", s.ID, s.Phase, p.Operation))
		case r < last:
			faults = append(faults, fmt.Sprintf("step %d: phase %s after a later phase", s.ID, s.Phase))
		case !s.Action.valid():
			faults = append(faults, fmt.Sprintf("step %d: invalid action %s", s.ID, s.Action))
		}
		for _, a := range s.After {
			if seen[a] != s.Phase {
				faults = append(faults, fmt.Sprintf("step %d: after %d, which is not an earlier step of phase %s", s.ID, a, s.Phase))
			}
		}
		if s.Replaces != 0 && (seen[s.Replaces] == "" || seen[s.Replaces] == s.Phase) {
			faults = append(faults, fmt.Sprintf("step %d: replaces %d, which is not a step of an earlier phase", s.ID, s.Replaces))
		}
		if s.ID > 0 && seen[s.ID] == "" {
			seen[s.ID] = s.Phase
		}
		if ok && r > last {
			last = r
		}
	}
	if len(faults) > 0 {
		return fmt.Errorf("plan: invalid %s plan: %s", p.Operation, strings.Join(faults, "; "))
	}
	return nil
}
