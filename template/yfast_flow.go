package template

// The flow collections of the fast path: [a, b] and {k: v}, over one line
// or several.

// flowCollection parses the flow sequence or mapping at p.off. ind is the
// column of the enclosing block collection: every line of the collection
// must be indented more (the fast path's rule; the library is laxer).
func (p *yfast) flowCollection(ind, depth int) *Node {
	if depth > yMaxDepth {
		p.bail()
	}
	if p.peek() == '[' {
		return p.flowSeq(ind, depth)
	}
	return p.flowMap(ind, depth)
}

func (p *yfast) flowSeq(ind, depth int) *Node {
	n := p.a.node(List, "", p.pos())
	p.off++ // '['
	buf := p.itemBuf(depth)
	var flags treeFlags
	for {
		p.flowSpace(ind)
		if p.peek() == ']' {
			p.off++
			break
		}
		v := p.flowNode(ind, depth+1)
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags
		buf = append(buf, v)
		p.flowSpace(ind)
		c := p.peek()
		p.off++
		if c == ']' {
			break
		}
		if c != ',' {
			p.bail()
		}
	}
	p.items[depth] = buf[:0]
	n.Items = p.a.itemList(buf)
	n.finish(flags)
	return n
}

func (p *yfast) flowMap(ind, depth int) *Node {
	n := p.a.node(Map, "", p.pos())
	p.off++ // '{'
	buf := p.fieldBuf(depth)
	var set map[string]struct{}
	var flags treeFlags
	for {
		p.flowSpace(ind)
		if p.peek() == '}' {
			p.off++
			break
		}
		keyPos, line, start := p.pos(), p.line, p.off
		var key string
		plain := false
		switch c := p.peek(); c {
		case '"', '\'':
			key = p.quoted()
		case '*', '&', '?', ':', '%', '@', '`', ',', '[', ']', '{', '}', '#', '!', '|', '>', 0:
			p.bail()
		default:
			if c == '-' && p.flowIndicatorOrBlank(p.off+1) {
				p.bail()
			}
			var multi bool
			key, multi = p.plain(true, 0)
			if multi {
				p.bail()
			}
			plain = true
		}
		p.flowSpace(ind)
		if p.peek() != ':' || p.line != line || p.off-start > 1000 {
			p.bail()
		}
		p.off++
		p.flowSpace(ind)
		if c := p.peek(); c == ',' || c == '}' {
			p.bail() // an empty value
		}
		v := p.flowNode(ind, depth+1)
		if (plain && key == "<<") || dupKey(buf, key, &set) {
			p.bail()
		}
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags | keyFlags(key)
		buf = append(buf, Field{Key: key, KeyPos: keyPos, Value: v})
		p.flowSpace(ind)
		c := p.peek()
		p.off++
		if c == '}' {
			break
		}
		if c != ',' {
			p.bail()
		}
	}
	p.fields[depth] = buf[:0]
	n.Fields = p.a.fieldList(buf)
	n.finish(flags)
	return n
}

// flowNode parses one entry of a flow collection (or the value of one).
func (p *yfast) flowNode(ind, depth int) *Node {
	if depth > yMaxDepth {
		p.bail()
	}
	var t yTag
	if p.peek() == '!' {
		t = p.tag()
		line := p.line
		p.flowSpace(ind)
		t.nextLine = p.line != line
	}
	pos := p.pos()
	switch c := p.peek(); c {
	case '[', '{':
		return p.wrap(p.flowCollection(ind, depth), t, pos)
	case '"', '\'':
		v := p.quoted()
		return p.scalar(v, true, true, t, pos)
	case '*', '&', '?', ':', '%', '@', '`', ',', ']', '}', '#', '!', '|', '>', 0:
		p.bail()
	case '-':
		if p.flowIndicatorOrBlank(p.off + 1) {
			p.bail()
		}
	}
	v, _ := p.plain(true, 0)
	return p.scalar(v, false, false, t, pos)
}

// flowIndicatorOrBlank tells whether src[i] is a blank, the end, or a flow
// indicator.
func (p *yfast) flowIndicatorOrBlank(i int) bool {
	if p.blankz(i) {
		return true
	}
	switch p.src[i] {
	case ',', '[', ']', '{', '}', '#':
		return true
	}
	return false
}

// flowSpace skips blanks, line breaks and comments inside a flow
// collection. Content that starts a line must be indented more than ind
// and must not be a document marker.
func (p *yfast) flowSpace(ind int) {
	src := p.src
	for p.off < len(src) {
		switch src[p.off] {
		case ' ':
			p.off++
			continue
		case '\n':
			p.off++
			p.newline(p.off)
			continue
		case '#':
			if p.off > 0 && src[p.off-1] != ' ' && src[p.off-1] != '\n' {
				p.bail()
			}
			for p.off < len(src) && src[p.off] != '\n' {
				p.off++
			}
			continue
		}
		break
	}
	// Is this the first content of its line?
	for i := p.off - 1; i >= p.lineStart; i-- {
		if src[i] != ' ' {
			return
		}
	}
	if p.off-p.lineStart <= ind || (p.off == p.lineStart && p.docMarker(p.off)) {
		p.bail()
	}
}
