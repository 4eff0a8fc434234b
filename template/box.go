package template

import (
	"encoding/json"
	"unsafe"
)

// The value of a scalar node is boxed once, when the tree is built, so that
// evaluating a template does not allocate for every scalar it returns. A
// boxed string (or json.Number) would be a 16-byte allocation of its own per
// node; instead the interface points at the node's Value, which the package
// never changes once the node is built. A tree of tens of thousands of
// scalars then costs the collector no extra object per scalar.

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
