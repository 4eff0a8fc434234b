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
// "8"), lists element by element.

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
	var diffs []store.PropertyDifference
	compareValues(&diffs, "", exp, act, true, true)
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

// compareValues appends the differences between an expected and an actual
// value at path (a JSON pointer into the properties; had and has: the
// value is there at all).
func compareValues(out *[]store.PropertyDifference, path string, exp, act any, had, has bool) {
	switch {
	case had && !has:
		*out = append(*out, store.PropertyDifference{PropertyPath: path, ExpectedValue: valueText(exp), DifferenceType: DifferenceRemove})
		return
	case !had && has:
		*out = append(*out, store.PropertyDifference{PropertyPath: path, ActualValue: valueText(act), DifferenceType: DifferenceAdd})
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
			compareValues(out, path+"/"+escapePointer(k), ev, av, eok, aok)
		}
		return
	case []any:
		a, ok := act.([]any)
		if !ok {
			break
		}
		for i := 0; i < max(len(e), len(a)); i++ {
			var ev, av any
			if i < len(e) {
				ev = e[i]
			}
			if i < len(a) {
				av = a[i]
			}
			compareValues(out, path+"/"+strconv.Itoa(i), ev, av, i < len(e), i < len(a))
		}
		return
	}
	if !resources.LooseEqual(exp, act) {
		*out = append(*out, store.PropertyDifference{PropertyPath: path, ExpectedValue: valueText(exp), ActualValue: valueText(act), DifferenceType: DifferenceNotEqual})
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
