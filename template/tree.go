package template

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The template as a tree, before it is a Template: what transforms work
// on. A template that declares transforms (AWS::Serverless, AWS::Include,
// macros) is not valid until they have run, so it is read as a tree, the
// transforms rewrite the tree, and the result, written as JSON, is what
// Parse reads.

// ParseTree reads a body, JSON or YAML, into a linked tree (short-form tags
// in their long form), without the checks of Parse.
func ParseTree(name string, body []byte) (*Node, error) {
	if len(body) > MaxURLBodyBytes {
		return nil, &Error{File: name, Line: 1, Col: 1, Message: fmt.Sprintf(
			"Template may not exceed %d bytes in size.", MaxURLBodyBytes)}
	}
	root, err := parseBody(name, body)
	if err != nil {
		return nil, err
	}
	return root, nil
}

// Relink sets the parent pointers and call marks of a tree whose nodes
// were built or moved by hand (a transform's output spliced in).
func Relink(n *Node) { n.link() }

// Macro is one transform a template declares: its name and the
// Parameters given with it (nil when none).
type Macro struct {
	Name       string
	Parameters *Node
	// At is where it is declared.
	At *Node
}

// DeclaredTransforms reads the Transform section of a tree: a name, a
// {Name, Parameters} map, or a list of them, in order.
func DeclaredTransforms(file string, root *Node) ([]Macro, error) {
	sec := root.Get("Transform")
	if sec == nil || sec.Kind == Null {
		return nil, nil
	}
	items := []*Node{sec}
	if sec.Kind == List {
		items = sec.Items
	}
	var out []Macro
	for _, it := range items {
		m, err := macroOf(file, it)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// macroOf reads one transform: a name, or {Name: NAME, Parameters: {...}}.
func macroOf(file string, it *Node) (Macro, error) {
	switch {
	case it.Kind == String:
		return Macro{Name: it.Value, At: it}, nil
	case it.Kind == Map && it.Get("Name") != nil && it.Get("Name").Kind == String:
		return Macro{Name: it.Get("Name").Value, Parameters: it.Get("Parameters"), At: it}, nil
	}
	return Macro{}, nodeError(file, it, "Key Name of transform definition must be a string.")
}

// SnippetTransforms reads the argument of an Fn::Transform: one
// {Name, Parameters} map or a list of them, applied in order.
func SnippetTransforms(file string, arg *Node) ([]Macro, error) {
	items := []*Node{arg}
	if arg.Kind == List {
		items = arg.Items
	}
	if len(items) == 0 {
		return nil, nodeError(file, arg, "Template format error: Fn::Transform names no macro; write Fn::Transform: {Name: MACRO, Parameters: {...}}")
	}
	var out []Macro
	for _, it := range items {
		if it.Kind != Map {
			return nil, nodeError(file, it, "Template format error: every Fn::Transform is a map with a Name and Parameters")
		}
		m, err := macroOf(file, it)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// HasFnTransform tells whether the tree holds an Fn::Transform.
func HasFnTransform(n *Node) bool { return n.flags&holdsTransform != 0 }

// DeclaredParameters reads the Parameters section of a tree, checked as
// Parse checks it.
func DeclaredParameters(file string, root *Node) ([]*Parameter, error) {
	if root.Kind != Map {
		return nil, nodeError(file, root, "Template format error: unsupported structure.")
	}
	pre := &builder{c: collector{file: file}, t: &Template{Name: file, Root: root, raw: root,
		parameters: map[string]*Parameter{}}, claimed: map[*Node]bool{}}
	pre.parameters(root.Get("Parameters"))
	if !pre.c.empty() {
		return nil, pre.c.err()
	}
	return pre.t.Parameters, nil
}

// DefaultValue is what Ref gives for the parameter's default (a list for
// the list types), and whether it has one.
func (p *Parameter) DefaultValue() (any, bool) {
	if !p.HasDefault {
		return nil, false
	}
	return p.refValue(p.Default), true
}

// ParameterValues binds the Parameters section of a tree to a call's
// values (defaults, UsePreviousValue, SSM types, constraints), as Bind
// does, and returns what Ref gives for each parameter: what a transform
// receives as the template's parameter values.
func ParameterValues(file string, root *Node, in BindInput) (map[string]any, []BoundParameter, error) {
	params, err := DeclaredParameters(file, root)
	if err != nil {
		return nil, nil, err
	}
	t := &Template{Name: file, Root: root, raw: root, Parameters: params, parameters: map[string]*Parameter{}}
	for _, p := range params {
		t.parameters[p.Name] = p
	}
	b := &Bound{t: t, file: file, conds: map[string]bool{}, paramValue: map[string]any{}}
	b.setPseudo(in)
	c := &collector{file: file}
	b.bindParameters(c, in)
	if !c.empty() {
		return nil, nil, c.err()
	}
	return b.paramValue, b.params, nil
}

// PseudoValues are the values of the pseudo parameters (AWS::Region...),
// by name; AWS::NoValue left out.
func PseudoValues(p Pseudo) map[string]any {
	b := &Bound{}
	b.setPseudo(BindInput{Pseudo: p})
	out := make(map[string]any, len(b.pseudo))
	for k, v := range b.pseudo {
		if k != "AWS::NoValue" {
			out[k] = v
		}
	}
	return out
}

// ExpandForEach expands the Fn::ForEach loops of a tree with parameter
// values (Ref's values), as the AWS::LanguageExtensions transform does
// before the transforms listed after it run.
func ExpandForEach(file string, root *Node, params map[string]any) (*Node, error) {
	declared := map[string]bool{}
	if ps := root.Get("Parameters"); ps != nil && ps.Kind == Map {
		for _, f := range ps.Fields {
			declared[f.Key] = true
		}
	}
	x, err := expandLanguageExtensions(file, root, params, declared)
	if err != nil {
		return nil, err
	}
	return x.root, nil
}

// JSON writes the tree as JSON, members in their order, indented by two
// spaces: how CloudFormation shows a processed template. Numbers keep
// their literal; nulls are written null.
func (n *Node) JSON() []byte {
	var b bytes.Buffer
	writeJSON(&b, n, 0)
	b.WriteByte('\n')
	return b.Bytes()
}

func writeJSON(b *bytes.Buffer, n *Node, depth int) {
	indent := func(d int) {
		b.WriteByte('\n')
		for i := 0; i < d; i++ {
			b.WriteString("  ")
		}
	}
	switch n.Kind {
	case Null:
		b.WriteString("null")
	case String:
		writeJSONString(b, n.Value)
	case Number:
		b.WriteString(n.Value)
	case Bool:
		b.WriteString(n.Value)
	case List:
		if len(n.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, c := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSON(b, c, depth+1)
		}
		indent(depth)
		b.WriteByte(']')
	case Map:
		if len(n.Fields) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, f := range n.Fields {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(depth + 1)
			writeJSONString(b, f.Key)
			b.WriteString(": ")
			writeJSON(b, f.Value, depth+1)
		}
		indent(depth)
		b.WriteByte('}')
	}
}

// writeJSONString writes s as a JSON string: <, > and & as they are (as
// CloudFormation writes them), control characters escaped.
func writeJSONString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
			i++
		case c == '\n':
			b.WriteString(`\n`)
			i++
		case c == '\r':
			b.WriteString(`\r`)
			i++
		case c == '\t':
			b.WriteString(`\t`)
			i++
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteString(strconv.FormatInt(int64(c>>4), 16))
			b.WriteString(strconv.FormatInt(int64(c&0xF), 16))
			i++
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(`\ufffd`)
			} else if r == '\u2028' || r == '\u2029' {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	b.WriteByte('"')
}

// Without returns a copy of map n without the member key (the copy shares
// the other members' values).
func (n *Node) Without(key string) *Node {
	out := &Node{Kind: Map, Pos: n.Pos, Tag: n.Tag}
	for _, f := range n.Fields {
		if f.Key != key {
			out.Fields = append(out.Fields, f)
		}
	}
	return out
}
