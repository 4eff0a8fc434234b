package template

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// yfast is the fast path of the YAML reader: a parser for the YAML that
// CloudFormation templates are written in, which builds the template's own
// tree directly (no intermediate YAML node tree) with the same kinds,
// values, tags and positions as the library's path (parse_yaml.go) gives.
//
// It covers block mappings and sequences (including compact `- key: v`
// entries and sequences indented like their key), plain scalars over one or
// more lines, single- and double-quoted scalars with every escape, literal
// and folded block scalars with chomping and indentation indicators, flow
// sequences and mappings over one or more lines, comments, a leading `---`,
// short-form tags (!Ref, !GetAtt ...) and the standard !!str, !!int,
// !!float, !!bool, !!null, !!binary and !!timestamp tags on scalars.
//
// Whenever it meets anything else, or anything it is not certain about, it
// bails out and the caller parses the body with the library instead:
// anchors, aliases and merge keys; complex (`?`) keys and keys that are
// tagged, quoted over several lines or flow collections; directives,
// several documents, `...`; tabs, carriage returns and characters YAML
// treats specially (NEL, LS, PS, BOM, controls); empty values (a tag alone,
// as in `AvailabilityZones: !GetAZs`, is taken); a block scalar or a flow
// line less indented than the fast path expects; duplicate keys; unknown
// tags; and every malformed body, so that a YAML error is always the
// library's, with its position. Correctness never depends on the fast path:
// FuzzYAMLFastPath checks that it gives the library path's tree or bails.
type yfast struct {
	src []byte
	off int

	line      int // line of src[off], 1-based
	lineStart int // offset of the first byte of that line
	ascii     bool

	// A column cache for bodies that are not ASCII: the column of
	// ccOff, on the line that starts at ccStart.
	ccStart, ccOff, ccCol int

	a      *arena
	fields [][]Field // scratch, by depth
	items  [][]*Node // scratch, by depth
	sb     []byte    // scratch for values that are not substrings
}

// yBail is the panic value with which the fast path gives up.
type yBail struct{}

// yMaxDepth bounds the nesting the fast path takes; deeper bodies go to the
// library's path, which reports maxDepth.
const yMaxDepth = 256

// parseYAMLFast parses src on the fast path; ok is false when it bailed out.
func parseYAMLFast(src []byte) (root *Node, ok bool) {
	ascii, clean := yamlPrecheck(src)
	if !clean {
		return nil, false
	}
	p := &yfast{src: src, line: 1, ascii: ascii, a: yamlArena(src)}
	defer func() {
		if r := recover(); r != nil {
			if _, bail := r.(yBail); !bail {
				panic(r)
			}
			root, ok = nil, false
		}
	}()
	return p.document(), true
}

// yamlPrecheck tells whether every character of src is one the fast path
// takes (valid UTF-8; no tab, carriage return, control, NEL, LS, PS, BOM or
// noncharacter), and whether src is ASCII.
func yamlPrecheck(src []byte) (ascii, ok bool) {
	ascii = true
	i := 0
	for i < len(src) {
		// Eight bytes at a time while they are printable ASCII or line
		// breaks (each test is exact for every byte: no carries).
		for ; i+8 <= len(src); i += 8 {
			w := binary.LittleEndian.Uint64(src[i : i+8])
			const lows, highs = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
			control := ^((w & lows) + 0x6060606060606060) // high bit: below 0x20
			nl := w ^ 0x0A0A0A0A0A0A0A0A
			nl = ^(((nl & lows) + lows) | nl) // high bit: a line break
			del := w ^ lows
			del = ^(((del & lows) + lows) | del) // high bit: DEL
			if (w|(control&^nl)|del)&highs != 0 {
				break
			}
		}
		if i >= len(src) {
			break
		}
		b := src[i]
		if b < utf8.RuneSelf {
			if (b < 0x20 && b != '\n') || b == 0x7F {
				return false, false
			}
			i++
			continue
		}
		ascii = false
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError || r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF ||
			(r >= 0xD800 && r < 0xE000) || r == 0xFFFE || r == 0xFFFF || r > 0x10FFFF {
			return false, false
		}
		i += size
	}
	return ascii, true
}

// yamlArena sizes an arena for a YAML body: a member follows a ':', an
// item a '-' or a ',', and a short-form tag ('!') adds a member (and
// !GetAtt two items); every node but the root is a member or an item.
// Other uses of these characters make the counts upper bounds, which the
// factors (those of real templates) correct.
func yamlArena(src []byte) *arena {
	colons, bangs := bytes.Count(src, []byte{':'}), bytes.Count(src, []byte{'!'})
	items := bytes.Count(src, []byte{'-'}) + bytes.Count(src, []byte{','}) + 2*bangs
	fields, items := (colons+bangs)*3/4, items/2
	return newArena(len(src), fields+items+1, fields, items)
}

func (p *yfast) bail() { panic(yBail{}) }

func (p *yfast) eof() bool { return p.off >= len(p.src) }

func (p *yfast) peek() byte {
	if p.off < len(p.src) {
		return p.src[p.off]
	}
	return 0
}

