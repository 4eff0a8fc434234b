package template

// The JSON parser as it was before the byte-level rewrite, kept as the
// reference the differential fuzz target (FuzzJSONParser) checks the new one
// against: same trees, same positions, same errors.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of a template body. Real templates nest a few
// dozen levels at most; the bound keeps a hostile body from exhausting the
// stack.

// refJSONParser is a small JSON parser that keeps the position of every value.
// CloudFormation reports a malformed JSON template as
// "Template format error: JSON not well-formed. (line L, column C)".
type refJSONParser struct {
	file string
	src  []byte
	off  int
	line int
	col  int // column of src[off], 1-based, counted in characters

	nodes  refSlab
	fields [][]Field // scratch, by depth
	items  [][]*Node // scratch, by depth
	keys   map[string]string
}

// intern returns one string for the member names a template repeats (Type,
// Properties, Fn::Sub ...).
func (p *refJSONParser) intern(b []byte) string {
	if s, ok := p.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if p.keys == nil {
		p.keys = make(map[string]string, 64)
	}
	if len(p.keys) < 4096 {
		p.keys[s] = s
	}
	return s
}

// refSlab allocates nodes in blocks: a template has many small nodes.
type refSlab struct{ block []Node }

func (s *refSlab) new() *Node {
	if len(s.block) == 0 {
		s.block = make([]Node, 256)
	}
	n := &s.block[0]
	s.block = s.block[1:]
	return n
}

// node returns a new node of a kind at a position.
func (s *refSlab) node(k Kind, value string, pos Pos) *Node {
	n := s.new()
	n.Kind, n.Value, n.Pos = k, value, pos
	return n
}

// refSyntaxError is a malformed body: the message AWS gives, at a position.
type refSyntaxError struct {
	pos    Pos
	detail string
}

func refParseJSON(file string, src []byte) (root *Node, err *Error) {
	p := &refJSONParser{file: file, src: src, line: 1, col: 1}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(refSyntaxError)
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

func (p *refJSONParser) pos() Pos { return Pos{p.line, p.col} }

func (p *refJSONParser) fail(format string, args ...any) {
	panic(refSyntaxError{pos: p.pos(), detail: fmt.Sprintf(format, args...)})
}

// advance moves past one byte, keeping line and column.
func (p *refJSONParser) advance() {
	b := p.src[p.off]
	p.off++
	switch {
	case b == '\n':
		p.line++
		p.col = 1
	case b&0xC0 != 0x80: // not a UTF-8 continuation byte
		p.col++
	}
}

func (p *refJSONParser) skipSpace() {
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\r':
			p.off++
			p.col++
		case '\n':
			p.off++
			p.line++
			p.col = 1
		default:
			return
		}
	}
}

func (p *refJSONParser) value(depth int) *Node {
	if depth > maxDepth {
		p.fail("nesting deeper than %d levels", maxDepth)
	}
	if p.off >= len(p.src) {
		p.fail("unexpected end of input")
	}
	start := p.pos()
	switch c := p.src[p.off]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s := p.str()
		return p.nodes.node(String, s, start)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.nodes.node(Number, p.number(), start)
	case c == 't':
		p.literal("true")
		return p.nodes.node(Bool, "true", start)
	case c == 'f':
		p.literal("false")
		return p.nodes.node(Bool, "false", start)
	case c == 'n':
		p.literal("null")
		return p.nodes.node(Null, "", start)
	default:
		r, _ := utf8.DecodeRune(p.src[p.off:])
		p.fail("unexpected character %q", r)
	}
	return nil
}

func (p *refJSONParser) literal(word string) {
	if !strings.HasPrefix(string(p.src[p.off:min(len(p.src), p.off+len(word))]), word) {
		p.fail("unrecognized token")
	}
	for range word {
		p.advance()
	}
}

