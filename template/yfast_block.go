package template

// The block structure of the fast path: mappings and sequences laid out by
// indentation, and the nodes in them.

// Where a block node starts.
const (
	atLineStart = iota // first on its line
	afterDash          // after "- " on the line of a sequence entry
	afterColon         // after "key:" on the line of the key
)

// yTag is the tag a node was written with.
type yTag struct {
	name     string // "!Ref", "!!str"; "" when the node has none
	long     string // the function a short form stands for ("Ref"), or ""
	pos      Pos    // where the tag is
	nextLine bool   // the content starts on a later line than the tag
}

// tag reads a tag at p.off: a short form or a standard scalar tag,
// followed by a blank.
func (p *yfast) tag() yTag {
	t := yTag{pos: p.pos()}
	start := p.off
	i := p.off + 1
	if i < len(p.src) && p.src[i] == '!' {
		i++
	}
	for i < len(p.src) && isAlnumByte(p.src[i]) {
		i++
	}
	if !p.blankz(i) {
		p.bail()
	}
	t.name, t.long = tagNames(p.src[start:i])
	if t.name == "" {
		p.bail()
	}
	p.off = i
	return t
}

func isAlnumByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// contentPos is where the content of a tagged node is said to start: on
// the tag's line, the content; otherwise the tag (see yamlConv.contentPos).
func (t *yTag) contentPos(content Pos) Pos {
	if t.nextLine {
		return t.pos
	}
	return content
}

// blockNode parses the node at p.off in block context. ind is the column
// of the innermost block collection that holds it (-1 at the root).
func (p *yfast) blockNode(ind, where, depth int) *Node {
	if depth > yMaxDepth {
		p.bail()
	}
	var t yTag
	if p.peek() == '!' {
		t = p.tag()
		p.skipSpaces()
		if p.atLineEnd() {
			p.skipToContent()
			t.nextLine = true
			if where == afterColon && !p.eof() && p.column(p.off) == ind && p.peek() == '-' && p.blankz(p.off+1) {
				// A tagged sequence written at its key's column.
				return p.wrap(p.blockSeq(ind, depth, true), t, t.pos)
			}
			if p.eof() || p.column(p.off) <= ind {
				// Nothing more indented follows: the tag is on an empty
				// scalar (`AvailabilityZones: !GetAZs`), at the tag.
				return p.scalar("", false, false, t, t.pos)
			}
			where = atLineStart
		}
		if c := p.peek(); c == '!' || c == '&' || c == '*' {
			p.bail()
		}
	}
	return p.blockContent(ind, where, depth, t)
}

func (p *yfast) blockContent(ind, where, depth int, t yTag) *Node {
	c := p.peek()
	col := p.column(p.off)
	pos := p.pos()
	switch c {
	case '-':
		if !p.blankz(p.off + 1) {
			break // a plain scalar
		}
		if where == afterColon || (t.name != "" && !t.nextLine) {
			p.bail()
		}
		return p.wrap(p.blockSeq(col, depth, false), t, pos)
	case '[', '{':
		n := p.flowCollection(ind, depth)
		p.skipSpaces()
		if p.peek() == ':' {
			p.bail() // a flow collection as a key
		}
		p.endLine()
		return p.wrap(n, t, pos)
	case '|', '>':
		if where == atLineStart {
			p.bail()
		}
		v := p.blockScalar(ind)
		if t.name != "" {
			t.nextLine = true // the content of a tagged block scalar is at its tag
		}
		return p.scalar(v, true, false, t, pos)
	case '"', '\'':
		line := p.line
		keyStart := p.off
		v := p.quoted()
		multi := p.line != line
		p.skipSpaces()
		if p.peek() == ':' && p.blankz(p.off+1) {
			if where == afterColon || (t.name != "" && !t.nextLine) || multi || p.off-keyStart > 1000 {
				p.bail() // a tag on the line of a key is the key's
			}
			return p.wrap(p.blockMap(col, pos, v, false, depth), t, pos)
		}
		if !p.atLineEnd() {
			p.bail()
		}
		return p.scalar(v, true, true, t, pos)
	case '?', ':':
		if p.blankz(p.off + 1) {
			p.bail()
		}
	case '*', '&', '%', '@', '`', ',', ']', '}', '#', '!':
		p.bail()
	}
	keyStart, line := p.off, p.line
	v, multi := p.plain(false, ind+1)
	multi = multi || p.line != line // a key and its ':' are on one line
	if p.peek() == ':' && p.blankz(p.off+1) {
		if where == afterColon || (t.name != "" && !t.nextLine) || multi || p.off-keyStart > 1000 {
			p.bail()
		}
		return p.wrap(p.blockMap(col, pos, v, true, depth), t, pos)
	}
	return p.scalar(v, false, false, t, pos)
}