// blankz tells whether src[i] is a space, a line break or the end.
func (p *yfast) blankz(i int) bool {
	return i >= len(p.src) || p.src[i] == ' ' || p.src[i] == '\n'
}

// newline records that the line break at src[i-1] was passed.
func (p *yfast) newline(i int) {
	p.line++
	p.lineStart = i
}

// column returns the 0-based column of src[i] on the current line, in
// characters.
func (p *yfast) column(i int) int {
	if p.ascii {
		return i - p.lineStart
	}
	return p.wideColumn(i)
}

func (p *yfast) wideColumn(i int) int {
	if p.ccStart != p.lineStart || p.ccOff > i {
		p.ccStart, p.ccOff, p.ccCol = p.lineStart, p.lineStart, 0
	}
	p.ccCol += utf8.RuneCount(p.src[p.ccOff:i])
	p.ccOff = i
	return p.ccCol
}

// pos returns the position of src[off].
func (p *yfast) pos() Pos { return Pos{p.line, p.column(p.off) + 1} }

func (p *yfast) skipSpaces() {
	for p.off < len(p.src) && p.src[p.off] == ' ' {
		p.off++
	}
}

// atLineEnd tells whether only a comment or nothing is left on the line
// (after skipSpaces).
func (p *yfast) atLineEnd() bool {
	if p.off >= len(p.src) || p.src[p.off] == '\n' {
		return true
	}
	return p.src[p.off] == '#' && (p.off == 0 || p.src[p.off-1] == ' ' || p.src[p.off-1] == '\n')
}

// endLine requires the rest of the line to be blank or a comment.
func (p *yfast) endLine() {
	p.skipSpaces()
	if !p.atLineEnd() {
		p.bail()
	}
}

// skipToContent skips blanks, comments and line breaks to the next content
// character (or the end). A document marker there ends the fast path.
func (p *yfast) skipToContent() {
	src := p.src
	for p.off < len(src) {
		switch src[p.off] {
		case ' ':
			p.off = spaceRun(src, p.off+1)
		case '#':
			if p.off > 0 && src[p.off-1] != ' ' && src[p.off-1] != '\n' {
				// A comment glued to a token: leave it to the library.
				p.bail()
			}
			if i := bytes.IndexByte(src[p.off:], '\n'); i >= 0 {
				p.off += i
			} else {
				p.off = len(src)
			}
		case '\n':
			p.off++
			p.newline(p.off)
		default:
			if p.off == p.lineStart && p.docMarker(p.off) {
				p.bail()
			}
			return
		}
	}
}

// docMarker tells whether a document marker (--- or ...) starts at i.
func (p *yfast) docMarker(i int) bool {
	s := p.src
	return i+3 <= len(s) && ((s[i] == '-' && s[i+1] == '-' && s[i+2] == '-') ||
		(s[i] == '.' && s[i+1] == '.' && s[i+2] == '.')) && p.blankz(i+3)
}

// document parses the one document of the body: a mapping, perhaps after
// a `---` line.
func (p *yfast) document() *Node {
	for p.off < len(p.src) {
		// Leading blank lines and comments.
		p.skipSpaces()
		if p.atLineEnd() {
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.off++
			}
			if p.off < len(p.src) {
				p.off++
				p.newline(p.off)
			}
			continue
		}
		break
	}
	if p.off == p.lineStart && p.off+3 <= len(p.src) && string(p.src[p.off:p.off+3]) == "---" && p.blankz(p.off+3) {
		p.off += 3
		p.endLine()
	}
	p.skipToContent()
	if p.eof() || p.peek() == '%' {
		p.bail()
	}
	var root *Node
	if c := p.peek(); c == '{' {
		root = p.flowCollection(-1, 0)
		p.endLine()
	} else if c == '!' || c == '[' || c == '-' || c == '|' || c == '>' {
		p.bail()
	} else {
		root = p.blockNode(-1, atLineStart, 0)
	}
	if root.Kind != Map {
		p.bail()
	}
	p.skipToContent()
	if !p.eof() {
		p.bail()
	}
	return root
}

// The scratch lists of one depth.
func (p *yfast) fieldBuf(depth int) []Field {
	for len(p.fields) <= depth {
		p.fields = append(p.fields, nil)
	}
	return p.fields[depth][:0]
}

func (p *yfast) itemBuf(depth int) []*Node {
	for len(p.items) <= depth {
		p.items = append(p.items, nil)
	}
	return p.items[depth][:0]
}

// dupKey tells whether buf already holds key. A map of more than 16 keys
// is checked with a set, built on demand, that dupKey keeps up to date.
func dupKey(buf []Field, key string, set *map[string]struct{}) bool {
	if *set == nil {
		if len(buf) < 16 {
			return hasKey(buf, key)
		}
		*set = make(map[string]struct{}, 2*len(buf))
		for i := range buf {
			(*set)[buf[i].Key] = struct{}{}
		}
	}
	if _, dup := (*set)[key]; dup {
		return true
	}
	(*set)[key] = struct{}{}
	return false
}
