package template

import (
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/internal/javapattern"
)

var parameterKeys = map[string]bool{
	"Type": true, "Default": true, "NoEcho": true, "AllowedValues": true, "AllowedPattern": true,
	"MaxLength": true, "MinLength": true, "MaxValue": true, "MinValue": true, "Description": true,
	"ConstraintDescription": true,
}

func (b *builder) parameters(sec *Node) {
	if !b.section(sec, "Parameters", "parameters", MaxParameters) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		path := "/Parameters/" + f.Key
		b.checkName(f, path, "Parameter")
		def := f.Value
		if def.Kind != Map {
			if def.Kind == Null {
				b.claimed[def] = true
			}
			b.c.at(def, "Template format error: Every Parameters object must contain a Type member.")
			continue
		}
		p := &Parameter{Name: f.Key, Pos: f.KeyPos, Node: def}
		for _, pf := range def.Fields {
			if !parameterKeys[pf.Key] {
				b.c.atPos(pf.KeyPos, path+"/"+pf.Key, "Invalid template parameter property '%s'", pf.Key)
			}
		}
		typ := def.Get("Type")
		switch {
		case typ == nil || typ.Kind == Null:
			if typ != nil {
				b.claimed[typ] = true
			}
			b.c.at(def, "Template format error: Every Parameters object must contain a Type member.")
		default:
			s, _ := typ.scalarString()
			k, ok := parseParamType(s)
			if typ.Kind != String || !ok {
				b.c.at(typ, "Template format error: Unrecognized parameter type: %s", nodeText(typ))
			}
			p.Type, p.kind = s, k
		}
		if d := def.Get("Default"); d != nil && d.Kind != Null {
			if s, ok := b.paramScalarOrList(d, "Default"); ok {
				p.Default, p.HasDefault = s, true
				if len(s) > MaxParameterValueBytes {
					b.c.at(d, "Template format error: Parameter '%s' default value '%s' length is greater than %d.", p.Name, maskIf(true, s), MaxParameterValueBytes)
				}
			}
		}
		if v := def.Get("NoEcho"); v != nil && v.Kind != Null {
			s, ok := v.scalarString()
			if !ok || (!strings.EqualFold(s, "true") && !strings.EqualFold(s, "false")) {
				b.c.at(v, "Template format error: Every NoEcho member must be a boolean.")
			}
			p.NoEcho = strings.EqualFold(s, "true")
		}
		if v := def.Get("AllowedValues"); v != nil && v.Kind != Null {
			if v.Kind != List {
				b.c.at(v, "Template format error: Every AllowedValues member must be a list.")
			} else {
				for _, item := range v.Items {
					s, ok := item.scalarString()
					if !ok {
						if item.Kind != Null {
							b.c.at(item, "Template format error: Every AllowedValues value must be a string.")
						}
						continue
					}
					p.AllowedValues = append(p.AllowedValues, s)
				}
			}
		}
		if v := def.Get("AllowedPattern"); v != nil && v.Kind != Null {
			s, ok := v.scalarString()
			if !ok {
				b.c.at(v, "Template format error: Every AllowedPattern member must be a string.")
			} else {
				p.AllowedPattern = s
				// a Java expression (lookaheads are common: S3 bucket
				// names); one neither engine compiles fails the template,
				// as AWS's validation fails it (in words not recorded)
				if re, err := javapattern.Compile("^(?:" + s + ")$"); err == nil {
					p.pattern = re
				} else {
					if _, alone := javapattern.Compile(s); alone != nil {
						err = alone // the error in the author's own text
					}
					e := b.c.at(v, "Template format error: Parameter '%s' AllowedPattern is not a valid regular expression: %s", p.Name, s)
					e.Detail = err.Error() + "; AllowedPattern is a Java regular expression the whole value must match"
				}
			}
		}
		p.MinLength = b.paramInt(def, "MinLength")
		p.MaxLength = b.paramInt(def, "MaxLength")
		p.MinValue = b.paramNumber(def, "MinValue")
		p.MaxValue = b.paramNumber(def, "MaxValue")
		if v := def.Get("Description"); v != nil && v.Kind != Null {
			if s, ok := v.scalarString(); ok {
				p.Description = s
				if len(s) > 4000 {
					b.c.at(v, "Template format error: Description must be no longer than 4000 characters.")
				}
			} else {
				b.c.at(v, "Template format error: Every Description member must be a string.")
			}
		}
		if v := def.Get("ConstraintDescription"); v != nil && v.Kind != Null {
			if s, ok := v.scalarString(); ok {
				p.ConstraintDescription = s
				if len(s) > 4000 {
					b.c.at(v, "Template format error: ConstraintDescription must be no longer than 4000 characters.")
				}
			} else {
				b.c.at(v, "Template format error: Every ConstraintDescription member must be a string.")
			}
		}
		b.t.Parameters = append(b.t.Parameters, p)
		b.t.parameters[p.Name] = p
	}
}

// paramScalarOrList reads a scalar, or a list of scalars joined by commas.
func (b *builder) paramScalarOrList(n *Node, what string) (string, bool) {
	if s, ok := n.scalarString(); ok {
		return s, true
	}
	if n.Kind == List {
		parts := make([]string, 0, len(n.Items))
		for _, item := range n.Items {
			s, ok := item.scalarString()
			if !ok {
				b.c.at(item, "Template format error: Every %s member must be a string.", what)
				return "", false
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ","), true
	}
	b.c.at(n, "Template format error: Every %s member must be a string.", what)
	return "", false
}

func (b *builder) paramInt(def *Node, key string) *int {
	v := def.Get(key)
	if v == nil || v.Kind == Null {
		return nil
	}
	s, _ := v.scalarString()
	i, err := strconv.Atoi(s)
	if (v.Kind != Number && v.Kind != String) || err != nil || i < 0 {
		b.c.at(v, "Template format error: Every %s member must be a number.", key)
		return nil
	}
	return &i
}

func (b *builder) paramNumber(def *Node, key string) *string {
	v := def.Get(key)
	if v == nil || v.Kind == Null {
		return nil
	}
	s, _ := v.scalarString()
	if _, err := strconv.ParseFloat(s, 64); (v.Kind != Number && v.Kind != String) || err != nil {
		b.c.at(v, "Template format error: Every %s member must be a number.", key)
		return nil
	}
	return &s
}
