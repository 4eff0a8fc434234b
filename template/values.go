package template

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Values: template values, resolved properties and outputs are the JSON data
// model in Go (docs/architecture.md, "Values"): map[string]any, []any,
// string, json.Number (the literal, exact), bool. nil never appears in a
// resolved value. A value not known yet is an Unknown.

// Unknown is a value that is not known yet: the Ref or an attribute of a
// resource that does not exist yet or is being replaced. A function of an
// unknown (Fn::Join with an unknown piece, Fn::Sub of an unknown) is the
// first Unknown it met, so that a planner can name the entity that causes
// it.
type Unknown struct {
	// LogicalID is the resource whose value is not known yet, or "" when the
	// value comes from elsewhere (an import, the resolver's own choice).
	LogicalID string
	// Attribute is the attribute of Fn::GetAtt, or "" for Ref.
	Attribute string
	// Export is the export name of an Fn::ImportValue not known yet.
	Export string
}

// CausingEntity names what the value waits on, as DescribeChangeSet's
// CausingEntity does: "Topic1" for a Ref, "Topic1.Arn" for an attribute.
func (u Unknown) CausingEntity() string {
	switch {
	case u.Attribute != "":
		return u.LogicalID + "." + u.Attribute
	case u.LogicalID != "":
		return u.LogicalID
	}
	return u.Export
}

// String renders the value the way a change set shows it.
func (u Unknown) String() string { return "{{changeSet:KNOWN_AFTER_APPLY}}" }

// IsKnown tells whether v holds no Unknown anywhere.
func IsKnown(v any) bool {
	_, ok := firstUnknown(v)
	return !ok
}

// FirstUnknown returns the first Unknown inside v (depth first, map keys in
// sorted order), if any.
func FirstUnknown(v any) (Unknown, bool) { return firstUnknown(v) }

func firstUnknown(v any) (Unknown, bool) {
	switch t := v.(type) {
	case Unknown:
		return t, true
	case []any:
		for _, e := range t {
			if u, ok := firstUnknown(e); ok {
				return u, true
			}
		}
	case map[string]any:
		// Deterministic: the smallest key that holds an unknown.
		var best string
		var found Unknown
		ok := false
		for k, e := range t {
			if u, isU := firstUnknown(e); isU && (!ok || k < best) {
				best, found, ok = k, u, true
			}
		}
		return found, ok
	}
	return Unknown{}, false
}

// noValue is what Ref AWS::NoValue evaluates to: the property, list element
// or field that holds it is removed.
type noValueType struct{}

var noValue = noValueType{}

func jsonNumber(s string) json.Number { return json.Number(s) }

// scalarText turns a scalar value into the string CloudFormation makes of it
// (numbers keep their literal, booleans are "true" and "false").
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
		return json.Number(fmt.Sprint(t)).String(), true
	}
	return "", false
}

// describe names the kind of a value for error details.
func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a map"
	case Unknown:
		return "a value not known yet"
	case noValueType:
		return "AWS::NoValue"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// valuesEqual compares two resolved values the way Fn::Equals does:
// scalars by their string form, lists element by element.
func valuesEqual(a, b any) bool {
	as, aok := scalarText(a)
	bs, bok := scalarText(b)
	if aok && bok {
		return as == bs
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok {
		if len(al) != len(bl) {
			return false
		}
		for i := range al {
			if !valuesEqual(al[i], bl[i]) {
				return false
			}
		}
		return true
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		if len(am) != len(bm) {
			return false
		}
		for k, v := range am {
			w, ok := bm[k]
			if !ok || !valuesEqual(v, w) {
				return false
			}
		}
		return true
	}
	return false
}

// commaList splits a comma-delimited parameter value the way a Ref to a
// CommaDelimitedList parameter returns it.
func commaList(s string) []any {
	parts := strings.Split(s, ",")
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out
}
