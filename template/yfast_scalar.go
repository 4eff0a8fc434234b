package template

import (
	"strings"
	"unicode/utf8"
)

// The scalars of the fast path. Each follows the YAML library's scanner
// (go.yaml.in/yaml/v4, internal/libyaml/scanner.go) step by step, for the characters the
// fast path lets through (no tabs, no line breaks other than '\n'), so that
// folding, escapes and chomping give the same values. Values are copied
// into the arena's text blocks; only folded or escaped values are built in
// a scratch buffer first.

// plainBlock and plainFlow mark the bytes that can neither end a plain
// scalar nor start a run of blanks, in block and flow context (bytes of
// UTF-8 sequences are ordinary: every indicator is ASCII).
var plainBlock, plainFlow = func() (b, f [256]bool) {
	for c := 0; c < 256; c++ {
		b[c] = c != ' ' && c != '\n' && c != ':'
		f[c] = b[c] && !strings.ContainsRune(",?[]{}", rune(c))
	}
	return b, f
}()

// plain reads a plain scalar at p.off. flow tells flow context; indent is
// the column a continuation line must reach in block context (the
// enclosing block collection's column + 1). It returns the value and
// whether it spans lines. p.off ends at the next token: after the blanks
// and line breaks that follow the value.
func (p *yfast) plain(flow bool, indent int) (string, bool) {
	if v, ok := p.plainRun(flow, indent); ok {
		return v, false
	}
	src := p.src
	start := p.off
	end := p.off // end of the value's last run
	i := p.off
	multi := false
	var sb []byte
	leadingBlanks := false
	breaks := 0 // line breaks after the first one, while leadingBlanks
	spaces := 0 // blanks between runs of one line
	for {
		if i == p.lineStart && p.docMarker(i) {
			break
		}
		if i < len(src) && src[i] == '#' {
			break
		}
		for i < len(src) && src[i] != ' ' && src[i] != '\n' {
			c := src[i]
			if c == ':' && p.blankz(i+1) {
				break
			}
			if flow && (c == ',' || c == '?' || c == '[' || c == ']' || c == '{' || c == '}') {
				break
			}
			if leadingBlanks || spaces > 0 {
				if leadingBlanks {
					if !multi {
						multi = true
						sb = append(p.sb[:0], src[start:end]...)
					}
					if breaks == 0 {
						sb = append(sb, ' ')
					} else {
						for ; breaks > 0; breaks-- {
							sb = append(sb, '\n')
						}
					}
					leadingBlanks = false
				} else if multi {
					for ; spaces > 0; spaces-- {
						sb = append(sb, ' ')
					}
				}
				spaces = 0
			}
			// Copy the character and the ordinary ones after it.
			j := i + 1
			if flow {
				for j < len(src) && plainFlow[src[j]] {
					j++
				}
			} else {
				for j < len(src) && plainBlock[src[j]] {
					j++
				}
			}
			if multi {
				sb = append(sb, src[i:j]...)
			}
			i = j
			end = i
		}
		if !(i < len(src) && (src[i] == ' ' || src[i] == '\n')) {
			break
		}
		for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
			if src[i] == ' ' {
				if !leadingBlanks {
					spaces++
				}
				i++
				continue
			}
			if !leadingBlanks {
				spaces = 0
				leadingBlanks = true
			} else {
				breaks++
			}
			i++
			p.newline(i)
		}
		if !flow && leadingBlanks && i-p.lineStart < indent {
			break
		}
	}
	p.off = i
	if end == start {
		p.bail() // an empty plain scalar: not one the fast path makes
	}
	if !multi {
		return p.a.str(src[start:end]), false
	}
	p.sb = sb
	return p.a.text(sb), true
}

// plainRun is plain for the common scalar: one run of ordinary bytes
// ended by ": ", a flow indicator or a line break after which the scalar
// does not go on. It does what plain's loop would do, or nothing (ok is
// false) when the scalar needs that loop.
func (p *yfast) plainRun(flow bool, indent int) (string, bool) {
	src := p.src
	start := p.off
	j := start
	if flow {
		for j < len(src) && plainFlow[src[j]] {
			j++
		}
	} else {
		for j < len(src) && plainBlock[src[j]] {
			j++
		}
	}
	if j == start || (start == p.lineStart && p.docMarker(start)) {
		return "", false
	}
	if j == len(src) {
		p.off = j
		return p.a.str(src[start:j]), true
	}
	switch c := src[j]; {
	case c == ':':
		if !p.blankz(j + 1) {
			return "", false
		}
	case c == '\n':
		if flow {
			return "", false
		}
		// The scalar ends if the next line with content is indented less
		// than indent, is a comment or a document marker.
		line, lineStart := p.line, p.lineStart
		i := j
		for i < len(src) && (src[i] == ' ' || src[i] == '\n') {
			i++
			if src[i-1] == '\n' {
				p.newline(i)
			}
		}
		if i < len(src) && i-p.lineStart >= indent && src[i] != '#' && !(i == p.lineStart && p.docMarker(i)) {
			p.line, p.lineStart = line, lineStart // it goes on: plain's loop
			return "", false
		}
		p.off = i
		return p.a.str(src[start:j]), true
	case c == ' ':
		return "", false
	}
	// A flow indicator.
	p.off = j
	return p.a.str(src[start:j]), true
}

