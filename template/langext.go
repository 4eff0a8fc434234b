package template

import (
	"strings"
)

// AWS::LanguageExtensions: Fn::ForEach loops are expanded before the
// sections are read (at Parse, with the parameters' defaults; again at Bind
// when a loop's collection depends on a parameter value). Fn::Length,
// Fn::ToJsonString and the DefaultValue of Fn::FindInMap are evaluated with
// the other functions; intrinsic functions in DeletionPolicy and
// UpdateReplacePolicy are resolved at Bind.
//
// Where a loop's identifier is substituted (as CloudFormation does): in the
// keys of the fragment (${Id} is the item, &{Id} the item without its
// non-alphanumeric characters), in the string of an Fn::Sub (${Id}), and
// through a Ref to the identifier. A plain string keeps its placeholders.
// An Fn::Sub or a Ref that the substitution leaves constant becomes the
// string itself, so that `!GetAtt [!Sub "Bucket${Id}", Arn]` names a
// resource.

const forEachPrefix = "Fn::ForEach::"

// lxPrefix is the start of the transform's failure messages.
const lxPrefix = "Transform AWS::LanguageExtensions failed with: "

// expanded is a template tree after AWS::LanguageExtensions.
type expanded struct {
	root       *Node
	needParams bool
}

type lxExpander struct {
	c          collector
	params     map[string]any  // the values of Ref, by parameter
	declared   map[string]bool // the parameters the template declares
	mappings   *Node
	needParams bool
	loops      map[string]bool
	resources  *Node
}

// expandLanguageExtensions expands the Fn::ForEach loops of a tree. params
// are the values of the parameters (Ref's values); a loop whose collection
// needs a parameter not in params expands to nothing, and needParams says
// so.
func expandLanguageExtensions(file string, root *Node, params map[string]any, declared map[string]bool) (*expanded, error) {
	x := &lxExpander{c: collector{file: file}, params: params, declared: declared, mappings: root.Get("Mappings"),
		loops: map[string]bool{}, resources: root.Get("Resources")}
	out := &Node{Kind: Map, Pos: root.Pos}
	for _, f := range root.Fields {
		v := f.Value
		switch f.Key {
		case "Resources", "Outputs", "Conditions":
			v = x.expand(v, nil)
		default:
			if name := x.firstLoop(v); name != "" {
				x.c.at(v, "%s%s is not supported in the %s section. The functions of AWS::LanguageExtensions are supported in the Resources, Conditions and Outputs sections.", lxPrefix, name, f.Key)
			}
			v = copyNode(v)
		}
		out.Fields = append(out.Fields, Field{Key: f.Key, KeyPos: f.KeyPos, Value: v})
	}
	if !x.c.empty() {
		return nil, x.c.err()
	}
	out.link()
	markCalls(out)
	return &expanded{root: out, needParams: x.needParams}, nil
}

// firstLoop returns the key of the first Fn::ForEach in n, or "".
func (x *lxExpander) firstLoop(n *Node) string {
	switch n.Kind {
	case Map:
		for _, f := range n.Fields {
			if strings.HasPrefix(f.Key, forEachPrefix) {
				return "Fn::ForEach"
			}
			if s := x.firstLoop(f.Value); s != "" {
				return s
			}
		}
	case List:
		for _, c := range n.Items {
			if s := x.firstLoop(c); s != "" {
				return s
			}
		}
	}
	return ""
}

func copyNode(n *Node) *Node {
	c := &Node{Kind: n.Kind, Value: n.Value, Pos: n.Pos, Tag: n.Tag}
	switch n.Kind {
	case List:
		c.Items = make([]*Node, len(n.Items))
		for i, item := range n.Items {
			c.Items[i] = copyNode(item)
		}
	case Map:
		c.Fields = make([]Field, len(n.Fields))
		for i, f := range n.Fields {
			c.Fields[i] = Field{Key: f.Key, KeyPos: f.KeyPos, Value: copyNode(f.Value)}
		}
	}
	return c
}

