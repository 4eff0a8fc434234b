package resources

import (
	"encoding/json"
	"math/big"
	"strconv"
)

// Models follow the project's value representation (docs/architecture.md,
// "Values"): map[string]any, []any, string, json.Number, bool. Helpers here
// also accept Go numbers (int, int64, float64) where a caller builds a model
// by hand, and treat them as json.Number.

// CopyModel returns a deep copy of a model (nil stays nil).
func CopyModel(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyValue(v)
	}
	return out
}

func copyValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return CopyModel(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = copyValue(e)
		}
		return out
	default:
		return v
	}
}

// Stringify returns v with every scalar turned into a string (8 → "8",
// true → "true"), as CloudFormation sends template properties to handlers.
// Maps and arrays are copied; v is left alone.
func Stringify(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = Stringify(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Stringify(e)
		}
		return out
	case nil, string:
		return v // as it is (boxing t again would allocate)
	default:
		if s, ok := scalarString(v); ok {
			return s
		}
		return v
	}
}

// StringifyModel is Stringify for a model.
func StringifyModel(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return Stringify(m).(map[string]any)
}

// scalarString is the string form of a scalar, as CloudFormation writes it.
func scalarString(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case json.Number:
		return t.String(), true
	case bool:
		return strconv.FormatBool(t), true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case int32:
		return strconv.FormatInt(int64(t), 10), true
	case uint64:
		return strconv.FormatUint(t, 10), true
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(t), 'f', -1, 32), true
	}
	return "", false
}

// numberOf returns the json.Number of a numeric Go value.
func numberOf(v any) (json.Number, bool) {
	switch t := v.(type) {
	case json.Number:
		return t, true
	case int, int64, int32, uint64, float64, float32:
		s, _ := scalarString(t)
		return json.Number(s), true
	}
	return "", false
}

// Equal reports whether two values are equal in the JSON data model: numbers
// compare by value (json.Number("8") equals json.Number("8.0") and int 8),
// maps by keys, arrays in order.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !Equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	n, ok := numberOf(a)
	if !ok {
		return false
	}
	m, ok := numberOf(b)
	if !ok {
		return false
	}
	return numbersEqual(n, m)
}

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

// LooseEqual is Equal after both sides are stringified: the comparison
// CloudFormation's stringified properties need ("8" equals 8, "true" equals
// true).
func LooseEqual(a, b any) bool {
	if Equal(a, b) {
		return true
	}
	return Equal(Stringify(a), Stringify(b))
}
