package resources

// InputCertainlyValidFunc is InputCertainlyValid for template properties
// as they stand: what InputCertainlyValid(StringifyModel(m)) would say of
// m with each value for which pending reports true replaced by Pending,
// found in one walk that neither copies nor stringifies the model (the
// engine checks every resource's properties when its step starts, and
// most are valid). pending is asked of every value before it is looked
// at; it must answer false for maps and lists that are to be walked.
// False means "not certain": the caller asks ValidateInput.
func (s *Schema) InputCertainlyValidFunc(model map[string]any, pending func(any) bool) bool {
	if s.compileInput() != nil {
		return false
	}
	if model == nil {
		model = map[string]any{}
	}
	return s.input.fast.validInput(s.shapeTree(), model, pending)
}

// validInput is n.valid(coerceValue(sh, Stringify(v))), each pending value
// passing. It is conservative where coercion could change what a keyword
// sees (const, enum or uniqueItems over containers; uniqueItems over
// anything but strings the shape keeps strings).
func (n *fastNode) validInput(sh *shape, v any, pending func(any) bool) bool {
	if pending(v) {
		return true
	}
	if n == nil {
		return true
	}
	if n.unsupported {
		return false
	}
	switch t := v.(type) {
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
				if !p.validInput(sub, e, pending) {
					return false
				}
			}
			for _, pn := range n.patterns {
				if pn.re.MatchString(k) {
					matched = true
					if !pn.node.validInput(sub, e, pending) {
						return false
					}
				}
			}
			if matched {
				continue
			}
			if n.noExtra || !n.additional.validInput(sub, e, pending) {
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
			if !n.items.validInput(sub, e, pending) {
				return false
			}
		}
		if n.unique && len(t) > 1 {
			if sub != nil && len(sub.types) > 0 && !sub.has("string") {
				return false // coercion may make two strings equal
			}
			for i := range t {
				a, ok := t[i].(string)
				if !ok || pending(t[i]) {
					return false
				}
				for j := i + 1; j < len(t); j++ {
					if b, ok := t[j].(string); !ok || a == b {
						return false
					}
				}
			}
		}
		return true
	case string:
		if sh != nil && len(sh.types) > 0 && !sh.has("string") {
			return n.validCoercedString(sh, t, v)
		}
		return n.valid(v)
	case nil:
		return n.valid(nil)
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
