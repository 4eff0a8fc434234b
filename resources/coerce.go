package resources

import (
	"encoding/json"
	"strconv"
	"strings"
)

// shape is the part of a schema that coercion needs: the JSON types a value
// may have, and the shapes of members. Built once per schema, with $ref to
// "#/definitions/..." resolved (recursive definitions share nodes).
type shape struct {
	types      []string
	props      map[string]*shape
	additional *shape
	items      *shape
}

func (s *Schema) shapeTree() *shape {
	s.shapeOnce.Do(func() {
		if s.decode() != nil {
			s.shape = &shape{}
			return
		}
		b := shapeBuilder{defs: s.defs, memo: map[string]*shape{}}
		s.shape = b.build(s.doc, 0)
	})
	return s.shape
}

type shapeBuilder struct {
	defs map[string]any
	memo map[string]*shape
}

func (b *shapeBuilder) build(v any, depth int) *shape {
	m, ok := v.(map[string]any)
	if !ok || depth > 64 {
		return nil
	}
	if ref, ok := m["$ref"].(string); ok {
		if n, ok := b.memo[ref]; ok {
			return n
		}
		name := strings.TrimPrefix(ref, "#/definitions/")
		if name == ref {
			return nil
		}
		n := &shape{}
		b.memo[ref] = n
		if def := b.build(b.defs[name], depth+1); def != nil {
			*n = *def
		}
		return n
	}
	n := &shape{}
	switch t := m["type"].(type) {
	case string:
		n.types = []string{t}
	case []any:
		for _, e := range t {
			if s, ok := e.(string); ok {
				n.types = append(n.types, s)
			}
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		n.props = make(map[string]*shape, len(props))
		for k, p := range props {
			n.props[k] = b.build(p, depth+1)
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		for _, p := range pp {
			n.additional = b.build(p, depth+1)
			break
		}
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok {
		n.additional = b.build(ap, depth+1)
	}
	if it, ok := m["items"].(map[string]any); ok {
		n.items = b.build(it, depth+1)
	}
	// The alternatives of oneOf, anyOf and allOf add what they describe:
	// their members (the first alternative to name one gives its shape),
	// their item and additional shapes, and their types where the node
	// names none (a value of any of them keeps its own type).
	typed := len(n.types) > 0
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		alts, _ := m[k].([]any)
		for _, x := range alts {
			if alt := b.build(x, depth+1); alt != nil {
				n.merge(alt, typed)
			}
		}
	}
	return n
}

// merge adds an alternative's shape to n: members n does not have, its
// items and additional members where n has none, and its types unless
// typed (n's own types stand).
func (n *shape) merge(alt *shape, typed bool) {
	if !typed {
		for _, t := range alt.types {
			if !n.has(t) {
				n.types = append(n.types, t)
			}
		}
	}
	for k, p := range alt.props {
		if _, ok := n.props[k]; !ok {
			if n.props == nil {
				n.props = make(map[string]*shape, len(alt.props))
			}
			n.props[k] = p
		}
	}
	if n.additional == nil {
		n.additional = alt.additional
	}
	if n.items == nil {
		n.items = alt.items
	}
}

func (n *shape) has(t string) bool {
	for _, x := range n.types {
		if x == t {
			return true
		}
	}
	return false
}

// Coerce returns a copy of a model whose stringified scalars are turned back
// into the schema's types ("8" → 8 where the schema says integer or number,
// "true" → true where it says boolean), as the public plugins do on the way
// in. A value that does not parse is left alone (validation reports it).
func (s *Schema) Coerce(model map[string]any) map[string]any {
	if model == nil {
		return nil
	}
	root := s.shapeTree()
	out, _ := coerceValue(root, model).(map[string]any)
	return out
}

// coerceWithRoom is Coerce into a new map made big enough for room more
// keys (a nil model gives an empty map).
func (s *Schema) coerceWithRoom(model map[string]any, room int) map[string]any {
	root := s.shapeTree()
	out := make(map[string]any, len(model)+room)
	for k, e := range model {
		out[k] = coerceValue(root.member(k), e)
	}
	return out
}

// member is the shape of an object's member k (nil when n is).
func (n *shape) member(k string) *shape {
	if n == nil {
		return nil
	}
	if p, ok := n.props[k]; ok {
		return p
	}
	return n.additional
}

func coerceValue(n *shape, v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			var sub *shape
			if n != nil {
				if p, ok := n.props[k]; ok {
					sub = p
				} else {
					sub = n.additional
				}
			}
			out[k] = coerceValue(sub, e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		var sub *shape
		if n != nil {
			sub = n.items
		}
		for i, e := range t {
			out[i] = coerceValue(sub, e)
		}
		return out
	case string:
		if n == nil || len(n.types) == 0 || n.has("string") {
			return v // as it is (boxing t again would allocate)
		}
		if n.has("boolean") {
			if b, err := strconv.ParseBool(t); err == nil && (t == "true" || t == "false") {
				return b
			}
		}
		if n.has("integer") {
			if _, err := strconv.ParseInt(t, 10, 64); err == nil {
				return json.Number(t)
			}
		}
		if n.has("number") {
			if _, err := strconv.ParseFloat(t, 64); err == nil && isJSONNumber(t) {
				return json.Number(t)
			}
		}
		return v
	case nil:
		return nil
	default:
		// Typed scalars stay as they are (a number where the schema wants a
		// string is the handler's error, for validation to report); Go
		// numbers become json.Number.
		if num, ok := numberOf(v); ok {
			return num
		}
		return v
	}
}

// isJSONNumber reports whether s is written as JSON writes numbers (no
// "Inf", "NaN", hex or leading "+").
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	i := 0
	if s[0] == '-' {
		i++
	}
	digits := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-':
		default:
			return false
		}
	}
	return digits
}

// coerced is Coerce without the copy when nothing needs coercing: the
// model itself is returned (callers must not change it).
func (s *Schema) coerced(model map[string]any) map[string]any {
	if model == nil || !needsCoerce(s.shapeTree(), model) {
		return model
	}
	return s.Coerce(model)
}

// needsCoerce reports whether coerceValue would change anything in v.
func needsCoerce(n *shape, v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			var sub *shape
			if n != nil {
				if p, ok := n.props[k]; ok {
					sub = p
				} else {
					sub = n.additional
				}
			}
			if needsCoerce(sub, e) {
				return true
			}
		}
		return false
	case []any:
		var sub *shape
		if n != nil {
			sub = n.items
		}
		for _, e := range t {
			if needsCoerce(sub, e) {
				return true
			}
		}
		return false
	case string:
		return n != nil && len(n.types) > 0 && !n.has("string") && (n.has("boolean") || n.has("integer") || n.has("number"))
	case nil, bool, json.Number:
		return false
	default:
		_, isNum := numberOf(v)
		return isNum
	}
}
