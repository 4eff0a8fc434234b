package template

import (
	"errors"
)

// Resolver gives the live values of a stack's resources and of the exports
// of other stacks. The engine implements it. A value not known yet is an
// Unknown; an error is the engine's (an attribute the type lacks, an export
// nobody has) and comes back wrapped in an *Error that points at the call.
type Resolver interface {
	Ref(logicalID string) (any, error)
	GetAtt(logicalID, attribute string) (any, error)
	ImportValue(exportName string) (any, error)
}

// StackOutputResolver is an optional extension of Resolver for
// Fn::GetStackOutput (the output of another stack, possibly in another
// region or account).
type StackOutputResolver interface {
	GetStackOutput(stackName, outputName, region, roleARN string) (any, error)
}

// Resolve evaluates any node of the bound template (a property, Metadata,
// an UpdatePolicy) against r. r may be nil when the node refers to no
// resource and no export.
func (b *Bound) Resolve(n *Node, r Resolver) (any, error) {
	e := evaluator{b: b, r: r}
	v, err := e.eval(n)
	if err != nil {
		return nil, err
	}
	return v, nil
}

// evaluator evaluates nodes of a bound template.
type evaluator struct {
	b *Bound
	r Resolver
}

func (e *evaluator) fail(n *Node, format string, args ...any) error {
	return nodeError(e.b.file, n, format, args...)
}

// callError is an error at a function call: its path names the function, as
// AWS reports it (/Outputs/Arn/Value/Fn::GetAtt).
func (e *evaluator) callError(n *Node, cause error, format string, args ...any) error {
	err := nodeError(e.b.file, n, format, args...)
	err.Path = n.Path() + "/" + n.Fields[0].Key
	err.err = cause
	return err
}

func (e *evaluator) eval(n *Node) (any, error) {
	switch n.Kind {
	case String, Number, Bool:
		return n.value(), nil
	case Null:
		return nil, e.fail(n, "[%s] 'null' values are not allowed in templates", n.Path())
	case List:
		out := make([]any, 0, len(n.Items))
		for _, item := range n.Items {
			v, err := e.eval(item)
			if err != nil {
				return nil, err
			}
			if v != noValue {
				out = append(out, v)
			}
		}
		return out, nil
	}
	// Map.
	if n.fn != fnNone && n.fn != fnCondition {
		return e.call(n)
	}
	out := make(map[string]any, len(n.Fields))
	for _, f := range n.Fields {
		v, err := e.eval(f.Value)
		if err != nil {
			return nil, err
		}
		if v != noValue {
			out[f.Key] = v
		}
	}
	return out, nil
}

func (e *evaluator) call(n *Node) (any, error) {
	arg := n.arg()
	// The shapes were checked when the template was parsed; the checks
	// here keep the evaluator safe on trees that were not (the collection
	// of an Fn::ForEach is evaluated before the template is read).
	if msg := shapeError(n.fn, arg); msg != "" {
		return nil, e.fail(n, "%s", msg)
	}
	switch n.fn {
	case fnRef:
		return e.ref(n, arg.Value)
	case fnGetAtt:
		return e.getAtt(n, arg)
	case fnSub:
		return e.sub(n, arg)
	case fnJoin:
		return e.join(n, arg)
	case fnSelect:
		return e.selectFn(n, arg)
	case fnSplit:
		return e.split(n, arg)
	case fnIf:
		ok, err := e.b.condition(arg.Items[0].Value)
		if err != nil {
			return nil, err
		}
		if ok {
			return e.eval(arg.Items[1])
		}
		return e.eval(arg.Items[2])
	case fnEquals, fnAnd, fnOr, fnNot:
		return e.b.evalCondition(n)
	case fnFindInMap:
		return e.findInMap(n, arg)
	case fnGetAZs:
		return e.getAZs(n, arg)
	case fnBase64:
		return e.base64(n, arg)
	case fnImportValue:
		return e.importValue(n, arg)
	case fnCidr:
		return e.cidr(n, arg)
	case fnLength:
		return e.length(n, arg)
	case fnToJsonString:
		return e.toJSONString(n, arg)
	case fnGetStackOutput:
		return e.getStackOutput(n, arg)
	}
	return nil, e.fail(n, "Template Error: Encountered unsupported function: %s Supported functions are: %s", n.Fields[0].Key, supportedFunctions)
}

// ref evaluates Ref: a parameter, a pseudo parameter or a resource.
func (e *evaluator) ref(n *Node, name string) (any, error) {
	if v, ok := e.b.paramValue[name]; ok {
		return v, nil
	}
	if v, ok := e.b.pseudo[name]; ok {
		return v, nil
	}
	if !e.b.enabledSet[name] {
		return nil, e.fail(n, "%s", unresolvedMessage(e.block(n), name))
	}
	if e.r == nil {
		return nil, e.callError(n, nil, "Template error: Ref %s needs the values of the stack's resources here", name)
	}
	v, err := e.r.Ref(name)
	if err != nil {
		return nil, e.callError(n, err, "%s", err.Error())
	}
	return v, nil
}

// block names the section a node is in, for "Unresolved resource
// dependencies [X] in the ... block".
func (e *evaluator) block(n *Node) string {
	m := n
	for m.parent != nil && m.parent.parent != nil {
		m = m.parent
	}
	if m.parent != nil && m.key() == "Outputs" {
		return "Outputs"
	}
	return "Resources"
}

