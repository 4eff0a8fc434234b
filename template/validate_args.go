package template

import (
	"strings"
)

// The checks of the functions that refer to something: Ref, Fn::GetAtt,
// Fn::Sub, Fn::If and Fn::FindInMap, and the references they record.

// ref checks Ref and records what it refers to.
func (w *walker) ref(n, arg *Node) {
	if arg.Kind != String {
		w.errorf(n, "Template format error: Every Ref object must have a single String value.")
		return
	}
	name := arg.Value
	t := w.b.t
	switch {
	case isPseudo(name):
		if w.inImport && name != "AWS::Region" && name != "AWS::AccountId" && name != "AWS::StackName" &&
			name != "AWS::Partition" && name != "AWS::URLSuffix" && name != "AWS::StackId" {
			w.errorf(n, msgImportDepends)
		}
	case t.parameters[name] != nil:
		w.addRef(n, Reference{Target: name, Kind: RefParameter})
	case t.resources[name] != nil:
		switch w.ctx {
		case ctxPolicy:
			w.errorf(n, "Template format error: Unsupported expression for %s in resource %s", w.policy, w.owner)
		case ctxCondition:
			w.errorf(n, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the Conditions block of the template", name)
		case ctxRule:
			w.errorf(n, "Template format error: Unresolved resource dependencies [%s] in the Rules block of the template", name)
		default:
			if w.inImport {
				w.errorf(n, msgImportDepends)
				return
			}
			w.addRef(n, Reference{Target: name, Kind: RefRef})
		}
	default:
		if w.ctx == ctxCondition {
			w.errorf(n, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the Conditions block of the template", name)
			return
		}
		w.b.addUnresolved(w.block, name, n)
	}
}

// resourceRef records a reference to a resource (DependsOn, GetAtt, Sub).
func (w *walker) resourceRef(n *Node, id string, kind RefKind, attr string) {
	if w.b.t.resources[id] == nil {
		w.b.addUnresolved(w.block, id, n)
		return
	}
	w.addRef(n, Reference{Target: id, Kind: kind, Attribute: attr})
}

// conditionRef records a reference to a condition.
func (w *walker) conditionRef(n *Node, name string) {
	if w.b.t.conditions[name] == nil {
		block := w.block
		w.b.c.at(n, "Template format error: Unresolved condition dependencies [%s] in the %s block of the template", name, block)
		return
	}
	if w.ctx == ctxCondition {
		w.b.condDeps[w.condName] = append(w.b.condDeps[w.condName], name)
		return
	}
	w.addRef(n, Reference{Target: name, Kind: RefCondition})
}

// getAttTarget reads the resource and attribute of an Fn::GetAtt argument:
// ["Res", "Attr"] or "Res.Attr". The attribute is "" when it is a function
// (a Ref to a parameter).
func getAttTarget(arg *Node) (id, attr string, ok bool) {
	switch arg.Kind {
	case String:
		i := strings.IndexByte(arg.Value, '.')
		if i <= 0 || i == len(arg.Value)-1 {
			return "", "", false
		}
		return arg.Value[:i], arg.Value[i+1:], true
	case List:
		if len(arg.Items) != 2 || arg.Items[0].Kind != String || arg.Items[0].Value == "" {
			return "", "", false
		}
		a := arg.Items[1]
		switch {
		case a.Kind == String && a.Value != "":
			return arg.Items[0].Value, a.Value, true
		case a.Kind == Map && a.fn == fnRef:
			return arg.Items[0].Value, "", true
		}
	}
	return "", "", false
}

func (w *walker) getAtt(n, arg *Node) {
	id, attr, ok := getAttTarget(arg)
	if !ok {
		w.errorf(n, msgGetAtt)
		return
	}
	if w.inImport {
		w.errorf(n, msgImportDepends)
		return
	}
	if w.ctx == ctxRule {
		w.errorf(n, "Template format error: Following functions are not supported in the Rules block of the template: [Fn::GetAtt]")
		return
	}
	if w.b.t.resources[id] == nil {
		w.errorf(n, "Template error: instance of Fn::GetAtt references undefined resource %s", id)
		return
	}
	w.addRef(n, Reference{Target: id, Kind: RefGetAtt, Attribute: attr})
	if arg.Kind == List && arg.Items[1].Kind == Map {
		a := arg.Items[1]
		if p := a.arg(); p.Kind != String || w.b.t.parameters[p.Value] == nil {
			w.errorf(a, "Template error: the attribute of Fn::GetAtt may be a Ref to a parameter only")
			return
		}
		w.walk(a)
	}
}

func (w *walker) sub(n, arg *Node) {
	var text *Node
	var vars *Node
	switch {
	case arg.Kind == String:
		text = arg
	case arg.Kind == List && len(arg.Items) == 2 && arg.Items[0].Kind == String && arg.Items[1].Kind == Map && arg.Items[1].fn == fnNone:
		text, vars = arg.Items[0], arg.Items[1]
	case arg.Kind == List && len(arg.Items) == 1 && arg.Items[0].Kind == String:
		text = arg.Items[0]
	default:
		w.errorf(n, msgSub)
		return
	}
	if vars != nil {
		for _, f := range vars.Fields {
			if !subKeyRE.MatchString(f.Key) {
				w.b.c.atPos(f.KeyPos, f.Value.Path(), "Template error: every key of the context object of every Fn::Sub object must contain only alphanumeric characters and underscores")
			}
			w.walk(f.Value)
		}
	}
	parts, ok := appendSub(w.parts[:0], text.Value)
	w.parts = parts
	if !ok {
		w.errorf(text, msgSubVarName)
		return
	}
	for _, p := range parts {
		if !p.isVar || (vars != nil && vars.Get(p.text) != nil) {
			continue
		}
		w.subVar(n, text, p.text)
	}
}

// subVar records the reference of one ${Name} of Fn::Sub: its path is the
// call's, its position the string's.
func (w *walker) subVar(call, at *Node, name string) {
	t := w.b.t
	switch {
	case isPseudo(name):
		return
	case t.parameters[name] != nil:
		w.addRef(call, Reference{Target: name, Kind: RefParameter, Pos: at.Pos})
		return
	}
	id, attr := name, ""
	if i := strings.IndexByte(name, '.'); i >= 0 {
		id, attr = name[:i], name[i+1:]
	}
	if t.resources[id] == nil {
		if w.ctx == ctxCondition {
			w.errorf(at, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the Conditions block of the template", name)
			return
		}
		w.b.addUnresolved(w.block, name, at)
		return
	}
	switch {
	case w.ctx == ctxCondition:
		w.errorf(at, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the Conditions block of the template", id)
	case w.inImport:
		w.errorf(at, msgImportDepends)
	default:
		w.addRef(call, Reference{Target: id, Kind: RefSub, Attribute: attr, Pos: at.Pos})
	}
}

func (w *walker) fnIf(n, arg *Node) {
	if arg.Kind != List || len(arg.Items) == 0 || arg.Items[0].Kind != String {
		w.errorf(n, "Template error: Fn::If requires a list argument with the first element being a condition")
		return
	}
	if len(arg.Items) != 3 {
		w.errorf(n, msgIfArgs)
		return
	}
	cond := arg.Items[0].Value
	if w.b.t.conditions[cond] == nil {
		w.errorf(arg.Items[0], "Template error: unresolved condition dependency %s in Fn::If", cond)
		return
	}
	switch w.ctx {
	case ctxCondition:
		w.b.condDeps[w.condName] = append(w.b.condDeps[w.condName], cond)
	default:
		w.addRef(arg.Items[0], Reference{Target: cond, Kind: RefCondition})
	}
	for i, branch := range arg.Items[1:] {
		w.under = append(w.under, ifBranch{condition: cond, then: i == 0})
		w.walk(branch)
		w.under = w.under[:len(w.under)-1]
	}
}

func (w *walker) findInMap(n, arg *Node) {
	if arg.Kind != List || (len(arg.Items) != 3 && !(w.b.langExt && len(arg.Items) == 4)) {
		w.errorf(n, msgFindInMap)
		return
	}
	for _, item := range arg.Items[:3] {
		if !(item.IsScalar() || (item.Kind == Map && item.fn != fnNone)) {
			w.errorf(n, msgFindInMap)
			return
		}
	}
	hasDefault := false
	if len(arg.Items) == 4 {
		d := arg.Items[3]
		if d.Kind != Map || len(d.Fields) != 1 || d.Fields[0].Key != "DefaultValue" {
			w.errorf(d, "Template error: the fourth parameter of Fn::FindInMap must be an object with a DefaultValue member")
			return
		}
		hasDefault = true
	}
	w.walk(arg)
	m0, k1, k2 := arg.Items[0], arg.Items[1], arg.Items[2]
	if m0.Kind != String {
		return
	}
	m := w.b.t.mappings[m0.Value]
	if m == nil {
		if !hasDefault {
			w.errorf(m0, "Template error: Mapping named '%s' is not present in the 'Mappings' section of template", m0.Value)
		}
		return
	}
	if k1.IsScalar() && k2.IsScalar() && !hasDefault && m.Lookup(k1.Value, k2.Value) == nil {
		w.errorf(n, "Template error: Unable to get mapping for %s::%s::%s", m0.Value, k1.Value, k2.Value)
	}
}
