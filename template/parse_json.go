package template

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of a template body. Real templates nest a few
// dozen levels at most; the bound keeps a hostile body from exhausting the
// stack.
const maxDepth = 512

// jsonParser is a small JSON parser that keeps the position of every value.
// CloudFormation reports a malformed JSON template as
// "Template format error: JSON not well-formed. (line L, column C)".
//
// It is a byte-level scanner that allocates nothing per value: nodes,
// member and item lists and the text of strings and numbers come from an
// arena (a string with escapes is built on its own).
// Positions come from offsets: newlines can only occur between tokens, so the
// parser keeps the line number and the offset where the line starts, and the
// column is the distance from there in characters (UTF-8 continuation bytes,
// which only strings hold, are counted as they are scanned).
type jsonParser struct {
	file string
	src  []byte
	off  int

	line      int // line of src[off], 1-based
	lineStart int // offset of the first byte of the line
	cont      int // UTF-8 continuation bytes between lineStart and off

	a      *arena
	fields [][]Field // scratch, by depth
	items  [][]*Node // scratch, by depth
}

// syntaxError is a malformed body: the message AWS gives, at a position.
type syntaxError struct {
	pos    Pos
	detail string
}

func parseJSON(file string, src []byte) (root *Node, err *Error) {
	p := &jsonParser{file: file, src: src, line: 1, a: jsonArena(src)}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxError)
			if !ok {
				panic(r)
			}
			root = nil
			err = &Error{
				File: file, Line: se.pos.Line, Col: se.pos.Col,
				Message: fmt.Sprintf("Template format error: JSON not well-formed. (line %d, column %d)", se.pos.Line, se.pos.Col),
				Detail:  se.detail,
			}
		}
	}()
	p.skipSpace()
	root = p.value(0)
	p.skipSpace()
	if p.off < len(p.src) {
		p.fail("unexpected content after the template")
	}
	return root, nil
}

// pos is the position of src[off] on the happy path, where every byte
// before off on its line has been scanned.
// jsonArena sizes an arena for a JSON body: a value follows a ':' (a
// member), a '[' or a ',' (an item), and every node but the root is one
// of them. Strings hold more of these characters; the factors (those of
// real templates) correct for them.
func jsonArena(src []byte) *arena {
	colons := bytes.Count(src, []byte{':'})
	items := bytes.Count(src, []byte{','}) + bytes.Count(src, []byte{'['})
	fields, items := colons*55/100, items*65/100
	return newArena(len(src), fields+items+1, fields, items)
}

func (p *jsonParser) pos() Pos { return Pos{p.line, p.off - p.lineStart - p.cont + 1} }

func (p *jsonParser) fail(format string, args ...any) {
	panic(syntaxError{pos: offsetPos(p.src, p.off), detail: fmt.Sprintf(format, args...)})
}

// offsetPos computes the position of src[off] from scratch: lines end at
// '\n', and a column counts every byte that is not a UTF-8 continuation
// byte. Errors use it, so their positions do not depend on how far the
// scanner's bookkeeping got.
func offsetPos(src []byte, off int) Pos {
	off = min(off, len(src))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			start = i + 1
		}
	}
	col := 1
	for _, b := range src[start:off] {
		if b&0xC0 != 0x80 {
			col++
		}
	}
	return Pos{line, col}
}

func (p *jsonParser) skipSpace() {
	src := p.src
	i := p.off
	if i >= len(src) || src[i] > ' ' {
		p.off = i
		return // most calls: no blank at all
	}
	for i < len(src) {
		switch src[i] {
		case ' ':
			i = spaceRun(src, i)
		case '\t', '\r':
			i++
		case '\n':
			i++
			p.line++
			p.lineStart = i
			p.cont = 0
		default:
			p.off = i
			return
		}
	}
	p.off = i
}

