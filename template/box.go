package template

import (
	"encoding/json"
	"unsafe"
)

// value returns the value of a scalar node as an any without allocating.
// Boxing a string (or a json.Number) into an interface would copy its
// header into an allocation of its own, once per scalar per evaluation;
// instead the interface points at the node's Value, which the package
// never changes once the node is built. The price: a value held as an any
// keeps its node's block of the tree alive.
func (n *Node) value() any {
	switch n.Kind {
	case String:
		return boxString(&n.Value)
	case Number:
		return boxNumber(&n.Value)
	case Bool:
		return n.Value == "true"
	}
	return n.Literal()
}

// eface is the layout of an empty interface.
type eface struct {
	typ, data unsafe.Pointer
}

// boxString returns *p as an any without copying it.
func boxString(p *string) any {
	var v any = "" // a constant: the type word, no allocation
	(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(p)
	return v
}

// boxNumber returns *p as a json.Number without copying it.
func boxNumber(p *string) any {
	var v any = json.Number("")
	(*eface)(unsafe.Pointer(&v)).data = unsafe.Pointer(p)
	return v
}
