package template

import "unsafe"

// arena allocates the nodes of one tree and the backing arrays of their
// Fields and Items in blocks: a template has tens of thousands of small
// nodes, and one allocation per node (and per member list) is most of the
// cost of parsing it. A slice handed out has its capacity cut to its
// length, so an append to it copies instead of writing into a neighbour.
type arena struct {
	nodes   []Node
	fields  []Field
	items   []*Node
	textBlk []byte // never written again where a string points
	recent  [512]string
	// The sizes of the first blocks: what the body is expected to need.
	firstNodes, firstFields, firstItems int
}

// The sizes of the blocks after the first ones (a small template needs
// only its first, small, blocks).
const (
	nodeBlock  = 1024
	fieldBlock = 1024
	itemBlock  = 1024
)

// newArena returns an arena whose first blocks hold the nodes, fields and
// items a body is expected to need (estimated from it, see the parsers),
// within a bound of the body's size; later blocks are of fixed sizes. One
// block for the whole tree, allocated when parsing starts, wastes no
// partly filled blocks and leaves the collector a young, mostly empty heap
// to mark if the allocation starts a cycle.
func newArena(bodyLen, nodes, fields, items int) *arena {
	limit := bodyLen/8 + 64
	first := func(n int) int { return max(min(n, limit), 64) }
	return &arena{firstNodes: first(nodes), firstFields: first(fields), firstItems: first(items)}
}

func (a *arena) new() *Node {
	if len(a.nodes) == 0 {
		a.nodes = make([]Node, next(&a.firstNodes, nodeBlock))
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	return n
}

// next returns the size of the next block: *first the first time, then
// size.
func next(first *int, size int) int {
	if n := *first; n > 0 {
		*first = 0
		return n
	}
	return size
}

// node returns a new node of a kind at a position.
func (a *arena) node(k Kind, value string, pos Pos) *Node {
	n := a.new()
	n.Kind, n.Value, n.Pos = k, value, pos
	return n
}

// fieldList returns a copy of buf backed by the arena.
func (a *arena) fieldList(buf []Field) []Field {
	n := len(buf)
	if n == 0 {
		return nil
	}
	if len(a.fields) < n {
		a.fields = make([]Field, max(n, next(&a.firstFields, fieldBlock)))
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
		a.items = make([]*Node, max(n, next(&a.firstItems, itemBlock)))
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
// template repeats its keys (Type, Properties, Fn::Sub) and its names.
func (a *arena) str(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n <= 16:
		h := (uint(n)*131 + uint(b[0])*31 + uint(b[n/2])*7 + uint(b[n-1])) % uint(len(a.recent))
		if s := a.recent[h]; s == string(b) {
			return s
		}
		s := a.text(b)
		a.recent[h] = s
		return s
	}
	return a.text(b)
}

// text returns b as a string, copied into the arena's text blocks (a long
// one on its own).
func (a *arena) text(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case len(b) > textBlock/8:
		return string(b)
	}
	if len(a.textBlk)+len(b) > cap(a.textBlk) {
		a.textBlk = make([]byte, 0, textBlock)
	}
	start := len(a.textBlk)
	a.textBlk = append(a.textBlk, b...)
	return unsafe.String(&a.textBlk[start], len(b))
}
