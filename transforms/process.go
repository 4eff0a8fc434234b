package transforms

import (
	"context"
	"fmt"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// Names of the transforms AWS hosts.
const (
	Serverless         = "AWS::Serverless-2016-10-31"
	Include            = "AWS::Include"
	LanguageExtensions = template.LanguageExtensions
)

// Env is what a processing reads from the account and the call.
type Env struct {
	// File names the template in errors.
	File                         string
	Region, AccountID, Partition string
	// Parameters are the template's parameter values as Ref gives them
	// (the macro event's templateParameterValues); Pseudo the pseudo
	// parameters'. A Ref to either in a transform's Parameters is
	// replaced by its value.
	Parameters map[string]any
	Pseudo     map[string]any
	// Macro finds a macro of the account by name (AWS::CloudFormation::Macro
	// Name) and returns its function's target; found is false when the
	// account has no such macro.
	Macro func(name string) (target resources.MacroTarget, found bool, err error)
	// Include reads the object an AWS::Include Location names; the error
	// is shown after "Transform AWS::Include failed with: ".
	Include func(location string) (name string, body []byte, err error)
	// SAM runs the SAM translator; nil when it cannot (see Translator).
	SAM *Translator
	// RequestID is the requestId of the n-th macro invocation (from 1).
	RequestID func(n int) string
}

// Result is a processed template.
type Result struct {
	// Root is the processed tree. It declares AWS::LanguageExtensions in
	// its Transform section when the template did: the loops are expanded
	// when another transform follows, and the rest of the extensions are
	// evaluated where stacksim evaluates them (template.Bind).
	Root *template.Node
	// Ran names the transforms and macros that ran, in order.
	Ran []string
}

// Error is a transform that failed, worded as AWS words it; Detail is what
// stacksim adds (how to fix it).
type Error struct {
	Message string
	Detail  string
}

func (e *Error) Error() string {
	if e.Detail == "" {
		return e.Message
	}
	return e.Message + " (" + e.Detail + ")"
}

// Needed tells whether a tree declares a transform that Process must run:
// a snippet-level Fn::Transform, or a template-level transform other than
// AWS::LanguageExtensions (which template.Parse runs itself).
func Needed(file string, root *template.Node) (bool, error) {
	if root.Kind != template.Map {
		return false, nil
	}
	if template.HasFnTransform(root) {
		return true, nil
	}
	declared, err := template.DeclaredTransforms(file, root)
	if err != nil {
		return false, err
	}
	for _, m := range declared {
		if m.Name != LanguageExtensions {
			return true, nil
		}
	}
	return false, nil
}

// Process runs the transforms of a tree in CloudFormation's order. The
// tree is not changed.
func Process(ctx context.Context, root *template.Node, env Env) (*Result, error) {
	p := &processor{env: env, ctx: ctx}
	if root.Kind != template.Map {
		return nil, &Error{Message: "Template format error: unsupported structure."}
	}
	declared, err := template.DeclaredTransforms(env.File, root)
	if err != nil {
		return nil, err
	}
	// Snippets first, the most deeply nested first. The Transform section
	// itself is not content.
	body := root.Without("Transform")
	body, err = p.snippets(body)
	if err != nil {
		return nil, err
	}
	langExt := false
	for i, m := range declared {
		switch m.Name {
		case LanguageExtensions:
			langExt = true
			if i < len(declared)-1 {
				// The transforms after it read the loops expanded, and
				// the functions of values known now resolved.
				if body, err = template.ExpandForEach(env.File, body, env.Parameters); err != nil {
					return nil, err
				}
				body = template.ResolveKnown(body, knownValues(env))
			}
			p.ran = append(p.ran, m.Name)
			continue
		case Serverless:
			body, err = p.serverless(body)
		case Include:
			body, err = p.include(m, nil)
		default:
			body, err = p.macro(m, body)
		}
		if err != nil {
			return nil, err
		}
		if body.Kind != template.Map {
			return nil, &Error{Message: fmt.Sprintf("Template format error: the template that transform %s returned is not an object", p.transformID(m.Name))}
		}
	}
	if langExt {
		body = withTransform(body, LanguageExtensions)
	}
	template.Relink(body)
	return &Result{Root: body, Ran: p.ran}, nil
}

// withTransform returns a copy of a template map with Transform: name
// first after AWSTemplateFormatVersion and Description.
func withTransform(root *template.Node, name string) *template.Node {
	out := &template.Node{Kind: template.Map, Pos: root.Pos}
	tf := template.Field{Key: "Transform", Value: &template.Node{Kind: template.String, Value: name}}
	placed := false
	for _, f := range root.Fields {
		if f.Key == "Transform" {
			continue
		}
		if !placed && f.Key != "AWSTemplateFormatVersion" && f.Key != "Description" {
			out.Fields = append(out.Fields, tf)
			placed = true
		}
		out.Fields = append(out.Fields, f)
	}
	if !placed {
		out.Fields = append(out.Fields, tf)
	}
	return out
}

type processor struct {
	env Env
	ctx context.Context
	n   int // macro invocations so far
	ran []string
}

// snippets processes every Fn::Transform under n, children before their
// parents, and returns the new tree (n is not changed).
func (p *processor) snippets(n *template.Node) (*template.Node, error) {
	if !holdsTransform(n) {
		return n, nil
	}
	switch n.Kind {
	case template.List:
		out := &template.Node{Kind: template.List, Pos: n.Pos, Tag: n.Tag, Items: make([]*template.Node, len(n.Items))}
		for i, c := range n.Items {
			r, err := p.snippets(c)
			if err != nil {
				return nil, err
			}
			out.Items[i] = r
		}
		return out, nil
	case template.Map:
	default:
		return n, nil
	}
	out := &template.Node{Kind: template.Map, Pos: n.Pos, Tag: n.Tag}
	var call *template.Node
	for _, f := range n.Fields {
		if f.Key == "Fn::Transform" {
			call = f.Value
			continue
		}
		r, err := p.snippets(f.Value)
		if err != nil {
			return nil, err
		}
		out.Fields = append(out.Fields, template.Field{Key: f.Key, KeyPos: f.KeyPos, Value: r})
	}
	if call == nil {
		return out, nil
	}
	macros, err := template.SnippetTransforms(p.env.File, call)
	if err != nil {
		return nil, err
	}
	// The siblings are the fragment; the macros at one place run in order,
	// each on what the one before returned.
	fragment := out
	for _, m := range macros {
		switch m.Name {
		case Include:
			fragment, err = p.include(m, fragment)
		case Serverless, LanguageExtensions:
			return nil, &Error{Message: fmt.Sprintf("Template format error: %s can only be declared in the Transform section of the template", m.Name)}
		default:
			fragment, err = p.macro(m, fragment)
		}
		if err != nil {
			return nil, err
		}
	}
	return fragment, nil
}

// holdsTransform tells whether a tree holds an Fn::Transform. A parsed
// node knows; a copy made here (the template without its Transform
// section) is asked through its members.
func holdsTransform(n *template.Node) bool {
	if template.HasFnTransform(n) {
		return true
	}
	switch n.Kind {
	case template.Map:
		for _, f := range n.Fields {
			if f.Key == "Fn::Transform" || template.HasFnTransform(f.Value) {
				return true
			}
		}
	case template.List:
		for _, c := range n.Items {
			if template.HasFnTransform(c) {
				return true
			}
		}
	}
	return false
}

// transformID is how AWS names a transform in its messages: AWS's own by
// name, a macro of the account as ACCOUNT::NAME.
func (p *processor) transformID(name string) string {
	switch name {
	case Serverless, Include, LanguageExtensions:
		return name
	}
	return p.env.AccountID + "::" + name
}

// knownValues are the values AWS::LanguageExtensions knows when the
// transforms run: the parameters' and the pseudo parameters'.
func knownValues(env Env) map[string]any {
	known := make(map[string]any, len(env.Parameters)+len(env.Pseudo))
	for k, v := range env.Parameters {
		known[k] = v
	}
	for k, v := range env.Pseudo {
		known[k] = v
	}
	return known
}
