package template

import (
	"regexp"
	"strconv"
	"strings"
)

// builder turns a parsed tree into a Template, collecting every fault.
type builder struct {
	c        collector
	t        *Template
	claimed  map[*Node]bool // nulls already reported by a section
	langExt  bool
	noQuotas bool

	unresolved map[string][]unresolvedRef // by section
	condDeps   map[string][]string        // condition -> conditions it uses
}

// The top-level sections CloudFormation knows.
var sectionNames = map[string]bool{
	"AWSTemplateFormatVersion": true, "Description": true, "Metadata": true, "Parameters": true,
	"Rules": true, "Mappings": true, "Conditions": true, "Transform": true, "Resources": true,
	"Outputs": true, "Hooks": true,
}

// build validates the tree and returns the model.
func build(name string, root *Node, params map[string]any) (*Template, error) {
	return buildWith(name, root, params, true)
}

// buildWith builds with or without the section quotas (benchmarks of
// 10,000 resources measure scaling beyond the 500 CloudFormation allows).
func buildWith(name string, root *Node, params map[string]any, quotas bool) (*Template, error) {
	b := &builder{
		noQuotas: !quotas,
		c:        collector{file: name},
		t: &Template{
			Name: name, Root: root, raw: root,
			resources: map[string]*Resource{}, parameters: map[string]*Parameter{},
			conditions: map[string]*Condition{}, mappings: map[string]*Mapping{}, outputs: map[string]*Output{},
		},
		claimed: map[*Node]bool{},
	}
	if root.Kind != Map {
		b.c.at(root, "Template format error: unsupported structure.")
		return nil, b.c.err()
	}
	if !b.transforms(root) {
		return nil, b.c.err()
	}
	if b.langExt {
		// The loops need the parameters' values: their defaults at Parse,
		// the bound values at Bind.
		pre := &builder{c: collector{file: name}, t: &Template{parameters: map[string]*Parameter{}}, claimed: map[*Node]bool{}}
		pre.parameters(root.Get("Parameters"))
		declared := map[string]bool{}
		values := params
		if values == nil {
			values = map[string]any{}
			for _, p := range pre.t.Parameters {
				if p.HasDefault && !p.kind.ssm {
					values[p.Name] = p.refValue(p.Default)
				}
			}
		}
		for _, p := range pre.t.Parameters {
			declared[p.Name] = true
		}
		expanded, err := expandLanguageExtensions(name, root, values, declared)
		if err != nil {
			return nil, err
		}
		b.t.Root = expanded.root
		b.t.loopsNeedParams = expanded.needParams
		root = expanded.root
	}
	b.model(root)
	b.functions()
	if b.c.empty() {
		b.conditionCycles()
		b.resourceCycles()
	}
	if !b.c.empty() {
		return nil, b.c.err()
	}
	return b.t, nil
}

// model builds every section of root into b.t.
func (b *builder) model(root *Node) {
	var unknown []string
	var unknownAt *Node
	for _, f := range root.Fields {
		if !sectionNames[f.Key] {
			unknown = append(unknown, f.Key)
			if unknownAt == nil {
				unknownAt = f.Value
			}
		}
	}
	if len(unknown) > 0 {
		b.c.atPos(root.field(unknown[0]).KeyPos, "/"+unknown[0],
			"Template format error: Invalid template property or properties [%s]", strings.Join(unknown, ", "))
	}
	if h := root.Get("Hooks"); h != nil {
		e := b.c.at(h, "Template format error: the Hooks section is not supported by stacksim")
		e.err = ErrUnsupported
	}
	if v := root.Get("AWSTemplateFormatVersion"); v != nil && v.Kind != Null {
		b.claimed[v] = true
		if s, ok := v.scalarString(); !ok || s != "2010-09-09" {
			b.c.at(v, "Template format error: Unsupported template format version %s.", nodeText(v))
		} else {
			b.t.FormatVersion = s
		}
	}
	if v := root.Get("Description"); v != nil && v.Kind != Null {
		if s, ok := v.scalarString(); !ok {
			b.c.at(v, "Template format error: Every Description member must be a string.")
		} else if len(s) > MaxDescriptionBytes {
			b.c.at(v, "Template format error: Template description may not exceed %d bytes in size", MaxDescriptionBytes)
		} else {
			b.t.Description = s
		}
	}
	if v := root.Get("Metadata"); v != nil && v.Kind != Null {
		if v.Kind != Map {
			b.c.at(v, "Template format error: Every Metadata member must be an object.")
		}
		b.t.Metadata = v
	}
	b.parameters(root.Get("Parameters"))
	b.mappings(root.Get("Mappings"))
	b.conditions(root.Get("Conditions"))
	b.rules(root.Get("Rules"))
	b.resources(root.Get("Resources"))
	b.outputs(root.Get("Outputs"))
	b.nulls(root)
	for _, r := range b.t.Resources {
		if b.t.parameters[r.LogicalID] != nil {
			b.c.at(r.Node, "Template error: all resources and parameters must have unique names. Common name(s):[%s]", r.LogicalID)
		}
	}
}

