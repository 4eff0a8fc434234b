package template

import "strings"

// AWS::LanguageExtensions resolves the intrinsic functions whose value is
// known when the transforms run, before the transforms listed after it
// read the template (so that AWS::Serverless reads a CodeUri written
// !Sub "s3://bucket-${AWS::AccountId}/code.zip" as the S3 URI it is, which
// the SAM translator cannot resolve itself). Known are the parameters'
// values and the pseudo parameters'; ResolveKnown replaces a Ref to one,
// and an Fn::Sub whose every variable is one (or a literal of its own
// variable map), by the value. A function that needs anything else (a
// resource, an attribute, an import) is left as written, and so is a Sub
// that is only partly known.

// ResolveKnown returns a copy of a template tree with the Refs and
// Fn::Subs of known values resolved in Globals, the resources' Properties
// and Outputs. known maps a parameter or pseudo parameter name to what
// Ref gives (a string, or a list of strings for a list parameter).
func ResolveKnown(root *Node, known map[string]any) *Node {
	if root.Kind != Map {
		return root
	}
	out := &Node{Kind: Map, Pos: root.Pos, Tag: root.Tag, Fields: make([]Field, len(root.Fields))}
	copy(out.Fields, root.Fields)
	for i, f := range out.Fields {
		switch f.Key {
		case "Globals", "Outputs":
			out.Fields[i].Value = resolveKnown(f.Value, known)
		case "Resources":
			if f.Value.Kind != Map {
				continue
			}
			rs := &Node{Kind: Map, Pos: f.Value.Pos, Tag: f.Value.Tag, Fields: make([]Field, len(f.Value.Fields))}
			for j, r := range f.Value.Fields {
				rs.Fields[j] = r
				if r.Value.Kind == Map && r.Value.Get("Properties") != nil {
					res := &Node{Kind: Map, Pos: r.Value.Pos, Tag: r.Value.Tag, Fields: make([]Field, len(r.Value.Fields))}
					for k, g := range r.Value.Fields {
						res.Fields[k] = g
						if g.Key == "Properties" {
							res.Fields[k].Value = resolveKnown(g.Value, known)
						}
					}
					rs.Fields[j].Value = res
				}
			}
			out.Fields[i].Value = rs
		}
	}
	return out
}

// resolveKnown copies n with its known Refs and Subs resolved.
func resolveKnown(n *Node, known map[string]any) *Node {
	switch n.Kind {
	case List:
		out := &Node{Kind: List, Pos: n.Pos, Tag: n.Tag, Items: make([]*Node, len(n.Items))}
		for i, it := range n.Items {
			out.Items[i] = resolveKnown(it, known)
		}
		return out
	case Map:
	default:
		return n
	}
	if len(n.Fields) == 1 {
		arg := n.Fields[0].Value
		switch n.Fields[0].Key {
		case "Ref":
			if arg.Kind == String {
				if v, ok := knownNode(known[arg.Value], arg.Pos); ok {
					return v
				}
			}
			return n
		case "Fn::Sub":
			if s, ok := knownSub(arg, known); ok {
				return &Node{Kind: String, Value: s, Pos: arg.Pos}
			}
		}
	}
	out := &Node{Kind: Map, Pos: n.Pos, Tag: n.Tag, Fields: make([]Field, len(n.Fields))}
	for i, f := range n.Fields {
		out.Fields[i] = Field{Key: f.Key, KeyPos: f.KeyPos, Value: resolveKnown(f.Value, known)}
	}
	return out
}

// knownNode is a Ref's value as a node: a string, or a list of strings.
func knownNode(v any, pos Pos) (*Node, bool) {
	switch t := v.(type) {
	case string:
		return &Node{Kind: String, Value: t, Pos: pos}, true
	case []string:
		out := &Node{Kind: List, Pos: pos, Items: make([]*Node, len(t))}
		for i, s := range t {
			out.Items[i] = &Node{Kind: String, Value: s, Pos: pos}
		}
		return out, true
	case []any:
		out := &Node{Kind: List, Pos: pos, Items: make([]*Node, len(t))}
		for i, x := range t {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out.Items[i] = &Node{Kind: String, Value: s, Pos: pos}
		}
		return out, true
	}
	return nil, false
}

// knownSub is the string an Fn::Sub gives when every variable is known:
// its own variable map's (each a literal, or a known Sub or Ref), or a
// parameter's or pseudo parameter's string.
func knownSub(arg *Node, known map[string]any) (string, bool) {
	text, vars := arg, (*Node)(nil)
	if arg.Kind == List {
		if len(arg.Items) != 2 || arg.Items[1].Kind != Map {
			return "", false
		}
		text, vars = arg.Items[0], arg.Items[1]
	}
	if text.Kind != String {
		return "", false
	}
	parts, ok := parseSub(text.Value)
	if !ok {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		if !p.isVar {
			b.WriteString(p.text)
			continue
		}
		if vars != nil {
			if v := vars.Get(p.text); v != nil {
				r := resolveKnown(v, known)
				if r.Kind != String {
					return "", false
				}
				b.WriteString(r.Value)
				continue
			}
		}
		s, ok := known[p.text].(string)
		if !ok {
			return "", false
		}
		b.WriteString(s)
	}
	return b.String(), true
}
