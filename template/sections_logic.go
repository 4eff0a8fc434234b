package template

func (b *builder) mappings(sec *Node) {
	if !b.section(sec, "Mappings", "mappings", MaxMappings) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		path := "/Mappings/" + f.Key
		b.checkName(f, path, "Mapping")
		m := f.Value
		if m.Kind != Map {
			if m.Kind == Null {
				b.claimed[m] = true
			}
			b.c.at(m, "Template format error: Every Mappings member %s must be a map", f.Key)
			continue
		}
		if len(m.Fields) > MaxMappingAttributes {
			b.c.at(m, "Template format error: Number of attributes in mapping %s, %d, is greater than maximum allowed, %d", f.Key, len(m.Fields), MaxMappingAttributes)
		}
		for _, kf := range m.Fields {
			if kf.Value.Kind != Map {
				if kf.Value.Kind == Null {
					b.claimed[kf.Value] = true
				}
				b.c.at(kf.Value, "Template format error: Every Mappings attribute must be a map")
				continue
			}
			for _, af := range kf.Value.Fields {
				b.mappingValue(af.Value)
			}
		}
		mp := &Mapping{Name: f.Key, Node: m, Pos: f.KeyPos}
		b.t.Mappings = append(b.t.Mappings, mp)
		b.t.mappings[mp.Name] = mp
	}
}

// mappingValue refuses what a mapping's value cannot be: "The values can
// be String or List types" (the user guide's Mappings section), so an
// object (an intrinsic function among them) is "Template format error:
// Every Mappings attribute must be a String or a List." (the wording of
// issue 15's comparison with AWS).
func (b *builder) mappingValue(v *Node) {
	switch v.Kind {
	case Map:
		b.c.at(v, "Template format error: Every Mappings attribute must be a String or a List.")
	case List:
		for _, item := range v.Items {
			b.mappingValue(item)
		}
	}
}

// ---- Conditions ----

func (b *builder) conditions(sec *Node) {
	if !b.section(sec, "Conditions", "conditions", 0) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		expr := f.Value
		if b.forEachWithoutTransform(f, "/Conditions/"+f.Key) {
			continue
		}
		if expr.Kind != Map || !isConditionFn(expr.fn) {
			if expr.Kind == Null {
				b.claimed[expr] = true
			}
			b.c.at(expr, "Template format error: Conditions can only be boolean operations on parameters and other conditions")
		}
		c := &Condition{Name: f.Key, Expr: expr, Pos: f.KeyPos}
		b.t.Conditions = append(b.t.Conditions, c)
		b.t.conditions[c.Name] = c
	}
}

// ---- Rules ----

func (b *builder) rules(sec *Node) {
	if !b.section(sec, "Rules", "rules", 0) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		def := f.Value
		if def.Kind != Map {
			if def.Kind == Null {
				b.claimed[def] = true
			}
			b.c.at(def, "Template format error: Every Rules member must be an object.")
			continue
		}
		// CloudFormation ignores the members of a rule and of an assertion
		// it does not know (AWS's own samples misspell AssertDescription).
		r := &Rule{Name: f.Key, Pos: f.KeyPos, Condition: def.Get("RuleCondition")}
		as := def.Get("Assertions")
		if as == nil || as.Kind != List {
			if as != nil && as.Kind == Null {
				b.claimed[as] = true
			}
			b.c.at(def, "Template format error: Every Rules member must contain an Assertions list.")
		} else {
			for _, a := range as.Items {
				assert := a.Get("Assert")
				if a.Kind != Map || assert == nil || assert.Kind == Null {
					if assert != nil {
						b.claimed[assert] = true
					}
					b.c.at(a, "Template format error: Every Assertions member must contain an Assert.")
					continue
				}
				asn := Assertion{Assert: assert, Pos: a.Pos}
				if d := a.Get("AssertDescription"); d != nil && d.Kind != Null {
					if s, ok := d.scalarString(); ok {
						asn.Description = s
					} else {
						b.c.at(d, "Template format error: Every AssertDescription member must be a string.")
					}
				}
				r.Assertions = append(r.Assertions, asn)
			}
		}
		b.t.Rules = append(b.t.Rules, r)
	}
}
