package engine

import (
	"slices"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
)

// ImportExistingResources (CreateChangeSet, CREATE or UPDATE; `cdk deploy
// --import-existing-resources`): a resource the change set would create is
// imported instead when it already exists in the account, as the AWS User
// Guide (import-resources-automatically.html) lays down: the template names
// it with a static custom name (its type's primary identifier, written as a
// value, not computed); its DeletionPolicy is Retain or
// RetainExceptOnCreate; it belongs to no stack; its primary identifier is
// not read-only. Anything else is created as without the flag (a resource
// that exists but does not qualify then fails as a create of an existing
// resource does). The change set shows such a resource as an Import with
// its physical id; executed, it goes IMPORT_IN_PROGRESS → IMPORT_COMPLETE
// (its handler's Read must find it) within the stack's create or update,
// and a rollback lets it go again (IMPORT_ROLLBACK_IN_PROGRESS →
// IMPORT_ROLLBACK_COMPLETE): it was there before the operation. UNVERIFIED:
// these resource events are the IMPORT change set's (recorded); no
// recording of an auto-import's events was found.

// existingImports are the Create steps of p, the plan of a change set's
// template b, whose resources the change set imports.
func (e *Engine) existingImports(tx *txn, b boundTemplate, p *plan.Plan) []plan.ImportTarget {
	var out []plan.ImportTarget
	for i := range p.Steps {
		s := &p.Steps[i]
		if s.Action != plan.Create || s.Replaces != 0 || s.Custom || isNestedStack(s.ResourceType) ||
			(s.Phase != plan.PhaseCreate && s.Phase != plan.PhaseUpdate) {
			continue
		}
		switch b.DeletionPolicy(s.LogicalID) {
		case "Retain", "RetainExceptOnCreate":
		default:
			continue
		}
		id, ok := e.staticIdentifier(b, s.LogicalID, s.ResourceType)
		if !ok || tx.Object(s.ResourceType, id) == nil || ownedByStack(tx, s.ResourceType, id) {
			continue
		}
		out = append(out, plan.ImportTarget{LogicalID: s.LogicalID, ResourceType: s.ResourceType, PhysicalID: id})
	}
	return out
}

// staticIdentifier is the physical id a template resource names with its
// primary identifier's properties, each written as a value (no intrinsic
// function) and none read-only: their values in the schema's order, joined
// with "|". ok is false when the resource names none so.
func (e *Engine) staticIdentifier(b boundTemplate, logicalID, typeName string) (string, bool) {
	res := resourceOf(b, logicalID)
	if res == nil || res.Properties == nil {
		return "", false
	}
	p, err := e.providerOf(typeName)
	if err != nil {
		return "", false
	}
	s := p.Schema()
	if s == nil || len(s.PrimaryIdentifier) == 0 {
		return "", false
	}
	parts := make([]string, 0, len(s.PrimaryIdentifier))
	for _, ptr := range s.PrimaryIdentifier {
		name, top := strings.CutPrefix(ptr, "/properties/")
		if !top || strings.Contains(name, "/") || slices.Contains(s.ReadOnlyProperties, ptr) {
			return "", false
		}
		n := res.Properties.Get(name)
		if !n.IsScalar() || n.Func() != "" || n.Value == "" {
			return "", false
		}
		parts = append(parts, n.Value)
	}
	return strings.Join(parts, "|"), true
}

// childImports is p, the plan of a nested stack's create or update (to c),
// with the imports of an operation made with ImportExistingResources: AWS
// imports nested stacks' resources too when the root's change set asks
// ("For nested stacks, create the change set from the root stack").
func (r *run) childImports(c *store.StackRecord, p *plan.Plan) (*plan.Plan, error) {
	if !r.op.ImportExisting || p == nil {
		return p, nil
	}
	b, err := r.e.currentTemplate(c)
	if err != nil {
		return nil, err
	}
	return plan.WithImports(p, r.e.existingImports(r.tx, b, p)), nil
}

// withExistingImports is p with the resources a change set made with
// ImportExistingResources imports (existingImports) as Import steps; p
// itself when the change set was made without it.
func (e *Engine) withExistingImports(tx *txn, cs *store.ChangeSetRecord, b boundTemplate, p *plan.Plan) *plan.Plan {
	if !cs.ImportExisting || p == nil || b == nil {
		return p
	}
	return plan.WithImports(p, e.existingImports(tx, b, p))
}