func (p *jsonParser) value(depth int) *Node {
	if depth > maxDepth {
		p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.off >= len(p.src) {
		p.fail("unexpected end of input")
	}
	start := p.pos()
	var n *Node
	switch c := p.src[p.off]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		n = p.a.node(String, p.str(false), start)
	case c == '-' || (c >= '0' && c <= '9'):
		n = p.a.node(Number, p.number(), start)
	case c == 't':
		p.literal("true")
		n = p.a.node(Bool, "true", start)
	case c == 'f':
		p.literal("false")
		n = p.a.node(Bool, "false", start)
	case c == 'n':
		p.literal("null")
		n = p.a.node(Null, "", start)
	default:
		r, _ := utf8.DecodeRune(p.src[p.off:])
		p.fail("unexpected character %q", r)
	}
	n.adopt()
	return n
}

func (p *jsonParser) literal(word string) {
	end := p.off + len(word)
	if end > len(p.src) || string(p.src[p.off:end]) != word {
		p.fail("unrecognized token")
	}
	p.off = end
}

func (p *jsonParser) object(depth int) *Node {
	n := p.a.node(Map, "", p.pos())
	p.off++ // {
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == '}' {
		p.off++
		return n
	}
	for len(p.fields) <= depth {
		p.fields = append(p.fields, nil)
	}
	buf := p.fields[depth][:0]
	var flags treeFlags
	var seen map[string]bool
	for {
		p.skipSpace()
		if p.off >= len(p.src) {
			p.fail("unexpected end of input in an object")
		}
		if p.src[p.off] != '"' {
			p.fail("expected a double-quoted member name")
		}
		keyPos := p.pos()
		key := p.str(true)
		if len(buf) >= 8 && seen == nil {
			seen = make(map[string]bool, 16)
			for _, f := range buf {
				seen[f.Key] = true
			}
		}
		if dup := seen[key] || (seen == nil && hasKey(buf, key)); dup {
			panic(syntaxError{pos: keyPos, detail: fmt.Sprintf("duplicate member %q", key)})
		}
		if seen != nil {
			seen[key] = true
		}
		p.skipSpace()
		if p.off >= len(p.src) || p.src[p.off] != ':' {
			p.fail("expected ':' after member name %q", key)
		}
		p.off++
		p.skipSpace()
		v := p.value(depth + 1)
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags | keyFlags(key)
		buf = append(buf, Field{Key: key, KeyPos: keyPos, Value: v})
		p.skipSpace()
		if p.off >= len(p.src) {
			p.fail("unexpected end of input in an object")
		}
		switch p.src[p.off] {
		case ',':
			p.off++
		case '}':
			p.off++
			n.Fields = p.a.fieldList(buf)
			p.fields[depth] = buf[:0]
			n.finish(flags)
			return n
		default:
			p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *jsonParser) array(depth int) *Node {
	n := p.a.node(List, "", p.pos())
	p.off++ // [
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == ']' {
		p.off++
		return n
	}
	for len(p.items) <= depth {
		p.items = append(p.items, nil)
	}
	buf := p.items[depth][:0]
	var flags treeFlags
	for {
		p.skipSpace()
		v := p.value(depth + 1)
		v.parent, v.index = n, int32(len(buf))
		flags |= v.flags
		buf = append(buf, v)
		p.skipSpace()
		if p.off >= len(p.src) {
			p.fail("unexpected end of input in an array")
		}
		switch p.src[p.off] {
		case ',':
			p.off++
		case ']':
			p.off++
			n.Items = p.a.itemList(buf)
			p.items[depth] = buf[:0]
			n.finish(flags)
			return n
		default:
			p.fail("expected ',' or ']' in an array")
		}
	}
}

// spaceRun returns the offset of the first byte at or after i that is not
// a space, eight bytes at a time: indentation comes in runs.
func spaceRun(src []byte, i int) int {
	for i+8 <= len(src) {
		x := binary.LittleEndian.Uint64(src[i:i+8]) ^ 0x2020202020202020
		if x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	return i
}

// plainRun skips, eight bytes at a time, the bytes of a string that need
// no attention: it stops at the first quote, backslash, control or
// non-ASCII byte, or in the last eight bytes of src (the caller goes on
// byte by byte from there).
func plainRun(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(src) {
		w := binary.LittleEndian.Uint64(src[i : i+8])
		q := w ^ 0x2222222222222222 // '"' becomes 0
		b := w ^ 0x5C5C5C5C5C5C5C5C // '\\' becomes 0
		special := (q - ones) &^ q
		special |= (b - ones) &^ b
		special |= w - 0x20*ones // a byte below 0x20 borrows into its high bit
		special |= w             // a byte with its high bit set
		if special &= highs; special != 0 {
			// The lowest flagged byte is exact (no borrow reaches it).
			return i + bits.TrailingZeros64(special)>>3
		}
		i += 8
	}
	return i
}

// strPlain marks the bytes a string holds as they are: printable ASCII
// other than the quote and the backslash.
var strPlain = func() (t [256]bool) {
	for b := 0x20; b < 0x80; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// str reads a double-quoted string and returns its value; a member name
// (key) is interned.
func (p *jsonParser) str(key bool) string {
	p.off++ // opening quote
	start := p.off
	src := p.src
	i := p.off
	wide := false
	for {
		i = plainRun(src, i)
		for i < len(src) && strPlain[src[i]] {
			i++
		}
		if i >= len(src) || src[i] < 0x80 {
			break
		}
		wide = true
		i++
	}
	if i < len(src) && src[i] == '"' {
		p.off = i
		if wide {
			if !utf8.Valid(src[start:i]) {
				p.fail("invalid UTF-8 in a string")
			}
			p.cont += continuationBytes(src[start:i])
		}
		p.off++
		if key {
			return p.a.str(src[start:i])
		}
		return p.a.text(src[start:i])
	}
	p.off = i
	return p.escaped(start)
}

// escaped reads the rest of a string that holds an escape (or is
// malformed), from start, the offset after the opening quote.
func (p *jsonParser) escaped(start int) string {
	var sb strings.Builder
	sb.Write(p.src[start:p.off])
	defer func() { p.cont += continuationBytes(p.src[start:min(p.off, len(p.src))]) }()
	for {
		if p.off >= len(p.src) {
			p.fail("unterminated string")
		}
		b := p.src[p.off]
		switch {
		case b == '"':
			p.off++
			s := sb.String()
			if !utf8.ValidString(s) {
				p.fail("invalid UTF-8 in a string")
			}
			return s
		case b == '\\':
			p.off++
			if p.off >= len(p.src) {
				p.fail("unterminated string")
			}
			e := p.src[p.off]
			switch e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r := p.hex4()
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.off+2 < len(p.src) && p.src[p.off+1] == '\\' && p.src[p.off+2] == 'u' {
						p.off += 2
						r2 = p.hex4()
					}
					r = utf16.DecodeRune(r, r2)
				}
				sb.WriteRune(r)
			default:
				p.fail("invalid escape \\%c", e)
			}
			p.off++
		case b < 0x20:
			p.fail("control character in a string")
		default:
			sb.WriteByte(b)
			p.off++
		}
	}
}

func continuationBytes(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 == 0x80 {
			n++
		}
	}
	return n
}

// hex4 reads the four hex digits after \u; it leaves off on the last one.
func (p *jsonParser) hex4() rune {
	if p.off+4 >= len(p.src) {
		p.fail("truncated \\u escape")
	}
	v := 0
	for _, c := range p.src[p.off+1 : p.off+5] {
		d := hexDigit(c)
		if d < 0 {
			p.fail("invalid \\u escape")
		}
		v = v<<4 | d
	}
	p.off += 4
	return rune(v)
}

// number reads a JSON number and returns its literal.
func (p *jsonParser) number() string {
	src := p.src
	start := p.off
	i := p.off
	if src[i] == '-' {
		i++
	}
	digits := func() int {
		s := i
		for i < len(src) && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i - s
	}
	fail := func(msg string) {
		p.off = i
		p.fail("%s", msg)
	}
	if i < len(src) && src[i] == '0' {
		i++
		if i < len(src) && src[i] >= '0' && src[i] <= '9' {
			fail("leading zero in a number")
		}
	} else if digits() == 0 {
		fail("expected a digit")
	}
	if i < len(src) && src[i] == '.' {
		i++
		if digits() == 0 {
			fail("expected a digit after the decimal point")
		}
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		if digits() == 0 {
			fail("expected a digit in the exponent")
		}
	}
	p.off = i
	return p.a.text(src[start:i])
}

func hasKey(fields []Field, key string) bool {
	for i := range fields {
		if fields[i].Key == key {
			return true
		}
	}
	return false
}
