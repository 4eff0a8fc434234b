package resources

import (
	"fmt"
	"strconv"
	"strings"
)

// Pointers in schemas name properties as "/properties/A/B", with "*" for
// every member of an array. The helpers here address a model (the object the
// "properties" describe), and accept a pointer with or without the leading
// "/properties". "~1" and "~0" escape "/" and "~" as RFC 6901 says.

// SplitPointer returns the segments of a pointer relative to a model:
// "/properties/A/*/B" → [A * B]. The empty pointer and "/properties" give
// no segments (the model itself).
func SplitPointer(p string) []string {
	p = strings.TrimPrefix(p, "#")
	if p == "" || p == "/" {
		return nil
	}
	p = strings.TrimPrefix(p, "/")
	parts := strings.Split(p, "/")
	if parts[0] == "properties" {
		parts = parts[1:]
	}
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return parts
}

// JoinPointer is the inverse of SplitPointer: it makes "/properties/A/B".
func JoinPointer(segs []string) string {
	var b strings.Builder
	b.WriteString("/properties")
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// Get returns the value at a pointer without "*" (array members are
// addressed by index), and whether it is there. A pointer without escapes
// is walked segment by segment where it stands (attributes are read this
// way on every GetAtt; SplitPointer's slice would be garbage at once).
func Get(model map[string]any, pointer string) (any, bool) {
	if strings.Contains(pointer, "~") {
		return getSegs(model, SplitPointer(pointer))
	}
	p := strings.TrimPrefix(pointer, "#")
	if p == "" || p == "/" {
		return model, true
	}
	p = strings.TrimPrefix(p, "/")
	if rest, ok := strings.CutPrefix(p, "properties"); ok {
		if rest == "" {
			return model, true
		}
		if rest[0] == '/' {
			p = rest[1:] // "" is one empty segment, as SplitPointer has it
		}
	}
	var cur any = model
	for {
		s, rest, more := strings.Cut(p, "/")
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[s]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
		if !more {
			return cur, true
		}
		p = rest
	}
}

func getSegs(model map[string]any, segs []string) (any, bool) {
	var cur any = model
	for _, s := range segs {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[s]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// GetAll returns every value a pointer with "*" addresses, in document order.
func GetAll(model map[string]any, pointer string) []any {
	return getAllSegs(model, SplitPointer(pointer))
}

func getAllSegs(model map[string]any, segs []string) []any {
	var out []any
	walkPointer(model, segs, func(v any) { out = append(out, v) })
	return out
}

func walkPointer(cur any, segs []string, visit func(any)) {
	if len(segs) == 0 {
		visit(cur)
		return
	}
	s, rest := segs[0], segs[1:]
	switch t := cur.(type) {
	case map[string]any:
		if v, ok := t[s]; ok {
			walkPointer(v, rest, visit)
		}
	case []any:
		if s == "*" {
			for _, e := range t {
				walkPointer(e, rest, visit)
			}
			return
		}
		if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(t) {
			walkPointer(t[i], rest, visit)
		}
	}
}

// Has reports whether a pointer (with "*" allowed) addresses at least one value.
func Has(model map[string]any, pointer string) bool {
	return hasSegs(model, SplitPointer(pointer))
}

func hasSegs(model map[string]any, segs []string) bool {
	return hasIn(model, segs)
}

// hasIn is walkPointer that stops at the first value (no closure, no
// allocation).
func hasIn(cur any, segs []string) bool {
	for len(segs) > 0 {
		s := segs[0]
		segs = segs[1:]
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[s]
			if !ok {
				return false
			}
			cur = v
		case []any:
			if s == "*" {
				for _, e := range t {
					if hasIn(e, segs) {
						return true
					}
				}
				return false
			}
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return false
			}
			cur = t[i]
		default:
			return false
		}
	}
	return true
}

// Set stores v at a pointer, making the objects on the way. With "*" it sets
// the value in every existing member of the array (and makes none).
func Set(model map[string]any, pointer string, v any) error {
	return setSegs(model, SplitPointer(pointer), v, pointer)
}

func setSegs(model map[string]any, segs []string, v any, pointer string) error {
	if len(segs) == 0 {
		return fmt.Errorf("set %q: cannot replace the whole model", pointer)
	}
	return setIn(model, segs, v, pointer)
}

func setIn(cur any, segs []string, v any, pointer string) error {
	s, rest := segs[0], segs[1:]
	switch t := cur.(type) {
	case map[string]any:
		if len(rest) == 0 {
			t[s] = v
			return nil
		}
		next, ok := t[s]
		if !ok {
			if rest[0] == "*" {
				return nil
			}
			next = map[string]any{}
			t[s] = next
		}
		return setIn(next, rest, v, pointer)
	case []any:
		if s == "*" {
			for i := range t {
				if len(rest) == 0 {
					t[i] = v
				} else if err := setIn(t[i], rest, v, pointer); err != nil {
					return err
				}
			}
			return nil
		}
		i, err := strconv.Atoi(s)
		if err != nil || i < 0 || i >= len(t) {
			return fmt.Errorf("set %q: no array member %q", pointer, s)
		}
		if len(rest) == 0 {
			t[i] = v
			return nil
		}
		return setIn(t[i], rest, v, pointer)
	default:
		return fmt.Errorf("set %q: %q is inside a %s, not an object or array", pointer, s, kindOf(cur))
	}
}

// Delete removes what a pointer addresses ("*" for every array member) and
// reports whether anything was removed. Objects left empty by the removal
// stay (an empty object is a value).
func Delete(model map[string]any, pointer string) bool {
	return deleteSegs(model, SplitPointer(pointer))
}

func deleteSegs(model map[string]any, segs []string) bool {
	if len(segs) == 0 || model == nil {
		return false
	}
	return deleteIn(model, segs)
}

func deleteIn(cur any, segs []string) bool {
	s, rest := segs[0], segs[1:]
	switch t := cur.(type) {
	case map[string]any:
		if len(rest) == 0 {
			_, ok := t[s]
			delete(t, s)
			return ok
		}
		if next, ok := t[s]; ok {
			return deleteIn(next, rest)
		}
	case []any:
		if len(rest) == 0 {
			return false // array members are not removed by pointer
		}
		if s == "*" {
			removed := false
			for _, e := range t {
				if deleteIn(e, rest) {
					removed = true
				}
			}
			return removed
		}
		if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(t) {
			return deleteIn(t[i], rest)
		}
	}
	return false
}

// PointerMatches reports whether a concrete path (array indices as numbers)
// lies at or under a schema pointer (with "*"): "/properties/A/0/B/C" lies
// under "/properties/A/*/B".
func PointerMatches(schemaPointer, path string) bool {
	return segsUnder(SplitPointer(path), SplitPointer(schemaPointer))
}

func segsUnder(path, prefix []string) bool {
	if len(prefix) > len(path) {
		return false
	}
	for i, p := range prefix {
		if p == "*" {
			if _, err := strconv.Atoi(path[i]); err != nil && path[i] != "*" {
				return false
			}
			continue
		}
		if p != path[i] {
			return false
		}
	}
	return true
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	if _, ok := numberOf(v); ok {
		return "number"
	}
	return fmt.Sprintf("%T", v)
}
