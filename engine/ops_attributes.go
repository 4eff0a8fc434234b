package engine

import (
	"sort"

	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/template"
)

// readAttributes are the attributes the stack's template reads of a
// resource — Fn::GetAtt R.X and ${R.X} in any resource or output —
// sorted. A custom resource's request carries them (Request.Attributes):
// the simulated responder of an unmapped service token answers them as
// Data, so that a replay goes through without the real target.
func (r *run) readAttributes(logicalID string) []string {
	b, err := r.template()
	if err != nil {
		return nil
	}
	t := b.Template()
	if t == nil {
		return nil
	}
	seen := map[string]bool{}
	add := func(refs []template.Reference) {
		for _, ref := range refs {
			if ref.Target == logicalID && ref.Attribute != "" && (ref.Kind == template.RefGetAtt || ref.Kind == template.RefSub) {
				seen[ref.Attribute] = true
			}
		}
	}
	for _, res := range t.Resources {
		add(t.References(res.LogicalID))
	}
	for _, o := range t.Outputs {
		add(t.OutputReferences(o.Name))
	}
	if len(seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(seen))
	for a := range seen {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// isCustom tells whether a step's resource is a custom resource.
func isCustom(typeName string) bool { return plan.IsCustom(typeName) }
