package template

import (
	"strings"
)

var outputKeys = map[string]bool{"Value": true, "Description": true, "Export": true, "Condition": true}

func (b *builder) outputs(sec *Node) {
	if !b.section(sec, "Outputs", "outputs", MaxOutputs) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		path := "/Outputs/" + f.Key
		if b.forEachWithoutTransform(f, path) {
			continue
		}
		b.checkName(f, path, "Output")
		def := f.Value
		if def.Kind != Map {
			if def.Kind == Null {
				b.claimed[def] = true
			}
			b.c.at(def, "Template format error: Every Outputs member must contain a Value object")
			continue
		}
		o := &Output{Name: f.Key, Pos: f.KeyPos, Node: def}
		var bad []string
		for _, of := range def.Fields {
			if !outputKeys[of.Key] {
				bad = append(bad, of.Key)
			}
		}
		if len(bad) > 0 {
			b.c.atPos(def.field(bad[0]).KeyPos, path+"/"+bad[0], "Template format error: Invalid outputs property : [%s]", strings.Join(bad, ", "))
		}
		o.Value = def.Get("Value")
		if o.Value == nil {
			b.c.at(def, "Template format error: Every Outputs member must contain a Value object")
		} else if o.Value.Kind == Map && isConditionFn(o.Value.fn) {
			b.c.at(o.Value, "Template format error: The Value field of every Outputs member must evaluate to a String.")
		}
		if v := def.Get("Description"); v != nil && v.Kind != Null {
			if s, ok := v.scalarString(); ok {
				o.Description = s
			} else {
				b.c.at(v, "Template format error: Every Description member in Outputs must be a string.")
			}
		}
		if v := def.Get("Condition"); v != nil && v.Kind != Null {
			if v.Kind != String {
				b.c.at(v, "Template format error: Every Condition member must be a string.")
			} else {
				o.Condition = v.Value
			}
		}
		if v := def.Get("Export"); v != nil && v.Kind != Null {
			name := v.Get("Name")
			switch {
			case v.Kind != Map:
				b.c.at(v, "Template format error: Every Export member must be an object.")
			case name == nil:
				b.c.at(v, "Template format error: Every Export member must contain a Name member.")
			default:
				for _, ef := range v.Fields {
					if ef.Key != "Name" {
						b.c.atPos(ef.KeyPos, path+"/Export/"+ef.Key, "Template format error: Invalid export property : [%s]", ef.Key)
					}
				}
				o.ExportName = name
			}
		}
		b.t.Outputs = append(b.t.Outputs, o)
		b.t.outputs[o.Name] = o
	}
}
