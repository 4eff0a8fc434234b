package resources

import "encoding/json"

// inputWalk is the input mode of fastNode.walk: template properties as
// they stand, each scalar sent as its string (Stringify) and coerced back
// by the shape, each value pending reports passing every check, a null
// checked as a null. nil is the contract mode: a handler's model, where a
// null anywhere is "not certain", and typed scalars are checked as they
// are.
type inputWalk struct {
	pending func(any) bool
}

// walk is validShaped (in nil) and validInput (in non-nil): one walk over
// objects and lists for both, the leaves told apart by the mode.
func (n *fastNode) walk(sh *shape, v any, in *inputWalk) bool {
	if in != nil && in.pending(v) {
		return true
	}
	if n == nil {
		return in != nil || noNull(v)
	}
	if n.unsupported {
		return false
	}
	switch t := v.(type) {
	case nil:
		return in != nil && n.valid(nil)
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
			sub := sh.member(k)
			matched := false
			if p, ok := n.props[k]; ok {
				matched = true
				if !p.walk(sub, e, in) {
					return false
				}
			}
			for _, pn := range n.patterns {
				if pn.re.MatchString(k) {
					matched = true
					if !pn.node.walk(sub, e, in) {
						return false
					}
				}
			}
			if matched {
				continue
			}
			if n.noExtra || !n.additional.walk(sub, e, in) {
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
		var sub *shape
		if sh != nil {
			sub = sh.items
		}
		for _, e := range t {
			if !n.items.walk(sub, e, in) {
				return false
			}
		}
		if n.unique && len(t) > 1 {
			return n.distinct(sub, t, in)
		}
		return true
	case string:
		if sh != nil && len(sh.types) > 0 && !sh.has("string") {
			return n.validCoercedString(sh, t, v)
		}
		return n.valid(v)
	}
	if in == nil {
		switch v.(type) {
		case bool, json.Number:
			return n.valid(v)
		}
		return n.valid(coerceValue(sh, v)) // a Go number
	}
	str, ok := scalarString(v)
	if !ok {
		return false // not a JSON value: the full validator says so
	}
	if sh != nil && len(sh.types) > 0 && !sh.has("string") {
		return n.validCoercedString(sh, str, str)
	}
	return n.valid(str)
}

// distinct is uniqueItems for walk: certain only where coercion cannot
// make two items equal that are not (contract mode: nothing to coerce;
// input mode: plain strings the shape keeps strings).
func (n *fastNode) distinct(sub *shape, t []any, in *inputWalk) bool {
	if in == nil {
		if needsCoerce(sub, t) {
			return false
		}
		for i := range t {
			for j := i + 1; j < len(t); j++ {
				if Equal(t[i], t[j]) {
					return false
				}
			}
		}
		return true
	}
	if sub != nil && len(sub.types) > 0 && !sub.has("string") {
		return false // coercion may make two strings equal
	}
	for i := range t {
		a, ok := t[i].(string)
		if !ok || in.pending(t[i]) {
			return false
		}
		for j := i + 1; j < len(t); j++ {
			if b, ok := t[j].(string); !ok || a == b {
				return false
			}
		}
	}
	return true
}
