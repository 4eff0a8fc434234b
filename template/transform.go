package template

import (
	"strings"
)

// LanguageExtensions is the one transform Parse runs itself; the others
// (AWS::Serverless, AWS::Include, macros) run before (package transforms,
// which the engine runs when a stack operation is called), and Parse
// reads what they made.
const LanguageExtensions = "AWS::LanguageExtensions"

// transforms reads the Transform section; it reports a transform that has
// not run and returns false then, since the rest of such a template is
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
		e := b.c.at(at, "Template format error: Transform %s has not run", strings.Join(unsupported, ", "))
		e.Detail = "transforms run before the template is read: stacksim runs them when a stack operation is called (create-stack, update-stack, create-change-set, validate-template)"
		e.err = ErrUnsupported
		return false
	}
	return b.noFnTransform(root)
}

// noFnTransform refuses an Fn::Transform that has not run (a macro or
// AWS::Include in place).
func (b *builder) noFnTransform(n *Node) bool {
	return b.findFnTransform(n)
}

// findFnTransform reports every Fn::Transform under n (not those inside
// one reported) and tells whether there was none.
func (b *builder) findFnTransform(n *Node) bool {
	if n.flags&holdsTransform == 0 {
		return true
	}
	ok := true
	switch n.Kind {
	case Map:
		for i := range n.Fields {
			if k := n.Fields[i].Key; len(k) == len("Fn::Transform") && k == "Fn::Transform" {
				b.fnTransformError(n)
				return false
			}
		}
		for i := range n.Fields {
			if v := n.Fields[i].Value; v.Kind >= List && !b.findFnTransform(v) {
				ok = false
			}
		}
	case List:
		for _, c := range n.Items {
			if c.Kind >= List && !b.findFnTransform(c) {
				ok = false
			}
		}
	}
	return ok
}

// fnTransformError reports the Fn::Transform of map n.
func (b *builder) fnTransformError(n *Node) {
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
	e := b.c.at(at, "Template format error: Fn::Transform (%s) has not run", name)
	e.Detail = "transforms run before the template is read, when a stack operation is called; the output of a transform is not processed again, so it may hold no Fn::Transform"
	e.err = ErrUnsupported
}