func (e *evaluator) getAtt(n, arg *Node) (any, error) {
	id, attr, _ := getAttTarget(arg)
	if attr == "" {
		// The attribute is a Ref to a parameter.
		v, err := e.eval(arg.Items[1])
		if err != nil {
			return nil, err
		}
		s, ok := v.(string)
		if !ok || s == "" {
			return nil, e.fail(n, msgGetAtt)
		}
		attr = s
	}
	if !e.b.enabledSet[id] {
		return nil, e.fail(n, "%s", unresolvedMessage(e.block(n), id))
	}
	if e.r == nil {
		return nil, e.callError(n, nil, "Template error: Fn::GetAtt %s.%s needs the values of the stack's resources here", id, attr)
	}
	v, err := e.r.GetAtt(id, attr)
	if err != nil {
		return nil, e.callError(n, err, "%s", err.Error())
	}
	return v, nil
}

func (e *evaluator) importValue(n, arg *Node) (any, error) {
	v, err := e.eval(arg)
	if err != nil {
		return nil, err
	}
	if u, ok := v.(Unknown); ok {
		return u, nil
	}
	name, ok := v.(string)
	if !ok {
		return nil, e.fail(n, "Template error: every Fn::ImportValue object must have a String-typed value.")
	}
	if e.r == nil {
		return nil, e.callError(n, nil, "Template error: Fn::ImportValue %s needs the exports of other stacks here", name)
	}
	out, err := e.r.ImportValue(name)
	if err != nil {
		return nil, e.callError(n, err, "%s", err.Error())
	}
	return out, nil
}

func (e *evaluator) getStackOutput(n, arg *Node) (any, error) {
	fields := map[string]string{}
	for _, key := range []string{"StackName", "OutputName", "Region", "RoleArn"} {
		f := arg.Get(key)
		if f == nil {
			continue
		}
		v, err := e.eval(f)
		if err != nil {
			return nil, err
		}
		if u, ok := v.(Unknown); ok {
			return u, nil
		}
		s, ok := scalarText(v)
		if !ok {
			return nil, e.fail(f, "Template error: every member of Fn::GetStackOutput must be a string")
		}
		fields[key] = s
	}
	sr, ok := e.r.(StackOutputResolver)
	if !ok {
		return nil, e.callError(n, ErrUnsupported, "Template error: Fn::GetStackOutput is not supported by this resolver")
	}
	v, err := sr.GetStackOutput(fields["StackName"], fields["OutputName"], fields["Region"], fields["RoleArn"])
	if err != nil {
		return nil, e.callError(n, err, "%s", err.Error())
	}
	return v, nil
}

// IsUnsupported tells whether err comes from a feature stacksim does not
// implement.
func IsUnsupported(err error) bool { return errors.Is(err, ErrUnsupported) }

// shapeError returns AWS's message when the argument of a call does not
// have the shape the function takes, or "".
func shapeError(fn fnID, arg *Node) string {
	items := func(n int) bool { return arg.Kind == List && len(arg.Items) == n }
	switch fn {
	case fnRef:
		if arg.Kind != String {
			return "Template format error: Every Ref object must have a single String value."
		}
	case fnGetAtt:
		if _, _, ok := getAttTarget(arg); !ok {
			return msgGetAtt
		}
	case fnSub:
		if !(arg.Kind == String || (arg.Kind == List && (len(arg.Items) == 1 || len(arg.Items) == 2) && arg.Items[0].Kind == String &&
			(len(arg.Items) == 1 || (arg.Items[1].Kind == Map && arg.Items[1].fn == fnNone)))) {
			return msgSub
		}
	case fnJoin:
		if !items(2) || !arg.Items[0].IsScalar() {
			return msgJoin
		}
	case fnSelect:
		if !items(2) {
			return msgSelectArgs
		}
	case fnSplit:
		if !items(2) || arg.Items[0].Kind != String {
			return msgSplit
		}
	case fnIf:
		if !items(3) || arg.Items[0].Kind != String {
			return msgIfArgs
		}
	case fnEquals:
		if !items(2) {
			return msgEquals
		}
	case fnNot:
		if !items(1) {
			return "Template error: Fn::Not requires a list argument with one element"
		}
	case fnAnd, fnOr:
		if arg.Kind != List {
			return "Template error: every Fn::And object requires a list of at least 2 and at most 10 boolean parameters."
		}
	case fnCondition:
		if arg.Kind != String {
			return "Template error: every Condition object must have a single String value."
		}
	case fnFindInMap:
		if !(items(3) || (items(4) && arg.Items[3].Kind == Map && len(arg.Items[3].Fields) == 1 && arg.Items[3].Fields[0].Key == "DefaultValue")) {
			return msgFindInMap
		}
	case fnCidr:
		if !items(3) {
			return msgCidrArgs
		}
	case fnGetStackOutput:
		if arg.Kind != Map {
			return "Template error: every Fn::GetStackOutput object requires a StackName and an OutputName, and may have a Region and a RoleArn"
		}
	case fnContains, fnEachMemberEquals, fnEachMemberIn, fnValueOf, fnValueOfAll:
		if !items(2) {
			return "Template format error: every function of the Rules block requires a list of 2 parameters."
		}
	}
	return ""
}
