package plan

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// propertyDetails explains a property change as a change set does with
// IncludePropertyValues (WithoutValues derives the other view): one group
// of details per top-level property, sorted by name. Within a group:
//
//   - Dynamic / DirectModification when the new value is not known yet, or
//     when a parameter explains the change;
//   - Static / ResourceReference (Ref of a resource whose id may change),
//     ResourceAttribute (Fn::GetAtt of one whose attributes may change) or
//     ParameterReference (a parameter whose value changed) for each thing
//     the property refers to that causes the change, with CausingEntity;
//   - Static / DirectModification for a known change no parameter explains.
//
// Each Target has the values, the property's Path and its
// AttributeChangeType (Add, Remove, Modify). RequiresRecreation is the
// strongest of the property's changes.
//
// Recorded from AWS (LocalStack's AWS-validated snapshots,
// tests/aws/services/cloudformation/test_change_set_parameters.snapshot.json,
// 2025-04-17: a parameter's change with property values is
// [DirectModification/Dynamic, ParameterReference/Static], each Target with
// AfterValue, BeforeValue, AttributeChangeType Modify and Path
// /Properties/TopicName; AWS's answer quoted in a LocalStack test of
// change-set values, and BEHAVIOUR.md §9: a Fn::GetAtt or Ref of a replaced resource is
// [DirectModification/Dynamic with AfterValue {{changeSet:KNOWN_AFTER_APPLY}},
// ResourceAttribute or ResourceReference/Static]).
func (u *updater) propertyDetails(id string, tops []topChange) []Detail {
	slices.SortFunc(tops, func(a, b topChange) int { return cmp.Compare(a.name, b.name) })
	refs := references(u.in.Desired, id)
	out := u.scratch.details[:0]
	for i := range tops {
		g := &tops[i]
		target := Target{Attribute: ScopeProperties, Name: g.name, RequiresRecreation: g.rec,
			Path: "/Properties/" + escapePointer(g.name), AttributeChangeType: ChangeModify}
		switch {
		case !g.hadOld:
			target.AttributeChangeType = ChangeAdd
		case !g.hasNew:
			target.AttributeChangeType = ChangeRemove
		}
		if g.hadOld {
			target.BeforeValue = render(g.old)
		}
		if g.hasNew {
			target.AfterValue = render(g.new)
		}
		causes := u.scratch.causes[:0]
		byParam, secret := false, false
		if len(refs) > 0 {
			u.scratch.path = append(append(u.scratch.path[:0], "/Properties/"...), escapePointer(g.name)...)
			causes, byParam, secret = u.causes(causes, refs, u.scratch.path)
			u.scratch.causes = causes
		}
		if secret {
			if g.hadOld {
				target.BeforeValue = "****"
			}
			if g.hasNew && template.IsKnown(g.new) {
				target.AfterValue = "****"
			}
		}
		if g.unknown || byParam {
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
	u.scratch.details = out
	return u.details.copyOf(out)
}

// detailScratch is propertyDetails' scratch, reused from one resource to
// the next.
type detailScratch struct {
	details, causes []Detail
	path            []byte
}

// causes appends to out what the references under a property path say
// caused its change: resources being replaced or updated, parameters that
// changed. It also says whether a parameter explains the change, and
// whether the value comes from a NoEcho parameter.
func (u *updater) causes(out []Detail, refs []template.Reference, path []byte) (_ []Detail, byParam, secret bool) {
	add := func(source, entity string) {
		for _, d := range out {
			if d.ChangeSource == source && d.CausingEntity == entity {
				return
			}
		}
		out = append(out, Detail{Evaluation: Static, ChangeSource: source, CausingEntity: entity})
	}
	for _, r := range refs {
		if len(r.Path) < len(path) || r.Path[:len(path)] != string(path) || (len(r.Path) > len(path) && r.Path[len(path)] != '/') {
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

// slab hands out copies of slices carved from shared chunks (doubling up
// to 1024 elements), each capped at its length so that an append to one
// copies it rather than writing into the next: a plan's thousands of small
// slices cost a few allocations. The copy of an empty slice is nil.
type slab[T any] struct {
	free  []T
	chunk int
}

func (s *slab[T]) copyOf(src []T) []T {
	if len(src) == 0 {
		return nil
	}
	if cap(s.free)-len(s.free) < len(src) {
		s.chunk = min(max(2*s.chunk, 16), 1024)
		s.free = make([]T, 0, max(s.chunk, len(src)))
	}
	at := len(s.free)
	s.free = append(s.free, src...)
	return s.free[at:len(s.free):len(s.free)]
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
