package template

import "encoding/json"

// value returns the value of a scalar node as an any: a string, a
// json.Number (the literal, exact) or a bool. Other kinds give their
// literal form.
func (n *Node) value() any {
	switch n.Kind {
	case String:
		return n.Value
	case Number:
		return json.Number(n.Value)
	case Bool:
		return n.Value == "true"
	}
	return n.Literal()
}