func (p *refJSONParser) object(depth int) *Node {
	n := p.nodes.node(Map, "", p.pos())
	p.advance() // {
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == '}' {
		p.advance()
		return n
	}
	for len(p.fields) <= depth {
		p.fields = append(p.fields, nil)
	}
	buf := p.fields[depth][:0]
	defer func() { p.fields[depth] = buf[:0] }()
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
		key := p.strKey(true)
		if len(buf) >= 8 && seen == nil {
			seen = make(map[string]bool, 16)
			for _, f := range buf {
				seen[f.Key] = true
			}
		}
		if dup := seen[key] || (seen == nil && hasKey(buf, key)); dup {
			panic(refSyntaxError{pos: keyPos, detail: fmt.Sprintf("duplicate member %q", key)})
		}
		if seen != nil {
			seen[key] = true
		}
		p.skipSpace()
		if p.off >= len(p.src) || p.src[p.off] != ':' {
			p.fail("expected ':' after member name %q", key)
		}
		p.advance()
		p.skipSpace()
		v := p.value(depth + 1)
		buf = append(buf, Field{Key: key, KeyPos: keyPos, Value: v})
		p.skipSpace()
		if p.off >= len(p.src) {
			p.fail("unexpected end of input in an object")
		}
		switch p.src[p.off] {
		case ',':
			p.advance()
		case '}':
			p.advance()
			n.Fields = append(make([]Field, 0, len(buf)), buf...)
			return n
		default:
			p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *refJSONParser) array(depth int) *Node {
	n := p.nodes.node(List, "", p.pos())
	p.advance() // [
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == ']' {
		p.advance()
		return n
	}
	for len(p.items) <= depth {
		p.items = append(p.items, nil)
	}
	buf := p.items[depth][:0]
	defer func() { p.items[depth] = buf[:0] }()
	for {
		p.skipSpace()
		buf = append(buf, p.value(depth+1))
		p.skipSpace()
		if p.off >= len(p.src) {
			p.fail("unexpected end of input in an array")
		}
		switch p.src[p.off] {
		case ',':
			p.advance()
		case ']':
			p.advance()
			n.Items = append(make([]*Node, 0, len(buf)), buf...)
			return n
		default:
			p.fail("expected ',' or ']' in an array")
		}
	}
}

// str reads a double-quoted string and returns its value.
func (p *refJSONParser) str() string { return p.strKey(false) }

// strKey reads a string; a member name is interned.
func (p *refJSONParser) strKey(key bool) string {
	p.advance() // opening quote
	start := p.off
	// Fast path: no escapes.
	for p.off < len(p.src) {
		b := p.src[p.off]
		if b == '"' {
			raw := p.src[start:p.off]
			if !utf8.Valid(raw) {
				p.fail("invalid UTF-8 in a string")
			}
			var s string
			if key {
				s = p.intern(raw)
			} else {
				s = string(raw)
			}
			p.off++
			p.col++
			return s
		}
		if b == '\\' {
			break
		}
		if b < 0x20 {
			p.fail("control character in a string")
		}
		p.off++
		if b&0xC0 != 0x80 {
			p.col++
		}
	}
	var sb strings.Builder
	sb.Write(p.src[start:p.off])
	for {
		if p.off >= len(p.src) {
			p.fail("unterminated string")
		}
		b := p.src[p.off]
		switch {
		case b == '"':
			p.advance()
			s := sb.String()
			if !utf8.ValidString(s) {
				p.fail("invalid UTF-8 in a string")
			}
			return s
		case b == '\\':
			p.advance()
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
						p.advance()
						p.advance()
						r2 = p.hex4()
					}
					r = utf16.DecodeRune(r, r2)
				}
				sb.WriteRune(r)
			default:
				p.fail("invalid escape \\%c", e)
			}
			p.advance()
		case b < 0x20:
			p.fail("control character in a string")
		default:
			sb.WriteByte(b)
			p.advance()
		}
	}
}

// hex4 reads the four hex digits after \u; it leaves off on the last one.
func (p *refJSONParser) hex4() rune {
	if p.off+4 >= len(p.src) {
		p.fail("truncated \\u escape")
	}
	v, err := strconv.ParseUint(string(p.src[p.off+1:p.off+5]), 16, 32)
	if err != nil {
		p.fail("invalid \\u escape")
	}
	for i := 0; i < 4; i++ {
		p.advance()
	}
	return rune(v)
}

// number reads a JSON number and returns its literal.
func (p *refJSONParser) number() string {
	start := p.off
	if p.src[p.off] == '-' {
		p.advance()
	}
	digits := func() int {
		n := 0
		for p.off < len(p.src) && p.src[p.off] >= '0' && p.src[p.off] <= '9' {
			p.advance()
			n++
		}
		return n
	}
	if p.off < len(p.src) && p.src[p.off] == '0' {
		p.advance()
		if p.off < len(p.src) && p.src[p.off] >= '0' && p.src[p.off] <= '9' {
			p.fail("leading zero in a number")
		}
	} else if digits() == 0 {
		p.fail("expected a digit")
	}
	if p.off < len(p.src) && p.src[p.off] == '.' {
		p.advance()
		if digits() == 0 {
			p.fail("expected a digit after the decimal point")
		}
	}
	if p.off < len(p.src) && (p.src[p.off] == 'e' || p.src[p.off] == 'E') {
		p.advance()
		if p.off < len(p.src) && (p.src[p.off] == '+' || p.src[p.off] == '-') {
			p.advance()
		}
		if digits() == 0 {
			p.fail("expected a digit in the exponent")
		}
	}
	return string(p.src[start:p.off])
}
