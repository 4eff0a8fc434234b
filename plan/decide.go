package plan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/template"
)

// Schema is what the planner needs of a resource type's schema.
// *resources.Schema satisfies it. Paths are JSON pointers into the
// resource's properties ("/A/0/B").
type Schema interface {
	// IsCreateOnly tells whether a change at path requires replacement.
	IsCreateOnly(path string) bool
	// IsConditionalCreateOnly tells whether a change at path may require
	// replacement (the handler decides).
	IsConditionalCreateOnly(path string) bool
	// ReplacementStrategy is "create_then_delete" (the default) or
	// "delete_then_create".
	ReplacementStrategy() string
}

// Schemas finds the schema of a resource type. A nil function, or a nil
// answer, is permissive: no property is createOnly.
type Schemas func(typeName string) Schema

func (f Schemas) of(typeName string) Schema {
	if f == nil {
		return nil
	}
	return f(typeName)
}

// DeleteThenCreateStrategy is the replacementStrategy that deletes the old
// physical resource before creating the new one.
const DeleteThenCreateStrategy = "delete_then_create"

// Decision is what a change of properties does to a resource.
type Decision struct {
	// Action is NoOp, Update, CreateThenDelete or DeleteThenCreate.
	Action Action
	// Replacement is "" for NoOp; True for a replacement; Conditional when a
	// conditionalCreateOnly property changes, or a createOnly one whose new
	// value is not known yet (the Action is then Update: decide again when
	// the values are known); False otherwise.
	Replacement Replacement
	// Changes are the changed values, by path.
	Changes []PropertyChange
}

// PropertyChange is one changed value of a resource's properties: a leaf (a
// scalar, an empty object or list, a value not known yet) that differs.
type PropertyChange struct {
	// Path is a JSON pointer into the properties: "/TopicName",
	// "/Tags/0/Value".
	Path string
	// Before and After are the old and new values; nil where the value is
	// absent. After may be (or hold) a template.Unknown.
	Before, After any
	// Known is false when After is not known yet.
	Known bool
	// RequiresRecreation is what a change at Path does: Always (createOnly),
	// Conditionally (conditionalCreateOnly), Never.
	RequiresRecreation Recreation
}

// Name is the top-level property the change is in.
func (c PropertyChange) Name() string {
	name, _, _ := strings.Cut(strings.TrimPrefix(c.Path, "/"), "/")
	return unescapePointer(name)
}

// Decide compares a resource's properties as deployed (old) with the ones
// wanted (new) and says what the change does, from the type's schema:
//
//   - nothing changed: NoOp;
//   - a custom resource: Update, whatever changed (its handler may still
//     answer a new physical id at run time: a replacement the engine learns
//     of then);
//   - a createOnly property changed to a known value: a replacement,
//     DeleteThenCreate when the schema's replacementStrategy is
//     delete_then_create, CreateThenDelete otherwise (Replacement True);
//   - a createOnly property whose new value is not known yet, or a
//     conditionalCreateOnly property changed: Update, Replacement
//     Conditional;
//   - anything else: Update, Replacement False.
//
// Values compare as CloudFormation sends them, scalars by their string form
// (8 equals "8"). The planner calls Decide with values that may hold
// template.Unknown; the engine calls it again when a step starts, with the
// values then known, and acts on that decision. A nil schema is permissive.
func Decide(schema Schema, custom bool, old, new map[string]any) Decision {
	return decide(schema, custom, old, new, nil)
}

// recreations remembers what a change at a path of a schema does, so that
// planning a large stack asks each schema once per path.
type recreations map[Schema]map[string]Recreation

func (c recreations) of(schema Schema, custom bool, path string) Recreation {
	if c == nil || custom || schema == nil {
		return recreation(schema, custom, path)
	}
	m := c[schema]
	if m == nil {
		m = map[string]Recreation{}
		c[schema] = m
	}
	r, ok := m[path]
	if !ok {
		r = recreation(schema, custom, path)
		m[path] = r
	}
	return r
}

// decide is Decide, with a cache of recreations (nil: none).
func decide(schema Schema, custom bool, old, new map[string]any, cache recreations) Decision {
	d := differ{}
	d.object(old, new)
	if len(d.changes) == 0 {
		return Decision{Action: NoOp}
	}
	slices.SortFunc(d.changes, func(a, b PropertyChange) int { return cmp.Compare(a.Path, b.Path) })
	alwaysKnown, maybe := false, false
	for i := range d.changes {
		c := &d.changes[i]
		c.RequiresRecreation = cache.of(schema, custom, c.Path)
		switch {
		case c.RequiresRecreation == Always && c.Known:
			alwaysKnown = true
		case c.RequiresRecreation != Never:
			maybe = true
		}
	}
	dec := Decision{Action: Update, Replacement: ReplacementFalse, Changes: d.changes}
	switch {
	case alwaysKnown:
		dec.Action, dec.Replacement = CreateThenDelete, ReplacementTrue
		if schema.ReplacementStrategy() == DeleteThenCreateStrategy {
			dec.Action = DeleteThenCreate
		}
	case maybe:
		dec.Replacement = ReplacementConditional
	}
	return dec
}