// expand copies n with its loops expanded and the identifiers of bindings
// substituted.
func (x *lxExpander) expand(n *Node, bindings map[string]string) *Node {
	switch n.Kind {
	case List:
		out := &Node{Kind: List, Pos: n.Pos, Tag: n.Tag, Items: make([]*Node, 0, len(n.Items))}
		for _, item := range n.Items {
			out.Items = append(out.Items, x.expand(item, bindings))
		}
		return out
	case Map:
	default:
		return copyNode(n)
	}
	if len(bindings) > 0 && len(n.Fields) == 1 {
		key, arg := n.Fields[0].Key, n.Fields[0].Value
		switch key {
		case "Ref":
			if arg.Kind == String {
				if v, ok := bindings[arg.Value]; ok {
					return &Node{Kind: String, Value: v, Pos: arg.Pos}
				}
			}
		case "Fn::Sub":
			return x.expandSub(n, arg, bindings)
		}
	}
	out := &Node{Kind: Map, Pos: n.Pos, Tag: n.Tag}
	seen := map[string]bool{}
	add := func(f Field) {
		if seen[f.Key] {
			x.c.atPos(f.KeyPos, "", "%sthe key %s is produced more than once", lxPrefix, f.Key)
			return
		}
		seen[f.Key] = true
		out.Fields = append(out.Fields, f)
	}
	for _, f := range n.Fields {
		if strings.HasPrefix(f.Key, forEachPrefix) {
			for _, g := range x.loop(f, bindings) {
				add(g)
			}
			continue
		}
		key := f.Key
		if len(bindings) > 0 {
			key = substituteKey(key, bindings)
		}
		add(Field{Key: key, KeyPos: f.KeyPos, Value: x.expand(f.Value, bindings)})
	}
	return out
}

// expandSub substitutes the identifiers in the string of an Fn::Sub; a
// string left with no variable becomes that string.
func (x *lxExpander) expandSub(n, arg *Node, bindings map[string]string) *Node {
	text := arg
	var vars *Node
	if arg.Kind == List && len(arg.Items) >= 1 {
		text = arg.Items[0]
		if len(arg.Items) == 2 {
			vars = arg.Items[1]
		}
	}
	if text.Kind != String {
		return copyNode(n)
	}
	s := substitute(text.Value, bindings, "$")
	if strings.Contains(s, "${") {
		// ${Param${Id}} leaves a variable name holding "${": refused.
		if parts, ok := parseSub(s); !ok {
			x.c.at(text, "%s", msgSubVarName)
		} else if vars == nil && allLiteral(parts) {
			return &Node{Kind: String, Value: joinLiteral(parts), Pos: text.Pos}
		}
	} else if vars == nil {
		return &Node{Kind: String, Value: s, Pos: text.Pos}
	}
	newText := &Node{Kind: String, Value: s, Pos: text.Pos}
	var newArg *Node
	if arg.Kind == List {
		newArg = &Node{Kind: List, Pos: arg.Pos, Items: []*Node{newText}}
		if vars != nil {
			newArg.Items = append(newArg.Items, x.expand(vars, bindings))
		}
	} else {
		newArg = newText
	}
	return &Node{Kind: Map, Pos: n.Pos, Tag: n.Tag, Fields: []Field{{Key: "Fn::Sub", KeyPos: n.Fields[0].KeyPos, Value: newArg}}}
}

func allLiteral(parts []subPart) bool {
	for _, p := range parts {
		if p.isVar {
			return false
		}
	}
	return true
}

func joinLiteral(parts []subPart) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.text)
	}
	return b.String()
}

// substitute replaces ${Id} (and, when forms holds '&', &{Id}) by the items
// of bindings.
func substitute(s string, bindings map[string]string, forms string) string {
	for id, item := range bindings {
		if strings.Contains(forms, "$") {
			s = strings.ReplaceAll(s, "${"+id+"}", item)
		}
		if strings.Contains(forms, "&") {
			s = strings.ReplaceAll(s, "&{"+id+"}", alnumOnly(item))
		}
	}
	return s
}

func substituteKey(key string, bindings map[string]string) string {
	return substitute(key, bindings, "$&")
}

func alnumOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// loop expands one Fn::ForEach::Name member into the members it produces.
func (x *lxExpander) loop(f Field, bindings map[string]string) []Field {
	name := strings.TrimPrefix(f.Key, forEachPrefix)
	spec := f.Value
	layout := func() []Field {
		x.c.atPos(f.KeyPos, f.Value.Path(), "%sFn::ForEach layout is incorrect", lxPrefix)
		return nil
	}
	if name == "" || spec.Kind != List || len(spec.Items) != 3 || spec.Items[0].Kind != String ||
		spec.Items[0].Value == "" || spec.Items[2].Kind != Map || len(spec.Items[2].Fields) == 0 {
		return layout()
	}
	if x.loops[f.Key] && len(bindings) == 0 {
		x.c.atPos(f.KeyPos, "", "%sThe loop name %s is used more than once. A loop name must be unique within the template.", lxPrefix, name)
		return nil
	}
	x.loops[f.Key] = true
	if x.resources != nil && x.resources.Get(name) != nil {
		x.c.atPos(f.KeyPos, "", "%sThe loop name %s is the logical id of a resource. A loop name cannot conflict with a logical id in the Resources section.", lxPrefix, name)
		return nil
	}
	id := spec.Items[0].Value
	items, ok := x.collection(spec.Items[1], bindings)
	if !ok {
		return nil
	}
	fragment := spec.Items[2]
	var out []Field
	for _, item := range items {
		b := make(map[string]string, len(bindings)+1)
		for k, v := range bindings {
			b[k] = v
		}
		b[id] = item
		for _, g := range fragment.Fields {
			if strings.HasPrefix(g.Key, forEachPrefix) {
				out = append(out, x.loop(g, b)...)
				continue
			}
			if !strings.Contains(g.Key, "${"+id+"}") && !strings.Contains(g.Key, "&{"+id+"}") && len(items) > 1 {
				x.c.atPos(g.KeyPos, "", "%sFn::ForEach layout is incorrect", lxPrefix)
				return nil
			}
			out = append(out, Field{Key: substituteKey(g.Key, b), KeyPos: g.KeyPos, Value: x.expand(g.Value, b)})
		}
	}
	return out
}

