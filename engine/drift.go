package engine

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

// Drift: a resource's actual configuration (its handler's Read) against
// its expected one (the template's properties as last applied, the
// resource record's Properties). As CloudFormation does, only properties
// the template sets are compared ("Only resource properties explicitly
// defined in the stack template are checked for drift", DetectStackDrift's
// API reference), a type's writeOnly properties left out (a Read never
// returns them); scalars compare as CloudFormation sends them (8 equals
// "8"), lists element by element, but for a list the type's schema says is
// a set (insertionOrder false), whose members match in any order.

// Drift statuses of a resource and a stack, and of a detection.
const (
	DriftInSync   = "IN_SYNC"
	DriftModified = "MODIFIED"
	DriftDeleted  = "DELETED"
	DriftUnknown  = "UNKNOWN"
	DriftDrifted  = "DRIFTED"

	DetectionComplete = "DETECTION_COMPLETE"
	DetectionFailed   = "DETECTION_FAILED"

	DifferenceAdd      = "ADD"
	DifferenceRemove   = "REMOVE"
	DifferenceNotEqual = "NOT_EQUAL"
)

// driftOf compares expected with actual (nil: the resource is gone) and
// returns the resource's drift.
func driftOf(schema *resources.Schema, expected, actual map[string]any, gone bool) *store.ResourceDrift {
	exp := expectedOf(schema, expected)
	d := &store.ResourceDrift{Expected: driftJSON(exp)}
	if gone {
		d.Status = DriftDeleted
		return d
	}
	act := make(map[string]any, len(exp))
	for k := range exp {
		if v, ok := actual[k]; ok && v != nil {
			act[k] = v
		}
	}
	d.Actual = driftJSON(act)
	c := comparer{schema: schema}
	c.compare("", exp, act, true, true)
	diffs := c.out
	d.Differences = diffs
	d.Status = DriftInSync
	if len(diffs) > 0 {
		d.Status = DriftModified
	}
	return d
}

// expectedOf is what of a resource's properties drift detection compares:
// all but the type's writeOnly properties (a Read never answers them;
// nested ones too: a Lambda function's Code/ZipFile, the object left empty
// dropped) and the properties whose value holds a dynamic reference (the
// record keeps the reference, the handler got the value it resolved to;
// stacksim does not compare them, UNVERIFIED what AWS does).
func expectedOf(schema *resources.Schema, expected map[string]any) map[string]any {
	exp := resources.CopyModel(expected)
	if exp == nil {
		exp = map[string]any{}
	}
	if schema != nil {
		for _, ptr := range schema.WriteOnlyProperties {
			segs := resources.SplitPointer(ptr)
			if len(segs) == 0 || !resources.Delete(exp, ptr) || len(segs) < 2 {
				continue
			}
			if m, ok := exp[segs[0]].(map[string]any); ok && len(m) == 0 {
				delete(exp, segs[0])
			}
		}
	}
	for k, v := range exp {
		if hasDynamicRef(v) {
			delete(exp, k)
		}
	}
	return exp
}

// comparer compares an expected and an actual value, the type's schema
// telling which arrays are sets (insertionOrder false: their members match
// in any order, as CloudFormation compares them).
type comparer struct {
	schema *resources.Schema
	// segs is the path of the value compared: property names and indexes.
	segs []string
	out  []store.PropertyDifference
}

// compare appends the differences between an expected and an actual value
// at path (a JSON pointer into the properties; had and has: the value is
// there at all).
func (c *comparer) compare(path string, exp, act any, had, has bool) {
	switch {
	case had && !has:
		c.out = append(c.out, store.PropertyDifference{PropertyPath: path, ExpectedValue: valueText(exp), DifferenceType: DifferenceRemove})
		return
	case !had && has:
		c.out = append(c.out, store.PropertyDifference{PropertyPath: path, ActualValue: valueText(act), DifferenceType: DifferenceAdd})
		return
	}
	switch e := exp.(type) {
	case map[string]any:
		a, ok := act.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(e)+len(a))
		for k := range e {
			keys = append(keys, k)
		}
		for k := range a {
			if _, dup := e[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			ev, eok := e[k]
			av, aok := a[k]
			c.segs = append(c.segs, k)
			c.compare(path+"/"+escapePointer(k), ev, av, eok, aok)
			c.segs = c.segs[:len(c.segs)-1]
		}
		return
	case []any:
		a, ok := act.([]any)
		if !ok {
			break
		}
		if c.schema.Unordered(c.segs) {
			c.compareSet(path, e, a)
			return
		}
		for i := 0; i < max(len(e), len(a)); i++ {
			var ev, av any
			if i < len(e) {
				ev = e[i]
			}
			if i < len(a) {
				av = a[i]
			}
			c.segs = append(c.segs, strconv.Itoa(i))
			c.compare(path+"/"+strconv.Itoa(i), ev, av, i < len(e), i < len(a))
			c.segs = c.segs[:len(c.segs)-1]
		}
		return
	}
	if !resources.LooseEqual(exp, act) {
		c.out = append(c.out, store.PropertyDifference{PropertyPath: path, ExpectedValue: valueText(exp), ActualValue: valueText(act), DifferenceType: DifferenceNotEqual})
	}
}

// same tells whether two members of the array at c.segs are equal, the
// sets inside them compared as sets.
func (c *comparer) same(x, y any) bool {
	sub := comparer{schema: c.schema, segs: append(append([]string(nil), c.segs...), "0")}
	sub.compare("", x, y, true, true)
	return len(sub.out) == 0
}

// compareSet compares the members of a set in any order: an expected
// member no actual one equals is REMOVE at its index, an actual member
// left over is ADD at its index.
func (c *comparer) compareSet(path string, exp, act []any) {
	matched := make([]bool, len(act))
	var removed []int
outer:
	for i, x := range exp {
		for j, y := range act {
			if !matched[j] && c.same(x, y) {
				matched[j] = true
				continue outer
			}
		}
		removed = append(removed, i)
	}
	for _, i := range removed {
		c.out = append(c.out, store.PropertyDifference{PropertyPath: path + "/" + strconv.Itoa(i), ExpectedValue: valueText(exp[i]), DifferenceType: DifferenceRemove})
	}
	for j, y := range act {
		if !matched[j] {
			c.out = append(c.out, store.PropertyDifference{PropertyPath: path + "/" + strconv.Itoa(j), ActualValue: valueText(y), DifferenceType: DifferenceAdd})
		}
	}
}

// valueText is a value as a property difference shows it: a scalar as its
// text, anything else as JSON.
func valueText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case map[string]any, []any:
		return driftJSON(x)
	}
	if s, ok := resources.Stringify(v).(string); ok {
		return s
	}
	return driftJSON(v)
}

func driftJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// escapePointer escapes a key as a JSON pointer token.
func escapePointer(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}