// quotedSingle and quotedDouble mark the bytes a quoted scalar holds as
// they are, on one line.
var quotedSingle, quotedDouble = func() (s, d [256]bool) {
	for c := 0; c < 256; c++ {
		s[c] = c != '\n' && c != '\''
		d[c] = c != '\n' && c != '"' && c != '\\'
	}
	return s, d
}()

// quoted reads a single- or double-quoted scalar at p.off and returns its
// value; p.off ends after the closing quote.
func (p *yfast) quoted() string {
	src := p.src
	single := src[p.off] == '\''
	p.off++
	start := p.off
	// Most quoted scalars are one line without escapes.
	i := start
	if single {
		for i < len(src) && quotedSingle[src[i]] {
			i++
		}
	} else {
		for i < len(src) && quotedDouble[src[i]] {
			i++
		}
	}
	if i < len(src) && src[i] != '\n' && src[i] != '\\' && !(single && i+1 < len(src) && src[i+1] == '\'') {
		p.off = i + 1
		return p.a.text(src[start:i])
	}
	return p.quotedSlow(single)
}

// quotedSlow is quoted for scalars with escapes or line breaks.
func (p *yfast) quotedSlow(single bool) string {
	src := p.src
	sb := p.sb[:0]
	leadingBreak := false // the first line break of a run of blanks was a real one
	breaks := 0
	spaces := 0
	for {
		if p.off == p.lineStart && p.docMarker(p.off) {
			p.bail()
		}
		if p.off >= len(src) {
			p.bail()
		}
		leadingBlanks := false
		for !p.blankz(p.off) {
			c := src[p.off]
			switch {
			case single && c == '\'' && p.off+1 < len(src) && src[p.off+1] == '\'':
				sb = append(sb, '\'')
				p.off += 2
				continue
			case single && c == '\'', !single && c == '"':
			case !single && c == '\\' && p.off+1 < len(src) && src[p.off+1] == '\n':
				p.off += 2
				p.newline(p.off)
				leadingBlanks = true
			case !single && c == '\\':
				sb = p.escape(sb)
				continue
			default:
				w := 1
				if c >= utf8.RuneSelf {
					_, w = utf8.DecodeRune(src[p.off:])
				}
				sb = append(sb, src[p.off:p.off+w]...)
				p.off += w
				continue
			}
			break
		}
		if p.off >= len(src) {
			p.bail()
		}
		if c := src[p.off]; (single && c == '\'') || (!single && c == '"') {
			break
		}
		for p.off < len(src) && (src[p.off] == ' ' || src[p.off] == '\n') {
			if src[p.off] == ' ' {
				if !leadingBlanks {
					spaces++
				}
				p.off++
				continue
			}
			if !leadingBlanks {
				spaces = 0
				leadingBreak = true
				leadingBlanks = true
			} else {
				breaks++
			}
			p.off++
			p.newline(p.off)
		}
		if leadingBlanks {
			if leadingBreak {
				if breaks == 0 {
					sb = append(sb, ' ')
				}
			}
			for ; breaks > 0; breaks-- {
				sb = append(sb, '\n')
			}
			leadingBreak = false
		} else {
			for ; spaces > 0; spaces-- {
				sb = append(sb, ' ')
			}
		}
	}
	p.off++ // the closing quote
	p.sb = sb
	return p.a.text(sb)
}

// escape appends the character of the escape at p.off (a backslash) to sb.
func (p *yfast) escape(sb []byte) []byte {
	src := p.src
	if p.off+1 >= len(src) {
		p.bail()
	}
	n := 0
	switch src[p.off+1] {
	case '0':
		sb = append(sb, 0)
	case 'a':
		sb = append(sb, '\x07')
	case 'b':
		sb = append(sb, '\x08')
	case 't':
		sb = append(sb, '\x09')
	case 'n':
		sb = append(sb, '\x0A')
	case 'v':
		sb = append(sb, '\x0B')
	case 'f':
		sb = append(sb, '\x0C')
	case 'r':
		sb = append(sb, '\x0D')
	case 'e':
		sb = append(sb, '\x1B')
	case ' ':
		sb = append(sb, ' ')
	case '"':
		sb = append(sb, '"')
	case '\'':
		sb = append(sb, '\'')
	case '\\':
		sb = append(sb, '\\')
	case 'N':
		sb = append(sb, "\u0085"...)
	case '_':
		sb = append(sb, "\u00a0"...)
	case 'L':
		sb = append(sb, "\u2028"...)
	case 'P':
		sb = append(sb, "\u2029"...)
	case 'x':
		n = 2
	case 'u':
		n = 4
	case 'U':
		n = 8
	default:
		p.bail()
	}
	p.off += 2
	if n == 0 {
		return sb
	}
	v := 0
	for k := 0; k < n; k++ {
		if p.off+k >= len(src) {
			p.bail()
		}
		d := hexDigit(src[p.off+k])
		if d < 0 {
			p.bail()
		}
		v = v<<4 + d
	}
	if (v >= 0xD800 && v <= 0xDFFF) || v > 0x10FFFF {
		p.bail()
	}
	p.off += n
	return utf8.AppendRune(sb, rune(v))
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