// nulls refuses every null value the sections did not already report.
func (b *builder) nulls(n *Node) {
	switch n.Kind {
	case Null:
		if !b.claimed[n] {
			b.c.at(n, "[%s] 'null' values are not allowed in templates", n.Path())
		}
	case List:
		for _, c := range n.Items {
			b.nulls(c)
		}
	case Map:
		if n.fn == fnGetAZs && n.arg().Kind == Null {
			// AWS's own samples write `Fn::GetAZs: null` (YAML `!GetAZs`
			// with nothing after it) for the current region, and
			// CloudFormation takes it like "".
			return
		}
		for _, f := range n.Fields {
			b.nulls(f.Value)
		}
	}
}

// section checks that a section is a map within its quota and returns it.
func (b *builder) section(sec *Node, name, noun string, max int) bool {
	if sec == nil || sec.Kind == Null {
		return false
	}
	if sec.Kind != Map {
		b.c.at(sec, "Template format error: Every %s member must be an object.", name)
		return false
	}
	if max > 0 && len(sec.Fields) > max && !b.noQuotas {
		b.c.at(sec, "Template format error: Number of %s, %d, is greater than maximum allowed, %d", noun, len(sec.Fields), max)
	}
	return true
}

// isAlnum tells whether s is a non-empty run of ASCII letters and digits.
func isAlnum(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// checkName refuses a logical name that is not alphanumeric or too long.
func (b *builder) checkName(f *Field, path, what string) bool {
	if !isAlnum(f.Key) {
		b.c.atPos(f.KeyPos, path, "Template format error: %s name %s is non alphanumeric.", what, f.Key)
		return false
	}
	if len(f.Key) > MaxNameLength {
		b.c.atPos(f.KeyPos, path, "Template format error: %s name %s... may not exceed %d characters", what, f.Key[:32], MaxNameLength)
		return false
	}
	return true
}

// nodeText renders a node briefly for messages.
func nodeText(n *Node) string {
	if s, ok := n.scalarString(); ok {
		return s
	}
	return n.Kind.String()
}

// ---- Parameters ----

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
				// Java's regular expressions are a superset of RE2's; a
				// pattern RE2 cannot compile is not enforced.
				if re, err := regexp.Compile("^(?:" + s + ")$"); err == nil {
					p.pattern = re
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

// ---- Mappings ----

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

// mappingValue refuses intrinsic functions in a mapping's values.
func (b *builder) mappingValue(v *Node) {
	switch v.Kind {
	case Map:
		if v.fn != fnNone {
			b.c.at(v, "Template format error: Every Mappings attribute must be a String or a List.")
			return
		}
		for _, f := range v.Fields {
			b.mappingValue(f.Value)
		}
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

// ---- Resources ----

var resourceKeys = map[string]bool{
	"Type": true, "Properties": true, "DependsOn": true, "Condition": true, "DeletionPolicy": true,
	"UpdateReplacePolicy": true, "Metadata": true, "CreationPolicy": true, "UpdatePolicy": true,
	// Version is accepted on custom resources for historical reasons.
	"Version": true,
}

var deletionPolicies = map[string]bool{"Delete": true, "Retain": true, "Snapshot": true, "RetainExceptOnCreate": true}
var updateReplacePolicies = map[string]bool{"Delete": true, "Retain": true, "Snapshot": true}

// typeRE is the shape of a resource type name: Org::Service::Type (and
// modules' ::MODULE suffix), or Custom::Name.
var typeRE = regexp.MustCompile(`^(?:[A-Za-z0-9]+::[A-Za-z0-9]+::[A-Za-z0-9]+(?:::MODULE)?|Custom::[A-Za-z0-9_@.\-]+)$`)

func (b *builder) resources(sec *Node) {
	empty := sec == nil || sec.Kind == Null || (sec.Kind == Map && len(sec.Fields) == 0)
	if empty && b.t.loopsNeedParams {
		return // the loops produce the resources once the parameters are bound
	}
	if empty {
		if sec != nil {
			b.claimed[sec] = true
		}
		at := sec
		if at == nil {
			at = b.t.Root
		}
		b.c.at(at, "Template format error: At least one Resources member must be defined.")
		return
	}
	if !b.section(sec, "Resources", "resources", MaxResources) {
		return
	}
	for i := range sec.Fields {
		f := &sec.Fields[i]
		path := "/Resources/" + f.Key
		def := f.Value
		if b.forEachWithoutTransform(f, path) {
			continue
		}
		b.checkName(f, path, "Resource")
		r := &Resource{LogicalID: f.Key, Pos: f.KeyPos, Node: def, index: len(b.t.Resources)}
		if def.Kind != Map {
			if def.Kind == Null {
				b.claimed[def] = true
			}
			b.c.atPos(f.KeyPos, path, "Template format error: [%s] Every Resources object must contain a Type member.", path)
			continue
		}
		for _, rf := range def.Fields {
			if !resourceKeys[rf.Key] {
				b.c.atPos(rf.KeyPos, path+"/"+rf.Key, "Invalid template resource property '%s'", rf.Key)
			}
		}
		typ := def.Get("Type")
		switch {
		case typ == nil || typ.Kind == Null:
			if typ != nil {
				b.claimed[typ] = true
			}
			b.c.atPos(f.KeyPos, path, "Template format error: [%s] Every Resources object must contain a Type member.", path)
		case typ.Kind != String:
			b.c.at(typ, "Template format error: [%s/Type] Every Type member must be a string.", path)
		default:
			r.Type = typ.Value
			switch {
			case !typeRE.MatchString(r.Type):
				b.c.at(typ, "Template format error: Unrecognized resource types: [%s]", r.Type)
			case strings.HasSuffix(r.Type, "::MODULE"):
				e := b.c.at(typ, "Template format error: module %s is not supported by stacksim", r.Type)
				e.Detail = "modules are expanded from the CloudFormation registry; give stacksim the processed template"
				e.err = ErrUnsupported
			}
		}
		if v := def.Get("Properties"); v != nil && v.Kind != Null {
			if v.Kind != Map {
				b.c.at(v, "Template format error: [%s/Properties] Every Properties member must be an object.", path)
			} else {
				r.Properties = v
			}
		}
		if v := def.Get("DependsOn"); v != nil && v.Kind != Null {
			switch v.Kind {
			case String:
				r.DependsOn = []string{v.Value}
			case List:
				for _, item := range v.Items {
					if item.Kind != String {
						if item.Kind != Null {
							b.c.at(item, "Template format error: Every DependsOn value must be a string.")
						}
						continue
					}
					r.DependsOn = append(r.DependsOn, item.Value)
				}
			default:
				b.c.at(v, "Template format error: DependsOn must be a string or list of strings.")
			}
		}
		if v := def.Get("Condition"); v != nil && v.Kind != Null {
			if v.Kind != String {
				b.c.at(v, "Template format error: Every Condition member must be a string.")
			} else {
				r.Condition = v.Value
			}
		}
		r.DeletionPolicy, r.deletionPolicyNode = b.policy(def, "DeletionPolicy", path, f.Key, deletionPolicies)
		r.UpdateReplacePolicy, r.updateReplacePolicyNode = b.policy(def, "UpdateReplacePolicy", path, f.Key, updateReplacePolicies)
		r.Metadata = b.objectAttr(def, "Metadata", path)
		r.CreationPolicy = b.objectAttr(def, "CreationPolicy", path)
		r.UpdatePolicy = b.objectAttr(def, "UpdatePolicy", path)
		b.t.Resources = append(b.t.Resources, r)
		b.t.resources[r.LogicalID] = r
	}
}

// policy reads DeletionPolicy or UpdateReplacePolicy. Under
// AWS::LanguageExtensions the value may be an intrinsic function, resolved
// when the template is bound.
func (b *builder) policy(def *Node, key, path, id string, allowed map[string]bool) (string, *Node) {
	v := def.Get(key)
	if v == nil || v.Kind == Null {
		return "", nil
	}
	if v.Kind == Map && v.fn != fnNone {
		// Intrinsic functions (Ref, Fn::FindInMap, Fn::If) are resolved
		// when the template is bound.
		return "", v
	}
	s, ok := v.scalarString()
	if !ok || v.Kind != String || !allowed[s] {
		b.c.at(v, "Template format error: Unrecognized %s %s for resource %s", key, nodeText(v), id)
		return "", nil
	}
	return s, nil
}

func (b *builder) objectAttr(def *Node, key, path string) *Node {
	v := def.Get(key)
	if v == nil || v.Kind == Null {
		return nil
	}
	if v.Kind != Map {
		b.c.at(v, "Template format error: [%s/%s] Every %s member must be an object.", path, key, key)
		return nil
	}
	return v
}

// forEachWithoutTransform refuses an Fn::ForEach loop in a template that
// does not declare AWS::LanguageExtensions (with the transform, loops are
// expanded before the sections are read).
func (b *builder) forEachWithoutTransform(f *Field, path string) bool {
	if !strings.HasPrefix(f.Key, "Fn::ForEach::") {
		return false
	}
	b.claimed[f.Value] = true
	e := b.c.atPos(f.KeyPos, path, "Template format error: [%s] resource definition is malformed", path)
	e.Detail = "Fn::ForEach needs Transform: AWS::LanguageExtensions"
	return true
}

// ---- Outputs ----

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

// ---- Transform ----

// LanguageExtensions is the one transform stacksim runs.
const LanguageExtensions = "AWS::LanguageExtensions"

// transforms reads the Transform section; it reports a transform stacksim
// does not run and returns false then, since the rest of such a template is
// written for the transform's output.
func (b *builder) transforms(root *Node) bool {
	sec := root.Get("Transform")
	if sec == nil || sec.Kind == Null {
		return b.noFnTransform(root)
	}
	var items []*Node
	if sec.Kind == List {
		items = sec.Items
	} else {
		items = []*Node{sec}
	}
	var unsupported []string
	var at *Node
	for _, it := range items {
		name := ""
		switch {
		case it.Kind == String:
			name = it.Value
		case it.Kind == Map && it.Get("Name") != nil && it.Get("Name").Kind == String:
			name = it.Get("Name").Value // a macro with parameters
		default:
			b.c.at(it, "Key Name of transform definition must be a string.")
			return false
		}
		b.t.Transform = append(b.t.Transform, name)
		if name == LanguageExtensions {
			b.langExt = true
			continue
		}
		unsupported = append(unsupported, name)
		if at == nil {
			at = it
		}
	}
	if len(unsupported) > 0 {
		e := b.c.at(at, "Template format error: Transform %s is not supported by stacksim", strings.Join(unsupported, ", "))
		e.Detail = "stacksim runs AWS::LanguageExtensions only; expand other transforms and macros first (sam build, aws cloudformation package) and give stacksim the processed template"
		e.err = ErrUnsupported
		return false
	}
	return b.noFnTransform(root)
}

// noFnTransform refuses Fn::Transform (a macro or AWS::Include in place).
func (b *builder) noFnTransform(n *Node) bool {
	ok := true
	var walk func(*Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Map:
			if n.fn == fnTransform || (n.Kind == Map && n.Get("Fn::Transform") != nil) {
				at := n
				if n.fn != fnTransform {
					at = n.Get("Fn::Transform")
				}
				name := "a macro"
				arg := at
				if n.fn == fnTransform {
					arg = n.arg()
				}
				if arg.Kind == List && len(arg.Items) > 0 {
					arg = arg.Items[0]
				}
				if nm := arg.Get("Name"); nm != nil {
					name = nodeText(nm)
				}
				e := b.c.at(at, "Template format error: Fn::Transform (%s) is not supported by stacksim", name)
				e.Detail = "expand the transform first and give stacksim the processed template"
				e.err = ErrUnsupported
				ok = false
				return
			}
			for _, f := range n.Fields {
				walk(f.Value)
			}
		case List:
			for _, c := range n.Items {
				walk(c)
			}
		}
	}
	walk(n)
	return ok
}
