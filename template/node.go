package template

import (
	"strconv"
	"strings"
)

// Kind is the JSON kind of a Node.
type Kind uint8

// The kinds of a Node: the JSON data model, plus Null, which the parser keeps
// so that the checks can refuse it with AWS's message and position.
const (
	Null Kind = iota
	String
	Number
	Bool
	List
	Map
)

var kindNames = [...]string{Null: "null", String: "string", Number: "number", Bool: "boolean", List: "list", Map: "map"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Pos is a position in the template body: 1-based line and column.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// A Node is one value of a parsed template: a scalar, a list or a map, with
// the position where it starts. Short-form YAML tags are already normalised
// to their long form (`!GetAtt A.B` is the map {"Fn::GetAtt": ["A", "B"]}),
// so the tree reads the same whether the template was JSON or YAML.
//
// Nodes are never shared: a YAML alias is expanded into a copy, so every
// node has one parent and one path.
type Node struct {
	Kind  Kind
	fn    fnID      // the intrinsic function this map calls, if it is a call
	flags treeFlags // what the subtree of this node holds (see link)
	// index is the index of this node in its parent's Items or Fields.
	index int32
	// Value is the text of a scalar: the string itself, the literal of a
	// number exactly as written, "true" or "false".
	Value string
	// Items are the elements of a List.
	Items []*Node
	// Fields are the members of a Map, in document order.
	Fields []Field
	// Pos is where the node starts. For a map that came from a short-form
	// tag, it is the position of the tag.
	Pos Pos
	// Tag is the short-form tag the node was written with ("!GetAtt"), or "".
	Tag string

	parent *Node
}

// key returns the key of a node in its parent map.
func (n *Node) key() string {
	if n.parent == nil || n.parent.Kind != Map {
		return ""
	}
	return n.parent.Fields[n.index].Key
}

// A Field is one member of a Map.
type Field struct {
	Key    string
	KeyPos Pos
	Value  *Node
}

// Get returns the value of key in a Map node, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := range n.Fields {
		if n.Fields[i].Key == key {
			return n.Fields[i].Value
		}
	}
	return nil
}

// field returns the field of key in a Map node, or nil.
func (n *Node) field(key string) *Field {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := range n.Fields {
		if n.Fields[i].Key == key {
			return &n.Fields[i]
		}
	}
	return nil
}

// IsScalar tells whether the node is a string, a number or a boolean.
func (n *Node) IsScalar() bool {
	return n != nil && (n.Kind == String || n.Kind == Number || n.Kind == Bool)
}

// Func returns the name of the intrinsic function this node calls ("Ref",
// "Fn::GetAtt", ...) or "" when it is not a call.
func (n *Node) Func() string {
	if n == nil || n.fn == fnNone {
		return ""
	}
	return n.Fields[0].Key
}

// arg returns the argument of a call node.
func (n *Node) arg() *Node { return n.Fields[0].Value }

// Path returns the JSON pointer of the node in the template, such as
// /Resources/Topic/Properties/TopicName or /Outputs/Arn/Value/0.
func (n *Node) Path() string {
	if n == nil || n.parent == nil {
		return ""
	}
	var segs []string
	for m := n; m.parent != nil; m = m.parent {
		if m.parent.Kind == List {
			segs = append(segs, strconv.Itoa(int(m.index)))
		} else {
			segs = append(segs, m.key())
		}
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(segs[i])
	}
	return b.String()
}

// Parent returns the node that holds n, or nil for the root.
func (n *Node) Parent() *Node { return n.parent }

// treeFlags say what a subtree holds, so that the checks skip the
// subtrees that cannot concern them.
type treeFlags uint8

const (
	holdsNull      treeFlags = 1 << iota // a Null node
	holdsCall                            // a map that calls a function
	holdsTransform                       // a member named Fn::Transform
)

// link sets the parent pointers of the children of n, recursively, marks
// the maps that call an intrinsic function and sets what each subtree
// holds: one pass over a new tree, children first. The parsers do the same
// node by node as they build (adopt), and skip this pass.
func (n *Node) link() {
	switch n.Kind {
	case List:
		for _, c := range n.Items {
			c.link()
		}
	case Map:
		for i := range n.Fields {
			n.Fields[i].Value.link()
		}
	}
	n.adopt()
}

// keyFlags are the flags a member name gives its map.
func keyFlags(k string) treeFlags {
	if len(k) == len("Fn::Transform") && k == "Fn::Transform" {
		return holdsTransform
	}
	return 0
}

// finish completes a collection whose children already point at it (the
// parsers set the parent of a child as they take it): it marks a call and
// sets the flags, given those the children and keys bring.
func (n *Node) finish(flags treeFlags) {
	if n.Kind == Map {
		n.fn = callOf(n)
		if n.fn != fnNone {
			flags |= holdsCall
		}
	}
	n.flags = flags
}

// adopt does link's work for n alone, once its children are adopted: it
// sets the parent pointers of a collection's children, marks a call and
// sets the flags.
func (n *Node) adopt() {
	var flags treeFlags
	switch n.Kind {
	case Null:
		flags = holdsNull
	case List:
		for i, c := range n.Items {
			c.parent, c.index = n, int32(i)
			flags |= c.flags
		}
	case Map:
		n.fn = callOf(n)
		if n.fn != fnNone {
			flags = holdsCall
		}
		for i := range n.Fields {
			f := &n.Fields[i]
			f.Value.parent, f.Value.index = n, int32(i)
			flags |= f.Value.flags
			if len(f.Key) == len("Fn::Transform") && f.Key == "Fn::Transform" {
				flags |= holdsTransform
			}
		}
	}
	n.flags = flags
}

// Literal returns the node as a plain JSON value, without evaluating any
// intrinsic function (a call stays the map it is written as). Nulls become
// nil. It is what the Metadata section and AWS::CloudFormation::Interface
// need, and what tests compare against.
func (n *Node) Literal() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case String:
		return n.Value
	case Number:
		return jsonNumber(n.Value)
	case Bool:
		return n.Value == "true"
	case List:
		out := make([]any, len(n.Items))
		for i, c := range n.Items {
			out[i] = c.Literal()
		}
		return out
	case Map:
		out := make(map[string]any, len(n.Fields))
		for _, f := range n.Fields {
			out[f.Key] = f.Value.Literal()
		}
		return out
	}
	return nil
}

// scalarString returns the text of a scalar node the way CloudFormation
// turns it into a string, and whether the node is a scalar.
func (n *Node) scalarString() (string, bool) {
	if n.IsScalar() {
		return n.Value, true
	}
	return "", false
}
