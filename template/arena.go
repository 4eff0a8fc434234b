package template

import "unsafe"

// arena allocates the nodes of one tree and the backing arrays of their
// Fields and Items in blocks: a template has tens of thousands of small
// nodes, and one allocation per node (and per member list) is most of the
// cost of parsing it. A slice handed out has its capacity cut to its
// length, so an append to it copies instead of writing into a neighbour.
type arena struct {
	nodes  []Node
	fields []Field
	items  []*Node
	text   []byte // never written again where a string points
	recent [512]string
	// hint sizes the first blocks from the body: about one node per 32
	// bytes of JSON or YAML.
	hint int
}

func newArena(bodyLen int) *arena {
	return &arena{hint: bodyLen / 32}
}

func (a *arena) new() *Node {
	if len(a.nodes) == 0 {
		a.nodes = make([]Node, a.block(64, 4096))
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	return n
}

// node returns a new node of a kind at a position.
func (a *arena) node(k Kind, value string, pos Pos) *Node {
	n := a.new()
	n.Kind, n.Value, n.Pos = k, value, pos
	return n
}

// block is the size of the next block: the hint, within [lo, hi].
func (a *arena) block(lo, hi int) int {
	return min(max(a.hint, lo), hi)
}

// fieldList returns a copy of buf backed by the arena.
func (a *arena) fieldList(buf []Field) []Field {
	n := len(buf)
	if n == 0 {
		return nil
	}
	if len(a.fields) < n {
		a.fields = make([]Field, max(n, a.block(64, 2048)))
	}
	out := a.fields[:n:n]
	a.fields = a.fields[n:]
	copy(out, buf)
	return out
}

// itemList returns a copy of buf backed by the arena.
func (a *arena) itemList(buf []*Node) []*Node {
	n := len(buf)
	if n == 0 {
		return nil
	}
	if len(a.items) < n {
		a.items = make([]*Node, max(n, a.block(64, 2048)))
	}
	out := a.items[:n:n]
	a.items = a.items[n:]
	copy(out, buf)
	return out
}

// textBlock is the size of the blocks the arena copies strings into.
const textBlock = 64 << 10

// str returns b as a string, copied into the arena's text blocks, so that
// the strings of a tree are a few allocations that hold no pointers. A
// short string is looked up first among the last ones of its hash: a
// template repeats its keys (Type, Properties, Fn::Sub), its types and its
// names.
func (a *arena) str(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n <= 32:
		h := (uint(n)*131 + uint(b[0])*31 + uint(b[n/2])*7 + uint(b[n-1])) % uint(len(a.recent))
		if s := a.recent[h]; s == string(b) {
			return s
		}
		s := a.copyText(b)
		a.recent[h] = s
		return s
	case n > textBlock/8:
		return string(b)
	}
	return a.copyText(b)
}

func (a *arena) copyText(b []byte) string {
	if len(a.text)+len(b) > cap(a.text) {
		a.text = make([]byte, 0, textBlock)
	}
	start := len(a.text)
	a.text = append(a.text, b...)
	return unsafe.String(&a.text[start], len(b))
}