// scalar makes the node of a scalar value: quoted for a quoted or block
// scalar, sqdq for a single- or double-quoted one; pos is where the value
// starts.
func (p *yfast) scalar(v string, quoted, sqdq bool, t yTag, pos Pos) *Node {
	switch {
	case t.name == "":
		k, val, _ := typeScalar("", quoted, v)
		n := p.a.node(k, val, pos)
		n.adopt()
		return n
	case t.long == "":
		k, val, msg := typeScalar(t.name, quoted, v)
		if msg != "" {
			p.bail()
		}
		n := p.a.node(k, val, t.pos)
		n.adopt()
		return n
	}
	k, val, _ := typeScalar("", quoted, v)
	inner := p.a.node(k, val, t.contentPos(pos))
	inner.adopt()
	return longForm(p.a, t.name, t.long, t.pos, inner, sqdq)
}

// wrap applies a tag to a collection: a short form becomes its call.
func (p *yfast) wrap(n *Node, t yTag, pos Pos) *Node {
	switch {
	case t.name == "":
		return n
	case t.long == "":
		p.bail() // !!str on a collection, or !!seq and !!map: the library's
	}
	n.Pos = t.contentPos(pos)
	return longForm(p.a, t.name, t.long, t.pos, n, false)
}

// blockKey reads the key of a block mapping entry at p.off and leaves p.off
// on its ':'.
func (p *yfast) blockKey(col int) (string, bool) {
	start := p.off
	var key string
	plain := false
	switch c := p.peek(); c {
	case '"', '\'':
		line := p.line
		key = p.quoted()
		if p.line != line {
			p.bail()
		}
		p.skipSpaces()
	case '*', '&', '?', ':', '%', '@', '`', ',', '[', ']', '{', '}', '#', '!', '|', '>', '-':
		if c != '-' || p.blankz(p.off+1) {
			p.bail()
		}
		fallthrough
	default:
		line := p.line
		key, _ = p.plain(false, col+1)
		if p.line != line {
			p.bail() // a key and its ':' are on one line
		}
		plain = true
	}
	if !(p.peek() == ':' && p.blankz(p.off+1)) || p.off-start > 1000 {
		p.bail()
	}
	return key, plain
}

// blockMap parses a block mapping at column col whose first key (key,
// plain or quoted) has been read; p.off is on the key's ':'.
func (p *yfast) blockMap(col int, pos Pos, key string, plainKey bool, depth int) *Node {
	n := p.a.node(Map, "", pos)
	buf := p.fieldBuf(depth)
	var set map[string]struct{}
	var flags treeFlags
	keyPos := pos
	for {
		if (plainKey && key == "<<") || dupKey(buf, key, &set) {
			p.bail() // a merge key, or a duplicate: the library's
		}
		p.off++ // ':'
		p.skipSpaces()
		var v *Node
		if p.atLineEnd() {
			p.skipToContent()
			if p.eof() {
				p.bail()
			}
			switch nc := p.column(p.off); {
			case nc > col:
				v = p.blockNode(col, atLineStart, depth+1)
			case nc == col && p.peek() == '-' && p.blankz(p.off+1):
				v = p.blockSeq(col, depth+1, true)
			default:
				p.bail() // an empty value
			}
		} else {
			v = p.blockNode(col, afterColon, depth+1)
		}
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags | keyFlags(key)
		buf = append(buf, Field{Key: key, KeyPos: keyPos, Value: v})
		p.skipToContent()
		if p.eof() {
			break
		}
		nc := p.column(p.off)
		if nc < col {
			break
		}
		if nc > col || p.off != p.lineStart+nc {
			p.bail()
		}
		keyPos = p.pos()
		key, plainKey = p.blockKey(col)
	}
	p.fields[depth] = buf[:0]
	n.Fields = p.a.fieldList(buf)
	n.finish(flags)
	return n
}

// blockSeq parses a block sequence whose first '-' is at p.off, at column
// col. An indentless sequence (a mapping value written at its key's
// column) ends at the next key.
func (p *yfast) blockSeq(col, depth int, indentless bool) *Node {
	if depth > yMaxDepth {
		p.bail()
	}
	n := p.a.node(List, "", p.pos())
	buf := p.itemBuf(depth)
	var flags treeFlags
	for {
		p.off++ // '-'
		p.skipSpaces()
		var v *Node
		if p.atLineEnd() {
			p.skipToContent()
			if p.eof() || p.column(p.off) <= col {
				p.bail() // an empty entry
			}
			v = p.blockNode(col, atLineStart, depth+1)
		} else {
			v = p.blockNode(col, afterDash, depth+1)
		}
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags
		buf = append(buf, v)
		p.skipToContent()
		if p.eof() {
			break
		}
		nc := p.column(p.off)
		if nc < col {
			break
		}
		if nc > col || p.off != p.lineStart+nc {
			p.bail()
		}
		if p.peek() == '-' && p.blankz(p.off+1) {
			continue
		}
		if indentless {
			break
		}
		p.bail()
	}
	p.items[depth] = buf[:0]
	n.Items = p.a.itemList(buf)
	n.finish(flags)
	return n
}
