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
	d := differ{full: true}
	d.reset(schema, custom, nil)
	d.object(old, new)
	if d.count == 0 {
		return Decision{Action: NoOp}
	}
	slices.SortFunc(d.changes, func(a, b PropertyChange) int { return cmp.Compare(a.Path, b.Path) })
	dec := d.decision()
	dec.Changes = d.changes
	return dec
}

// recreations remembers what a change at a path of a schema does, so that
// planning a large stack asks each schema once per path.
type recreations map[Schema]map[string]Recreation

// of returns the paths known of a schema (nil when no path can require
// recreation: a custom resource, no schema).
func (c recreations) of(schema Schema, custom bool) map[string]Recreation {
	if custom || schema == nil {
		return nil
	}
	m := c[schema]
	if m == nil {
		m = map[string]Recreation{}
		c[schema] = m
	}
	return m
}

// decide is Decide for the planner, with d as scratch (reused from one
// resource to the next) and a cache of recreations. The decision holds no
// Changes: d.tops sums them up by top-level property instead, which is all
// the change set needs.
func (d *differ) decide(schema Schema, custom bool, old, new map[string]any, cache recreations) Decision {
	d.reset(schema, custom, cache.of(schema, custom))
	d.byTop = true
	d.object(old, new)
	if d.count == 0 {
		return Decision{Action: NoOp}
	}
	return d.decision()
}

// decision is the Decision of the changes seen, without Changes.
func (d *differ) decision() Decision {
	dec := Decision{Action: Update, Replacement: ReplacementFalse}
	switch {
	case d.alwaysKnown:
		dec.Action, dec.Replacement = CreateThenDelete, ReplacementTrue
		if d.schema.ReplacementStrategy() == DeleteThenCreateStrategy {
			dec.Action = DeleteThenCreate
		}
	case d.maybe:
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
// The path of the position compared is kept as a JSON pointer that grows
// and shrinks with the walk; a change copies it into a string only when
// every change is kept (Decide), so that the planner allocates nothing per
// change.
type differ struct {
	cur   []byte // the JSON pointer of the position compared
	marks []int  // len(cur) before each segment pushed

	schema Schema
	custom bool
	recs   map[string]Recreation // a cache of recreation by path, or nil

	full  bool // keep every change in changes (Decide)
	byTop bool // sum the changes up by top-level property in tops (the planner)

	count              int  // changes seen
	alwaysKnown, maybe bool // as Decide reads them: a known createOnly change; a change that may require recreation
	changes            []PropertyChange
	tops               []topChange
	top                topChange // the top-level property compared
	topAt              int       // its index in tops, or -1 before its first change
}

// topChange sums up the changes under one top-level property.
type topChange struct {
	name           string
	old, new       any // the property's values
	hadOld, hasNew bool
	rec            Recreation // the strongest of its changes
	known, unknown bool       // some change has a known new value; some has not
}

func (d *differ) reset(schema Schema, custom bool, recs map[string]Recreation) {
	d.cur, d.marks = d.cur[:0], d.marks[:0]
	d.schema, d.custom, d.recs = schema, custom, recs
	d.count, d.alwaysKnown, d.maybe = 0, false, false
	d.changes, d.tops, d.topAt = d.changes[:0], d.tops[:0], -1
}

func (d *differ) object(old, new map[string]any) {
	root := d.byTop && len(d.marks) == 0
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
		if root {
			d.top, d.topAt = topChange{name: k, old: ov, new: nv, hadOld: true, hasNew: ok, rec: Never}, -1
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
			if root {
				d.top, d.topAt = topChange{name: k, new: nv, hasNew: true, rec: Never}, -1
			}
			d.push(k)
			d.value(nil, false, nv, true)
			d.pop()
		}
	}
}

// push adds a member name to the path, escaped as a JSON pointer segment.
func (d *differ) push(seg string) {
	d.marks = append(d.marks, len(d.cur))
	d.cur = append(d.cur, '/')
	if strings.IndexByte(seg, '~') < 0 && strings.IndexByte(seg, '/') < 0 {
		d.cur = append(d.cur, seg...)
		return
	}
	for i := 0; i < len(seg); i++ {
		switch seg[i] {
		case '~':
			d.cur = append(d.cur, '~', '0')
		case '/':
			d.cur = append(d.cur, '~', '1')
		default:
			d.cur = append(d.cur, seg[i])
		}
	}
}

// pushIndex adds a list index to the path.
func (d *differ) pushIndex(i int) {
	d.marks = append(d.marks, len(d.cur))
	d.cur = strconv.AppendInt(append(d.cur, '/'), int64(i), 10)
}

func (d *differ) pop() {
	last := len(d.marks) - 1
	d.cur, d.marks = d.cur[:d.marks[last]], d.marks[:last]
}

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
	if _, ok := new.(template.Unknown); ok {
		// new, not the Unknown itself: boxing it again would allocate.
		if hasOld && nonEmptyContainer(old) {
			d.leaves(old, func(leaf any) { d.emit(leaf, true, new, true) })
			return
		}
		d.emit(old, hasOld, new, true)
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
				d.pushIndex(i)
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
				d.pushIndex(i)
				d.leaves(e, fn)
				d.pop()
			}
			return
		}
	}
	fn(v)
}

// emit records a change at the current path.
func (d *differ) emit(old any, hasOld bool, new any, hasNew bool) {
	known := !hasNew || template.IsKnown(new)
	var path string
	if d.full {
		path = string(d.cur)
	}
	rec := d.recreation(path)
	d.count++
	switch {
	case rec == Always && known:
		d.alwaysKnown = true
	case rec != Never:
		d.maybe = true
	}
	if d.byTop {
		if d.topAt < 0 {
			d.topAt = len(d.tops)
			d.tops = append(d.tops, d.top)
		}
		t := &d.tops[d.topAt]
		t.rec = t.rec.max(rec)
		if known {
			t.known = true
		} else {
			t.unknown = true
		}
	}
	if d.full {
		c := PropertyChange{Path: path, Known: known, RequiresRecreation: rec}
		if hasOld {
			c.Before = old
		}
		if hasNew {
			c.After = new
		}
		d.changes = append(d.changes, c)
	}
}

// recreation is what a change at the current path does (path is the
// current path as a string, or "" when not made yet).
func (d *differ) recreation(path string) Recreation {
	if d.custom || d.schema == nil {
		return Never
	}
	if d.recs == nil {
		if path == "" {
			path = string(d.cur)
		}
		return recreation(d.schema, false, path)
	}
	if r, ok := d.recs[string(d.cur)]; ok {
		return r
	}
	if path == "" {
		path = string(d.cur)
	}
	r := recreation(d.schema, false, path)
	d.recs[path] = r
	return r
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
	return d.count == 0
}

func unescapePointer(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
