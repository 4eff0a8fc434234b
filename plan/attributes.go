package plan

import "github.com/stacksim/stacksim/template"

// attrChanges are the changes of a resource's attributes other than its
// properties.
type attrChanges struct {
	scope   []string
	details []Detail
}

// attributeChanges compares Metadata, CreationPolicy, UpdatePolicy,
// DeletionPolicy and UpdateReplacePolicy of the desired resource with the
// deployed one. None calls the resource's handler.
func (u *updater) attributeChanges(id string, d *DeployedResource, s *Step) (attrChanges, error) {
	var out attrChanges
	for _, attr := range []string{ScopeMetadata, ScopeCreationPolicy, ScopeUpdatePolicy} {
		v, err := u.in.Desired.ResourceAttribute(id, attr, u)
		if err != nil {
			return out, err
		}
		var old any
		switch attr {
		case ScopeMetadata:
			old = d.Metadata
		case ScopeCreationPolicy:
			old = d.CreationPolicy
		case ScopeUpdatePolicy:
			old = d.UpdatePolicy
		}
		if valuesEqual(old, v) {
			continue
		}
		eval := Static
		if !template.IsKnown(v) {
			eval = Dynamic
		}
		out.scope = append(out.scope, attr)
		out.details = append(out.details, Detail{
			Target:     Target{Attribute: attr, RequiresRecreation: Never, BeforeValue: render(old), AfterValue: render(v)},
			Evaluation: eval, ChangeSource: DirectModification,
		})
	}
	for _, pc := range []struct{ attr, old, new string }{
		{ScopeDeletionPolicy, policy(d.DeletionPolicy), s.DeletionPolicy},
		{ScopeUpdateReplacePolicy, policy(d.UpdateReplacePolicy), s.UpdateReplacePolicy},
	} {
		if pc.old == pc.new {
			continue
		}
		out.scope = append(out.scope, pc.attr)
		out.details = append(out.details, Detail{
			Target:     Target{Attribute: pc.attr, RequiresRecreation: Never, BeforeValue: pc.old, AfterValue: pc.new},
			Evaluation: Static, ChangeSource: DirectModification,
		})
	}
	return out, nil
}
