package resources

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
	for _, p := range s.WriteOnlyProperties {
		segs := s.split(p)
		if !deleteSegs(out, segs) {
			continue
		}
		for i := len(segs) - 1; i > 0; i-- {
			parent := segs[:i]
			if contains(parent, "*") {
				break
			}
			ptr := JoinPointer(parent)
			if v, ok := Get(out, ptr); ok {
				if m, isMap := v.(map[string]any); isMap && len(m) == 0 {
					Delete(out, ptr)
					continue
				}
			}
			break
		}
	}
}

// StripReadOnly returns a copy of model without the schema's readOnly
// properties.
func StripReadOnly(s *Schema, model map[string]any) map[string]any {
	out := CopyModel(model)
	for _, p := range s.ReadOnlyProperties {
		deleteSegs(out, s.split(p))
	}
	return out
}

// WriteOnlyIn lists the writeOnly pointers that hold a value in model.
func (s *Schema) WriteOnlyIn(model map[string]any) []string {
	var out []string
	for _, p := range s.WriteOnlyProperties {
		found := false
		walkPointer(model, s.split(p), func(any) { found = true })
		if found {
			out = append(out, p)
		}
	}
	return out
}

// InputView is what the contract compares a SUCCESS model with: the
// request's properties coerced to the schema's types, without readOnly and
// writeOnly properties (one copy).
func (s *Schema) InputView(model map[string]any) map[string]any {
	out := s.Coerce(model)
	for _, p := range s.ReadOnlyProperties {
		deleteSegs(out, s.split(p))
	}
	stripWriteOnly(s, out)
	return out
}
