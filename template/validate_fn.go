package template

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
	// parts is scratch for the pieces of Fn::Sub strings.
	parts []subPart
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
	// The references of each resource and output are gathered straight
	// into a block shared by all of them.
	var scratch []Reference
	var kept refBlock
	w := &walker{} // one walker, reset for each resource and output
	for _, r := range t.Resources {
		scratch = kept.start()
		*w = walker{b: b, ctx: ctxResource, base: r.Node, refs: &scratch, block: "Resources", under: w.under[:0], parts: w.parts}
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
				*w = walker{b: b, ctx: ctxPolicy, base: r.Node, refs: &scratch, block: "Resources", policy: p.name, owner: r.LogicalID, under: w.under[:0], parts: w.parts}
				w.walk(p.n)
			}
		}
		r.refs = kept.keep(scratch)
	}
	for _, o := range t.Outputs {
		scratch = kept.start()
		*w = walker{b: b, ctx: ctxOutput, base: o.Node, refs: &scratch, block: "Outputs", under: w.under[:0], parts: w.parts}
		if o.Condition != "" {
			w.conditionRef(o.Node.Get("Condition"), o.Condition)
		}
		if o.Value != nil {
			w.walk(o.Value)
		}
		if o.ExportName != nil {
			w.walk(o.ExportName)
		}
		o.refs = kept.keep(scratch)
	}
	b.reportUnresolved()
}

// refBlock hands out lists of references from shared blocks: a list is
// appended to in the block's free space (start), then kept there.
type refBlock struct{ free []Reference }

// start returns an empty list whose appends go to the block's free space.
func (k *refBlock) start() []Reference {
	if cap(k.free) < 32 {
		k.free = make([]Reference, 0, 1024)
	}
	return k.free[:0]
}

// keep returns refs (nil when empty), its capacity cut to its length. When
// refs grew in the block, the block's free space moves past it; when it
// outgrew the block, append had copied it away and the space stays free.
func (k *refBlock) keep(refs []Reference) []Reference {
	n := len(refs)
	if n == 0 {
		return nil
	}
	if &refs[0] == &k.free[:1][0] {
		k.free = k.free[n:n:cap(k.free)]
	}
	return refs[:n:n]
}

func (w *walker) errorf(n *Node, format string, args ...any) *Error {
	return w.b.c.at(n, format, args...)
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
	if n.flags&holdsCall == 0 {
		return // nothing to check or to refer to below
	}
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
		e := w.errorf(n, "Template format error: Fn::Transform has not run")
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
