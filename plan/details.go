package plan

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// propertyDetails explains a property change as a change set does: one
// group of details per top-level property, sorted by name. Within a group:
//
//   - Dynamic / DirectModification when the new value is not known yet;
//   - Static / ResourceReference (Ref of a resource whose id may change),
//     ResourceAttribute (Fn::GetAtt of one whose attributes may change) or
//     ParameterReference (a parameter whose value changed) for each thing
//     the property refers to that causes the change, with CausingEntity;
//   - Static / DirectModification for a known change no parameter explains.
//
// RequiresRecreation is the strongest of the property's changes.
func (u *updater) propertyDetails(id string, tops []topChange) []Detail {
	slices.SortFunc(tops, func(a, b topChange) int { return cmp.Compare(a.name, b.name) })
	refs := references(u.in.Desired, id)
	out := make([]Detail, 0, 2*len(tops))
	for i := range tops {
		g := &tops[i]
		target := Target{Attribute: ScopeProperties, Name: g.name, RequiresRecreation: g.rec}
		if g.hadOld {
			target.BeforeValue = render(g.old)
		}
		if g.hasNew {
			target.AfterValue = render(g.new)
		}
		var causes []Detail
		byParam, secret := false, false
		if len(refs) > 0 {
			causes, byParam, secret = u.causes(refs, "/Properties/"+escapePointer(g.name))
		}
		if secret {
			if g.hadOld {
				target.BeforeValue = "****"
			}
			if g.hasNew && template.IsKnown(g.new) {
				target.AfterValue = "****"
			}
		}
		if g.unknown {
			out = append(out, Detail{Target: target, Evaluation: Dynamic, ChangeSource: DirectModification})
		}
		for _, c := range causes {
			c.Target = target
			out = append(out, c)
		}
		if g.known && !byParam {
			out = append(out, Detail{Target: target, Evaluation: Static, ChangeSource: DirectModification})
		}
	}
	return out
}

// causes lists what the references under a property path say caused its
// change: resources being replaced or updated, parameters that changed. It
// also says whether a parameter explains the change, and whether the value
// comes from a NoEcho parameter.
func (u *updater) causes(refs []template.Reference, path string) (out []Detail, byParam, secret bool) {
	add := func(source, entity string) {
		for _, d := range out {
			if d.ChangeSource == source && d.CausingEntity == entity {
				return
			}
		}
		out = append(out, Detail{Evaluation: Static, ChangeSource: source, CausingEntity: entity})
	}
	for _, r := range refs {
		if !strings.HasPrefix(r.Path, path) || (len(r.Path) > len(path) && r.Path[len(path)] != '/') {
			continue
		}
		switch r.Kind {
		case template.RefParameter:
			if u.noEcho[r.Target] {
				secret = true
			}
			if u.params[r.Target] {
				byParam = true
				add(ParameterReference, r.Target)
			}
		case template.RefRef, template.RefSub, template.RefGetAtt:
			v, ok := u.f.index[r.Target]
			if !ok {
				continue
			}
			k := u.kinds[v]
			switch {
			case r.Attribute == "" && k.refUnknown():
				add(ResourceReference, r.Target)
			case r.Attribute != "" && k.attUnknown():
				add(ResourceAttribute, r.Target+"."+r.Attribute)
			}
		}
	}
	return out, byParam, secret
}

// render shows a value as a change set does: a string as itself, anything
// else as JSON, values not known yet as KnownAfterApply.
func render(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	case template.Unknown:
		return KnownAfterApply
	}
	if s, ok := scalarText(v); ok {
		return s
	}
	b, err := json.Marshal(showable(v))
	if err != nil {
		return ""
	}
	return string(b)
}

// showable replaces the Unknowns inside a value by KnownAfterApply.
func showable(v any) any {
	switch t := v.(type) {
	case template.Unknown:
		return KnownAfterApply
	case map[string]any:
		if template.IsKnown(t) {
			return t
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = showable(e)
		}
		return out
	case []any:
		if template.IsKnown(t) {
			return t
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = showable(e)
		}
		return out
	}
	return v
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func containsString(list []string, s string) bool { return slices.Contains(list, s) }

func sortFunc[T any](s []T, f func(a, b T) int) { slices.SortStableFunc(s, f) }
