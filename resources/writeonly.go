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
//
// It is Coerce, then every readOnly pointer deleted, then stripWriteOnly,
// done a property at a time: a pointer only ever changes the property its
// first segment names (and may remove that property, never the model), so
// a property no pointer of one segment removes and no longer pointer
// starts at is only coerced.
func (s *Schema) InputView(model map[string]any) map[string]any {
	if model == nil {
		return nil
	}
	l := s.lists()
	root := s.shapeTree()
	out := make(map[string]any, len(model))
	for k, v := range model {
		if _, removed := l.topLevel.get(k); removed {
			continue
		}
		cv := coerceValue(root.member(k), v)
		if _, nested := l.nestedTop.get(k); nested {
			switch cv.(type) {
			case map[string]any, []any: // below a scalar a pointer finds nothing
				one := map[string]any{k: cv}
				for _, p := range l.readOnly {
					deleteSegs(one, p.segs)
				}
				stripWriteOnly(s, one)
				var kept bool
				if cv, kept = one[k]; !kept {
					continue
				}
			}
		}
		out[k] = cv
	}
	return out
}
