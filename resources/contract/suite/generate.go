package suite

import (
	"encoding/json"
	"fmt"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/resources"
)

// The inputs cfn test generates when a project gives none, made here
// deterministically from the schema (cfn test draws them at random with
// hypothesis): every property that is not readOnly, each value the first
// that its type, enum, const, pattern, format, length and range allow.
// variant 1 gives a second value for each, for updates.

// generator makes example values of a schema.
type generator struct {
	s *resources.Schema
	// notes say where a value may not satisfy the schema (a pattern Go's
	// regexp cannot read).
	notes []string
}

// example makes a model of every property not excluded.
func (g *generator) example(variant int, skip func(ptr string) bool) map[string]any {
	out := map[string]any{}
	props := g.s.Properties()
	for _, name := range sortedKeys(props) {
		ptr := "/properties/" + name
		if skip(ptr) {
			continue
		}
		prop, _ := props[name].(map[string]any)
		if v, ok := g.value(prop, ptr, variant, 0); ok {
			out[name] = v
		}
	}
	return out
}

func (g *generator) resolve(m map[string]any) map[string]any {
	for i := 0; i < 8 && m != nil; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			break
		}
		m, _ = g.s.Definitions()[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
	}
	if m == nil {
		return nil
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			if first, ok := alts[0].(map[string]any); ok {
				merged := map[string]any{}
				for kk, vv := range m {
					if kk != k {
						merged[kk] = vv
					}
				}
				for kk, vv := range g.resolve(first) {
					merged[kk] = vv
				}
				return merged
			}
		}
	}
	return m
}

// value is an example of one property's schema (false: none can be made).
func (g *generator) value(prop map[string]any, ptr string, variant, depth int) (any, bool) {
	prop = g.resolve(prop)
	if prop == nil || depth > 6 {
		return nil, false
	}
	if c, ok := prop["const"]; ok {
		return c, true
	}
	if enum, ok := prop["enum"].([]any); ok && len(enum) > 0 {
		return enum[variant%len(enum)], true
	}
	typ := typeOf(prop)
	switch typ {
	case "string":
		return g.str(prop, ptr, variant), true
	case "integer", "number":
		return number(prop, typ, variant), true
	case "boolean":
		return variant%2 == 0, true
	case "array":
		items, _ := prop["items"].(map[string]any)
		n := 1
		if m, ok := intOf(prop["minItems"]); ok && m > 1 {
			n = int(m)
		}
		var out []any
		for i := 0; i < n; i++ {
			v, ok := g.value(items, ptr+"/*", variant+i, depth+1)
			if !ok {
				return []any{}, true
			}
			out = append(out, v)
		}
		return out, true
	case "object":
		props, _ := prop["properties"].(map[string]any)
		out := map[string]any{}
		for _, name := range sortedKeys(props) {
			sub, _ := props[name].(map[string]any)
			if v, ok := g.value(sub, ptr+"/"+name, variant, depth+1); ok {
				out[name] = v
			}
		}
		return out, true
	}
	return nil, false
}

func typeOf(prop map[string]any) string {
	switch t := prop["type"].(type) {
	case string:
		return t
	case []any:
		if len(t) > 0 {
			s, _ := t[0].(string)
			return s
		}
	}
	switch {
	case prop["properties"] != nil:
		return "object"
	case prop["items"] != nil:
		return "array"
	}
	return "string"
}

func intOf(v any) (int64, bool) {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			f, ferr := n.Float64()
			return int64(f), ferr == nil
		}
		return i, true
	case float64:
		return int64(n), true
	}
	return 0, false
}

// number is the minimum (or just past an exclusive one), plus variant,
// kept under the maximum and to multipleOf.
func number(prop map[string]any, typ string, variant int) any {
	lo, hasLo := intOf(prop["minimum"])
	if ex, ok := intOf(prop["exclusiveMinimum"]); ok {
		lo, hasLo = ex+1, true
	}
	if !hasLo {
		lo = 1
	}
	hi, hasHi := intOf(prop["maximum"])
	if ex, ok := intOf(prop["exclusiveMaximum"]); ok {
		hi, hasHi = ex-1, true
	}
	v := lo + int64(variant)
	if step, ok := intOf(prop["multipleOf"]); ok && step > 0 {
		v = ((lo+step-1)/step + int64(variant)) * step
	}
	if hasHi && v > hi {
		v = lo
	}
	return json.Number(strconv.FormatInt(v, 10))
}