// collection evaluates the collection of a loop: a list, a Ref to a list
// parameter or to an outer identifier, Fn::FindInMap, Fn::Split.
func (x *lxExpander) collection(n *Node, bindings map[string]string) ([]string, bool) {
	switch {
	case n.Kind == List:
		out := make([]string, 0, len(n.Items))
		for _, item := range n.Items {
			if item.Kind == Map && item.fn == fnRef && item.arg().Kind == String {
				if v, ok := bindings[item.arg().Value]; ok {
					out = append(out, v)
					continue
				}
			}
			s, ok := item.scalarString()
			if !ok {
				x.c.at(item, "%sCould not find a collection or could not be resolved for Fn::ForEach", lxPrefix)
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	case n.Kind == Map && n.fn != fnNone:
		v, err := x.evalCollection(n, bindings)
		if err == errNeedParams {
			x.needParams = true
			return nil, true
		}
		list, ok := v.([]any)
		if err != nil || !ok {
			e := x.c.at(n, "%sCould not find a collection or could not be resolved for Fn::ForEach", lxPrefix)
			if err != nil {
				if inner := AsList(err); len(inner) > 0 {
					e.Detail = inner[0].Message
				}
			} else {
				e.Detail = "the collection is " + describe(v) + ", not a list"
			}
			return nil, false
		}
		out := make([]string, 0, len(list))
		for _, item := range list {
			s, ok := scalarText(item)
			if !ok {
				x.c.at(n, "%sCould not find a collection or could not be resolved for Fn::ForEach", lxPrefix)
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	x.c.at(n, "%sCould not find a collection or could not be resolved for Fn::ForEach", lxPrefix)
	return nil, false
}

type needParamsError struct{}

func (needParamsError) Error() string { return "the collection needs parameter values" }

var errNeedParams error = needParamsError{}

// evalCollection evaluates a function that gives a loop's collection.
func (x *lxExpander) evalCollection(n *Node, bindings map[string]string) (any, error) {
	if x.refsUnbound(n, bindings) {
		return nil, errNeedParams
	}
	// A throwaway binding that knows the parameters and the mappings.
	t := &Template{Name: x.c.file, mappings: map[string]*Mapping{}}
	if x.mappings != nil && x.mappings.Kind == Map {
		for _, f := range x.mappings.Fields {
			t.mappings[f.Key] = &Mapping{Name: f.Key, Node: f.Value}
		}
	}
	b := &Bound{t: t, file: x.c.file, paramValue: map[string]any{}, pseudo: map[string]any{}, enabledSet: map[string]bool{}}
	for k, v := range x.params {
		b.paramValue[k] = v
	}
	for k, v := range bindings {
		b.paramValue[k] = v
	}
	e := evaluator{b: b}
	return e.eval(n)
}

// refsUnbound tells whether n refers to a parameter with no value yet.
func (x *lxExpander) refsUnbound(n *Node, bindings map[string]string) bool {
	switch n.Kind {
	case List:
		for _, c := range n.Items {
			if x.refsUnbound(c, bindings) {
				return true
			}
		}
	case Map:
		if n.fn == fnRef && n.arg().Kind == String {
			name := n.arg().Value
			_, bound := bindings[name]
			_, known := x.params[name]
			return x.declared[name] && !bound && !known
		}
		if n.fn == fnGetAZs {
			return true // the region is known at Bind
		}
		for _, f := range n.Fields {
			if x.refsUnbound(f.Value, bindings) {
				return true
			}
		}
	}
	return false
}

// reexpand expands the template's loops again with the values of a binding.
func (t *Template) reexpand(params map[string]any) (*Template, error) {
	return build(t.Name, t.raw, params)
}
