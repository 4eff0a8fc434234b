package template

import (
	"strings"
)

// fctx is where an intrinsic function appears; each section allows its own
// set of functions.
type fctx uint8

const (
	ctxResource fctx = iota
	ctxOutput
	ctxCondition
	ctxRule
	ctxPolicy // DeletionPolicy, UpdateReplacePolicy
)

// walker checks the shape of every intrinsic function in one resource,
// output, condition or rule, and collects the references it makes.
type walker struct {
	b     *builder
	ctx   fctx
	base  *Node // the resource or output node: reference paths are relative to it
	refs  *[]Reference
	under []ifBranch
	// inImport is set inside the argument of Fn::ImportValue.
	inImport bool
	// condName is the condition being walked (ctxCondition).
	condName string
	// block names the section for "Unresolved resource dependencies".
	block string
	// policy and owner name the attribute and resource of ctxPolicy.
	policy, owner string
}

// functions checks every section that may hold functions.
func (b *builder) functions() {
	t := b.t
	b.unresolved = map[string][]unresolvedRef{}
	b.condDeps = map[string][]string{}
	for _, c := range t.Conditions {
		w := &walker{b: b, ctx: ctxCondition, condName: c.Name, block: "Conditions"}
		w.walk(c.Expr)
	}
	for _, r := range t.Rules {
		w := &walker{b: b, ctx: ctxRule, block: "Rules"}
		if r.Condition != nil {
			w.walk(r.Condition)
		}
		for _, a := range r.Assertions {
			w.walk(a.Assert)
		}
	}
	for _, r := range t.Resources {
		w := &walker{b: b, ctx: ctxResource, base: r.Node, refs: &r.refs, block: "Resources"}
		if r.Condition != "" {
			w.conditionRef(r.Node.Get("Condition"), r.Condition)
		}
		if dn := r.Node.Get("DependsOn"); dn != nil {
			items := dn.Items
			if dn.Kind == String {
				items = []*Node{dn}
			}
			for _, item := range items {
				if item.Kind == String {
					w.resourceRef(item, item.Value, RefDependsOn, "")
				}
			}
		}
		for _, n := range []*Node{r.Properties, r.Metadata, r.CreationPolicy, r.UpdatePolicy} {
			if n != nil {
				w.walk(n)
			}
		}
		for _, p := range []struct {
			name string
			n    *Node
		}{{"DeletionPolicy", r.deletionPolicyNode}, {"UpdateReplacePolicy", r.updateReplacePolicyNode}} {
			if p.n != nil {
				pw := &walker{b: b, ctx: ctxPolicy, base: r.Node, refs: &r.refs, block: "Resources", policy: p.name, owner: r.LogicalID}
				pw.walk(p.n)
			}
		}
	}
	for _, o := range t.Outputs {
		w := &walker{b: b, ctx: ctxOutput, base: o.Node, refs: &o.refs, block: "Outputs"}
		if o.Condition != "" {
			w.conditionRef(o.Node.Get("Condition"), o.Condition)
		}
		if o.Value != nil {
			w.walk(o.Value)
		}
		if o.ExportName != nil {
			w.walk(o.ExportName)
		}
	}
	b.reportUnresolved()
}

func (w *walker) errorf(n *Node, format string, args ...any) *Error {
	return w.b.c.at(n, format, args...)
}

// relPath is the path of n relative to the resource or output.
func (w *walker) relPath(n *Node) string {
	if w.base == nil {
		return n.Path()
	}
	return strings.TrimPrefix(n.Path(), w.base.Path())
}

func (w *walker) addRef(n *Node, ref Reference) {
	if w.refs == nil {
		return
	}
	ref.node, ref.base = n, w.base
	if ref.Pos == (Pos{}) {
		ref.Pos = n.Pos
	}
	if len(w.under) > 0 {
		ref.under = append([]ifBranch(nil), w.under...)
	}
	*w.refs = append(*w.refs, ref)
}

func (w *walker) walk(n *Node) {
	switch n.Kind {
	case List:
		for _, c := range n.Items {
			w.walk(c)
		}
	case Map:
		if n.fn == fnNone || (n.fn == fnCondition && w.ctx != ctxCondition) {
			for _, f := range n.Fields {
				w.walk(f.Value)
			}
			return
		}
		w.call(n)
	}
}