var formats = map[string][2]string{
	"date-time": {"2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"},
	"date":      {"2025-01-01", "2025-01-02"},
	"uri":       {"https://example.com/stacksim", "https://example.com/stacksim-2"},
	"email":     {"stacksim@example.com", "stacksim2@example.com"},
	"ipv4":      {"192.0.2.10", "192.0.2.11"},
	"ipv6":      {"2001:db8::10", "2001:db8::11"},
	"hostname":  {"stacksim.example.com", "stacksim2.example.com"},
}

func (g *generator) str(prop map[string]any, ptr string, variant int) string {
	var s string
	if pat, ok := prop["pattern"].(string); ok {
		re, err := syntax.Parse(pat, syntax.Perl)
		if err == nil {
			var b strings.Builder
			if sample(&b, re.Simplify(), variant) {
				s = b.String()
			} else {
				err = fmt.Errorf("it cannot be sampled")
			}
		}
		if err != nil {
			g.notes = append(g.notes, fmt.Sprintf("%s: pattern %q is not one Go reads (%v); the generated value may not match it: give inputs/inputs_1_create.json", ptr, pat, err))
			s = ""
		}
	} else if f, ok := prop["format"].(string); ok && formats[f] != [2]string{} {
		return formats[f][variant%2]
	}
	if s == "" && prop["pattern"] == nil {
		s = "stacksim"
		if variant > 0 {
			s = "stacksim" + strconv.Itoa(variant+1)
		}
	}
	if n, ok := intOf(prop["maxLength"]); ok && int64(len(s)) > n {
		s = s[:n]
	}
	if n, ok := intOf(prop["minLength"]); ok && prop["pattern"] == nil {
		for int64(len(s)) < n {
			s += "x"
		}
	}
	return s
}

// sample writes a string the regexp matches: literals as they are, the
// variant-th member of a class, the least repetition (at least one where
// none is allowed), the first alternative.
func sample(b *strings.Builder, re *syntax.Regexp, variant int) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) < 2 {
			return false
		}
		var members []rune
		for i := 0; i+1 < len(re.Rune) && len(members) < 64; i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1] && len(members) < 64; r++ {
				if r > ' ' && r < 0x7f {
					members = append(members, r)
				}
			}
		}
		if len(members) == 0 {
			return false
		}
		b.WriteRune(members[variant%len(members)])
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte("ab"[variant%2])
	case syntax.OpCapture:
		return sample(b, re.Sub[0], variant)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !sample(b, sub, variant) {
				return false
			}
		}
	case syntax.OpAlternate:
		return sample(b, re.Sub[0], variant)
	case syntax.OpStar, syntax.OpQuest:
		// none
	case syntax.OpPlus:
		return sample(b, re.Sub[0], variant)
	case syntax.OpRepeat:
		n := re.Min
		if n == 0 && re.Max != 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			if !sample(b, re.Sub[0], variant) {
				return false
			}
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		return false
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Generate makes an input set from the schema, as cfn test does when a
// project has no inputs: create holds every property that is not
// readOnly; update changes every property that is neither readOnly nor
// createOnly; invalid is create with the readOnly properties set too
// (which a create must refuse) and the createOnly ones changed. Notes say
// where a value may not satisfy the schema.
func Generate(s *resources.Schema) (InputSet, []string) {
	g := &generator{s: s}
	create := g.example(0, s.IsReadOnly)
	update := g.example(1, func(p string) bool { return s.IsReadOnly(p) || s.IsCreateOnly(p) })
	invalid := g.example(1, func(p string) bool { return !s.IsReadOnly(p) && !s.IsCreateOnly(p) })
	for k, v := range create {
		if _, ok := invalid[k]; !ok {
			invalid[k] = v
		}
	}
	sort.Strings(g.notes)
	return InputSet{N: 1, Create: create, Update: update, Invalid: invalid, Generated: true}, dedupe(g.notes)
}

func dedupe(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
