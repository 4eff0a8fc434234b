package resources

import "strconv"

// StripWriteOnly returns a copy of model without the schema's writeOnly
// properties. An object that held only writeOnly members (a Lambda
// function's Code) goes too: the contract wants no property without a value.
func StripWriteOnly(s *Schema, model map[string]any) map[string]any {
	out := CopyModel(model)
	stripWriteOnly(s, out)
	return out
}

func stripWriteOnly(s *Schema, out map[string]any) {
	if out == nil {
		return
	}
	for _, p := range s.lists().writeOnly {
		segs := p.segs
		if !deleteSegs(out, segs) {
			continue
		}
		for i := len(segs) - 1; i > 0; i-- {
			parent := segs[:i]
			if contains(parent, "*") {
				break
			}
			if v, ok := getSegs(out, parent); ok {
				if m, isMap := v.(map[string]any); isMap && len(m) == 0 {
					deleteSegs(out, parent)
					continue
				}
			}
			break
		}
	}
}

// withoutWriteOnly is model without the schema's writeOnly properties,
// model left as it is: model itself when it holds no writeOnly value,
// otherwise a copy of the objects and arrays on the writeOnly paths (the
// rest shared with model) with the values removed as stripWriteOnly does.
func withoutWriteOnly(s *Schema, model map[string]any) map[string]any {
	if model == nil || !s.holdsWriteOnly(model) {
		return model
	}
	out := copyAlong(model, s.lists().writeOnlyTrie).(map[string]any)
	stripWriteOnly(s, out)
	return out
}

// holdsWriteOnly reports whether a writeOnly pointer addresses a value in
// model.
func (s *Schema) holdsWriteOnly(model map[string]any) bool {
	for _, p := range s.lists().writeOnly {
		if hasSegs(model, p.segs) {
			return true
		}
	}
	return false
}

// segTrie is a set of pointers as a tree of segments.
type segTrie map[string]segTrie

// copyAlong copies v and every object and array on the paths of t below it
// (a segment addresses an object's member by name, an array's members by
// index or "*", as the pointer helpers do), sharing everything else. Every
// container that deleting those paths changes is then a copy.
func copyAlong(v any, t segTrie) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		for seg, sub := range t {
			if e, ok := out[seg]; ok && len(sub) > 0 {
				out[seg] = copyAlong(e, sub)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		copy(out, x)
		for seg, sub := range t {
			if len(sub) == 0 {
				continue
			}
			if seg == "*" {
				for i := range out {
					out[i] = copyAlong(out[i], sub)
				}
			} else if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(out) {
				out[i] = copyAlong(out[i], sub)
			}
		}
		return out
	}
	return v
}

// StripReadOnly returns a copy of model without the schema's readOnly
// properties.
func StripReadOnly(s *Schema, model map[string]any) map[string]any {
	out := CopyModel(model)
	for _, p := range s.lists().readOnly {
		deleteSegs(out, p.segs)
	}
	return out
}

// WriteOnlyIn lists the writeOnly pointers that hold a value in model.
func (s *Schema) WriteOnlyIn(model map[string]any) []string {
	var out []string
	for _, p := range s.lists().writeOnly {
		if hasSegs(model, p.segs) {
			out = append(out, p.text)
		}
	}
	return out
}

// InputView is what the contract compares a SUCCESS model with: the
// request's properties coerced to the schema's types, without readOnly and
// writeOnly properties (one copy).
func (s *Schema) InputView(model map[string]any) map[string]any {
	if out, ok := s.flatInputView(model); ok {
		return out
	}
	out := s.Coerce(model)
	for _, p := range s.lists().readOnly {
		deleteSegs(out, p.segs)
	}
	stripWriteOnly(s, out)
	return out
}

// flatInputView is InputView for the common model whose values are all
// scalars (ok is false for any other): the pointers of one segment remove
// their key, and deeper ones find nothing to remove below a scalar.
func (s *Schema) flatInputView(model map[string]any) (map[string]any, bool) {
	if model == nil {
		return nil, true
	}
	top := s.lists().topLevel
	root := s.shapeTree()
	out := make(map[string]any, len(model))
	for k, v := range model {
		switch v.(type) {
		case map[string]any, []any:
			return nil, false
		}
		if _, removed := top.get(k); removed {
			continue
		}
		out[k] = coerceValue(root.member(k), v)
	}
	return out, true
}