// call checks one function call.
func (w *walker) call(n *Node) {
	name := n.Fields[0].Key
	arg := n.arg()
	// Which functions each section takes.
	switch {
	case w.ctx == ctxPolicy && n.fn != fnRef && n.fn != fnFindInMap && n.fn != fnIf:
		w.errorf(n, "Template format error: Unsupported expression for %s in resource %s", w.policy, w.owner)
		return
	case n.fn == fnUnknown || ((n.fn == fnLength || n.fn == fnToJsonString) && !w.b.langExt):
		w.errorf(n, "Template Error: Encountered unsupported function: %s Supported functions are: %s", name, supportedFunctions)
		return
	case n.fn == fnTransform:
		e := w.errorf(n, "Template format error: Fn::Transform is not supported by stacksim")
		e.err = ErrUnsupported
		return
	case w.ctx == ctxRule && !ruleFunctions[n.fn]:
		w.errorf(n, "Template format error: Following functions are not supported in the Rules block of the template: [%s]", name)
		return
	case w.ctx != ctxRule && isRuleOnlyFn(n.fn):
		w.errorf(n, "Template format error: %s can be used only in the Rules block of the template", name)
		return
	case w.ctx == ctxResource && isConditionFn(n.fn):
		w.errorf(n, "Template error: %s can be used only in the Conditions section, in Fn::If and in Rules", name)
		return
	case w.ctx == ctxOutput && isConditionFn(n.fn):
		w.errorf(n, "Template format error: The Value field of every Outputs member must evaluate to a String.")
		return
	case w.ctx == ctxCondition && (n.fn == fnGetAtt || n.fn == fnImportValue):
		if n.fn == fnGetAtt {
			if id, _, ok := getAttTarget(arg); ok {
				w.errorf(n, "Template format error: Unresolved dependencies [%s]. Cannot reference resources in the Conditions block of the template", id)
				return
			}
		}
		w.errorf(n, "Template format error: Conditions can only be boolean operations on parameters and other conditions")
		return
	}
	switch n.fn {
	case fnRef:
		w.ref(n, arg)
	case fnCondition:
		if arg.Kind != String {
			w.errorf(n, "Template error: every Condition object must have a single String value.")
			return
		}
		w.conditionRef(arg, arg.Value)
	case fnGetAtt:
		w.getAtt(n, arg)
	case fnSub:
		w.sub(n, arg)
	case fnJoin:
		if arg.Kind != List || len(arg.Items) != 2 || !arg.Items[0].IsScalar() || arg.Items[1].IsScalar() ||
			(arg.Items[1].Kind == Map && arg.Items[1].fn == fnNone) {
			w.errorf(n, msgJoin)
			return
		}
		w.walk(arg.Items[1])
	case fnSelect:
		if arg.Kind != List || len(arg.Items) != 2 {
			w.errorf(n, msgSelectArgs)
			return
		}
		idx := arg.Items[0]
		if idx.IsScalar() {
			if _, ok := selectIndex(idx.Value); !ok {
				w.errorf(n, msgSelectIndex)
				return
			}
		} else if idx.Kind != Map || idx.fn == fnNone {
			w.errorf(n, msgSelectIndex)
			return
		}
		w.walk(idx)
		if arg.Items[1].IsScalar() || (arg.Items[1].Kind == Map && arg.Items[1].fn == fnNone) {
			w.errorf(n, msgSelectArgs)
			return
		}
		w.walk(arg.Items[1])
	case fnSplit:
		if arg.Kind != List || len(arg.Items) != 2 || arg.Items[0].Kind != String ||
			!(arg.Items[1].IsScalar() || (arg.Items[1].Kind == Map && arg.Items[1].fn != fnNone)) {
			w.errorf(n, msgSplit)
			return
		}
		w.walk(arg.Items[1])
	case fnIf:
		w.fnIf(n, arg)
	case fnEquals:
		if arg.Kind != List || len(arg.Items) != 2 {
			w.errorf(n, msgEquals)
			return
		}
		w.walk(arg)
	case fnAnd, fnOr:
		if arg.Kind != List || len(arg.Items) < 2 || len(arg.Items) > 10 {
			w.errorf(n, "Template error: every %s object requires a list of at least 2 and at most 10 boolean parameters.", name)
			return
		}
		for _, item := range arg.Items {
			if !w.isBoolean(item) {
				w.errorf(item, "Template error: every %s object requires a list of at least 2 and at most 10 boolean parameters.", name)
				continue
			}
			w.walk(item)
		}
	case fnNot:
		if arg.Kind != List || len(arg.Items) != 1 {
			w.errorf(n, "Template error: Fn::Not requires a list argument with one element")
			return
		}
		if !w.isBoolean(arg.Items[0]) {
			w.errorf(n, "Template error: Fn::Not requires a list argument with one function token")
			return
		}
		w.walk(arg.Items[0])
	case fnFindInMap:
		w.findInMap(n, arg)
	case fnGetAZs:
		if w.inImport {
			w.errorf(n, msgImportDepends)
			return
		}
		if !(arg.IsScalar() || arg.Kind == Null || (arg.Kind == Map && arg.fn != fnNone)) {
			w.errorf(n, "Template error: every Fn::GetAZs object must have a String-typed value.")
			return
		}
		w.walk(arg)
	case fnBase64:
		if !(arg.IsScalar() || (arg.Kind == Map && arg.fn != fnNone)) {
			w.errorf(n, "Template error: every Fn::Base64 object must have a String-typed value.")
			return
		}
		w.walk(arg)
	case fnImportValue:
		if w.inImport {
			w.errorf(n, msgImportDepends)
			return
		}
		if !(arg.IsScalar() || (arg.Kind == Map && arg.fn != fnNone)) {
			w.errorf(n, "Template error: every Fn::ImportValue object must have a String-typed value.")
			return
		}
		w.inImport = true
		w.walk(arg)
		w.inImport = false
	case fnCidr:
		if arg.Kind != List || len(arg.Items) != 3 {
			w.errorf(n, msgCidrArgs)
			return
		}
		for _, item := range arg.Items {
			if !(item.IsScalar() || (item.Kind == Map && item.fn != fnNone)) {
				w.errorf(item, msgCidrArgs)
				return
			}
		}
		w.walk(arg)
	case fnLength, fnToJsonString:
		w.walk(arg)
	case fnGetStackOutput:
		if w.ctx == ctxCondition {
			w.errorf(n, "Template format error: Conditions can only be boolean operations on parameters and other conditions")
			return
		}
		ok := arg.Kind == Map && arg.fn == fnNone && arg.Get("StackName") != nil && arg.Get("OutputName") != nil
		if ok {
			for _, f := range arg.Fields {
				switch f.Key {
				case "StackName", "OutputName", "Region", "RoleArn":
					if !(f.Value.IsScalar() || (f.Value.Kind == Map && f.Value.fn != fnNone)) {
						ok = false
					}
				default:
					ok = false
				}
			}
		}
		if !ok {
			w.errorf(n, "Template error: every Fn::GetStackOutput object requires a StackName and an OutputName, and may have a Region and a RoleArn")
			return
		}
		w.walk(arg)
	case fnContains, fnEachMemberEquals, fnEachMemberIn:
		if arg.Kind != List || len(arg.Items) != 2 {
			w.errorf(n, "Template format error: every %s object requires a list of 2 parameters.", name)
			return
		}
		w.walk(arg)
	case fnValueOf, fnValueOfAll:
		if arg.Kind != List || len(arg.Items) != 2 || !arg.Items[0].IsScalar() || !arg.Items[1].IsScalar() {
			w.errorf(n, "Template format error: every %s object requires two string parameters.", name)
			return
		}
		if n.fn == fnValueOf && w.b.t.parameters[arg.Items[0].Value] == nil {
			w.errorf(arg.Items[0], "Template format error: Unresolved resource dependencies [%s] in the Rules block of the template", arg.Items[0].Value)
		}
	case fnRefAll:
		if arg.Kind != String {
			w.errorf(n, "Template format error: every Fn::RefAll object must have a single String value.")
		}
	}
}