func recreation(schema Schema, custom bool, path string) Recreation {
	switch {
	case custom || schema == nil:
		return Never
	case schema.IsCreateOnly(path):
		return Always
	case schema.IsConditionalCreateOnly(path):
		return Conditionally
	}
	return Never
}

// differ walks two values side by side and records the leaves that differ.
// The path is a stack of segments, joined only for a change, so that equal
// values cost no allocation.
type differ struct {
	path    []string
	changes []PropertyChange
}

func (d *differ) object(old, new map[string]any) {
	shared := 0
	for k, ov := range old {
		nv, ok := new[k]
		if ok {
			shared++
			if os, isStr := ov.(string); isStr {
				if ns, isStr := nv.(string); isStr && os == ns {
					continue // the common case, without the path
				}
			}
		}
		d.push(k)
		d.value(ov, true, nv, ok)
		d.pop()
	}
	if shared == len(new) {
		return // every key of new is a key of old
	}
	for k, nv := range new {
		if _, ok := old[k]; !ok {
			d.push(k)
			d.value(nil, false, nv, true)
			d.pop()
		}
	}
}

func (d *differ) push(seg string) { d.path = append(d.path, seg) }
func (d *differ) pop()            { d.path = d.path[:len(d.path)-1] }

// value compares one position; hasOld and hasNew say whether each side has
// a value there at all.
func (d *differ) value(old any, hasOld bool, new any, hasNew bool) {
	if os, ok := old.(string); ok && hasOld && hasNew {
		if ns, ok := new.(string); ok {
			if os != ns {
				d.emit(old, true, new, true)
			}
			return
		}
	}
	if u, ok := new.(template.Unknown); ok {
		if hasOld && nonEmptyContainer(old) {
			d.leaves(old, func(leaf any) { d.emit(leaf, true, u, true) })
			return
		}
		d.emit(old, hasOld, u, true)
		return
	}
	switch o := old.(type) {
	case map[string]any:
		if n, ok := new.(map[string]any); ok && hasNew {
			if len(o) == 0 && len(n) == 0 {
				return
			}
			d.object(o, n)
			return
		}
	case []any:
		if n, ok := new.([]any); ok && hasNew {
			for i := 0; i < max(len(o), len(n)); i++ {
				d.push(strconv.Itoa(i))
				var ov, nv any
				if i < len(o) {
					ov = o[i]
				}
				if i < len(n) {
					nv = n[i]
				}
				d.value(ov, i < len(o), nv, i < len(n))
				d.pop()
			}
			return
		}
	}
	if hasOld && hasNew && !nonEmptyContainer(old) && !nonEmptyContainer(new) {
		if !scalarEqual(old, new) {
			d.emit(old, true, new, true)
		}
		return
	}
	// A value appears, disappears or changes between a container and
	// something else: every leaf of each side is a change, so that a
	// createOnly property inside a container is found.
	if hasOld {
		d.leaves(old, func(leaf any) { d.emit(leaf, true, nil, false) })
	}
	if hasNew {
		d.leaves(new, func(leaf any) { d.emit(nil, false, leaf, true) })
	}
}

// leaves calls fn at every leaf of v with the path set to the leaf's.
func (d *differ) leaves(v any, fn func(leaf any)) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) > 0 {
			for k, e := range t {
				d.push(k)
				d.leaves(e, fn)
				d.pop()
			}
			return
		}
	case []any:
		if len(t) > 0 {
			for i, e := range t {
				d.push(strconv.Itoa(i))
				d.leaves(e, fn)
				d.pop()
			}
			return
		}
	}
	fn(v)
}

func (d *differ) emit(old any, hasOld bool, new any, hasNew bool) {
	c := PropertyChange{Path: joinPointer(d.path), Known: true}
	if hasOld {
		c.Before = old
	}
	if hasNew {
		c.After = new
		c.Known = template.IsKnown(new)
	}
	d.changes = append(d.changes, c)
}

func nonEmptyContainer(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) > 0
	case []any:
		return len(t) > 0
	}
	return false
}

// scalarEqual compares two leaves as CloudFormation sends them: scalars by
// their string form, empty containers by kind.
func scalarEqual(a, b any) bool {
	as, aok := scalarText(a)
	bs, bok := scalarText(b)
	if aok && bok {
		return as == bs
	}
	switch a.(type) {
	case map[string]any:
		_, ok := b.(map[string]any)
		return ok
	case []any:
		_, ok := b.([]any)
		return ok
	}
	return false
}

// scalarText is the string CloudFormation makes of a scalar.
func scalarText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number:
		return t.String(), true
	case bool:
		if t {
			return "true", true
		}
		return "false", true
	case int:
		return fmt.Sprint(t), true
	case int64:
		return fmt.Sprint(t), true
	case float64:
		return fmt.Sprint(t), true
	}
	return "", false
}

// valuesEqual compares two whole values as Decide does.
func valuesEqual(a, b any) bool {
	switch {
	case a == nil || b == nil:
		return a == nil && b == nil
	}
	d := differ{}
	d.value(a, true, b, true)
	return len(d.changes) == 0
}

func joinPointer(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if strings.ContainsAny(s, "~/") {
			s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
		}
		b.WriteString(s)
	}
	return b.String()
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
