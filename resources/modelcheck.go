package resources

import (
	"encoding/json"
	"unicode/utf8"
)

// checkNode is the contract's quick model check compiled for one schema:
// the fast validator's node and the coercion shape of the same place, with
// the members of both found by one lookup. valid answers exactly what
// fast.validShaped(shape, v) answers (certainly valid once coerced, and no
// null anywhere); it only saves the second lookup per member. Patterns and
// additionalProperties, rarer, go through validShaped itself.
type checkNode struct {
	fast  *fastNode // nil: anything goes (but a null)
	shape *shape
	// members holds every name that fast.props or shape.props knows; a
	// name missing here has no fast property and shape.additional's shape.
	members *nameIndex[checkMember]
	items   *checkNode // fast.items with shape.items
}

type checkMember struct {
	prop  *checkNode // fast.props[name] with shape; nil when fast has none
	shape *shape     // the member's shape: shape.props[name], else shape.additional
}

type checkKey struct {
	fast  *fastNode
	shape *shape
}

// compileCheck pairs a fast node with a shape, recursively; memo shares the
// nodes of recursive definitions.
func compileCheck(f *fastNode, sh *shape, memo map[checkKey]*checkNode) *checkNode {
	k := checkKey{f, sh}
	if c, ok := memo[k]; ok {
		return c
	}
	c := &checkNode{fast: f, shape: sh}
	memo[k] = c
	if f == nil || f.unsupported {
		return c
	}
	var shProps map[string]*shape
	if sh != nil {
		shProps = sh.props
	}
	if len(f.props)+len(shProps) > 0 {
		members := make(map[string]checkMember, len(f.props)+len(shProps))
		for name := range shProps {
			members[name] = checkMember{shape: sh.member(name)}
		}
		for name, p := range f.props {
			sub := sh.member(name)
			members[name] = checkMember{prop: compileCheck(p, sub, memo), shape: sub}
		}
		c.members = newNameIndex(members)
	}
	var shItems *shape
	if sh != nil {
		shItems = sh.items
	}
	c.items = compileCheck(f.items, shItems, memo)
	return c
}

// validMember is valid, with the common leaves decided here: a member
// that needs no coercion and whose node has no const or enum.
func (c *checkNode) validMember(v any) bool {
	n := c.fast
	if n == nil || n.unsupported || n.hasConst || n.enum != nil {
		return c.valid(v)
	}
	switch t := v.(type) {
	case json.Number:
		return n.number(t)
	case bool:
		return n.has(tBoolean)
	case string:
		if sh := c.shape; sh != nil && len(sh.types) > 0 && !sh.has("string") {
			return n.validCoercedString(sh, t, v)
		}
		if !n.has(tString) {
			return false
		}
		if n.minLen >= 0 || n.maxLen >= 0 {
			l := utf8.RuneCountInString(t)
			if n.minLen >= 0 && l < n.minLen || n.maxLen >= 0 && l > n.maxLen {
				return false
			}
		}
		return n.pattern == nil || n.matches(t)
	}
	return c.valid(v)
}

// valid is f.validShaped(shape, v), one lookup per member.
func (c *checkNode) valid(v any) bool {
	n := c.fast
	if n == nil {
		return noNull(v)
	}
	if n.unsupported {
		return false
	}
	switch t := v.(type) {
	case nil:
		return false
	case map[string]any:
		if n.hasConst || n.enum != nil || !n.has(tObject) {
			return false
		}
		if n.minProps >= 0 && len(t) < n.minProps || n.maxProps >= 0 && len(t) > n.maxProps {
			return false
		}
		for _, r := range n.required {
			if _, ok := t[r]; !ok {
				return false
			}
		}
		for k, e := range t {
			m, known := c.members.get(k)
			if !known && c.shape != nil {
				m.shape = c.shape.additional
			}
			matched := m.prop != nil
			if matched && !m.prop.validMember(e) {
				return false
			}
			for _, pn := range n.patterns {
				if pn.re.MatchString(k) {
					matched = true
					if !pn.node.validShaped(m.shape, e) {
						return false
					}
				}
			}
			if matched {
				continue
			}
			if n.noExtra || !n.additional.validShaped(m.shape, e) {
				return false
			}
		}
		return true
	case []any:
		if n.hasConst || n.enum != nil || !n.has(tArray) {
			return false
		}
		if n.minItems >= 0 && len(t) < n.minItems || n.maxItems >= 0 && len(t) > n.maxItems {
			return false
		}
		for _, e := range t {
			if !c.items.valid(e) {
				return false
			}
		}
		if n.unique {
			if needsCoerce(c.items.shape, t) {
				return false
			}
			for i := range t {
				for j := i + 1; j < len(t); j++ {
					if Equal(t[i], t[j]) {
						return false
					}
				}
			}
		}
		return true
	case string:
		if sh := c.shape; sh != nil && len(sh.types) > 0 && !sh.has("string") {
			return n.validCoercedString(sh, t, v)
		}
		return n.validString(t, v)
	case json.Number:
		return n.validNumber(t)
	case bool:
		return n.valid(v)
	default:
		return n.valid(coerceValue(c.shape, v)) // a Go number
	}
}