// ruleFunctions are the functions the Rules section accepts.
var ruleFunctions = map[fnID]bool{
	fnAnd: true, fnOr: true, fnNot: true, fnEquals: true, fnIf: true, fnRef: true, fnContains: true,
	fnEachMemberEquals: true, fnEachMemberIn: true, fnRefAll: true, fnValueOf: true, fnValueOfAll: true,
}

// isBoolean tells whether n can be an operand of Fn::And, Fn::Or, Fn::Not.
func (w *walker) isBoolean(n *Node) bool {
	if n.Kind != Map {
		return false
	}
	switch n.fn {
	case fnEquals, fnAnd, fnOr, fnNot, fnCondition:
		return true
	case fnContains, fnEachMemberEquals, fnEachMemberIn, fnIf, fnRef:
		return w.ctx == ctxRule
	}
	return false
}

// AWS's messages for malformed arguments.
const (
	msgJoin = "Template error: every Fn::Join object requires two parameters, (1) a string delimiter and " +
		"(2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined."
	msgSelectArgs  = "Template error: Fn::Select requires a list argument with two elements: an integer index and a list"
	msgSelectIndex = "Template error: Fn::Select requires a list argument with a valid index value as its first element"
	msgSplit       = "Template error: every Fn::Split object requires two parameters, (1) a string delimiter and " +
		"(2) a string to be split or a function that returns a string to be split."
	msgEquals    = "Template error: every Fn::Equals object requires a list of 2 string parameters."
	msgGetAtt    = "Template error: every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute"
	msgFindInMap = "Template error: every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value"
	msgSub       = "Template error: One or more Fn::Sub intrinsic functions don't specify expected arguments. " +
		"Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string"
	msgSubVarName    = "Template error: variable names in Fn::Sub syntax must contain only alphanumeric characters, underscores, periods, and colons"
	msgImportDepends = "Template error: the attribute in Fn::ImportValue must not depend on any resources, imported values, or Fn::GetAZs"
	msgCidrArgs      = "Template error: every Fn::Cidr object requires three parameters, (1) an IP address block, " +
		"(2) a count of subnets and (3) the number of subnet bits"
	msgIfArgs = "Template error: Fn::If requires a list argument with three elements"
)

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
	parts, ok := parseSub(text.Value)
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
