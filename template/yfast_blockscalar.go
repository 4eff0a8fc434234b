package template

// Literal (|) and folded (>) block scalars on the fast path, step by step as
// the YAML library's scanner reads them (yaml_parser_scan_block_scalar).

// blockScalar reads a literal (|) or folded (>) block scalar at p.off; ind
// is the column of the enclosing block collection (-1 at the root). p.off
// ends at the first character of the line that ends it (after its
// indentation) or at the end.
func (p *yfast) blockScalar(ind int) string {
	src := p.src
	literal := src[p.off] == '|'
	p.off++
	chomping, increment := 0, 0
	if c := p.peek(); c == '+' || c == '-' {
		chomping = 1
		if c == '-' {
			chomping = -1
		}
		p.off++
		if c := p.peek(); c >= '0' && c <= '9' {
			increment = int(c - '0')
			p.off++
		}
	} else if c >= '0' && c <= '9' {
		increment = int(c - '0')
		p.off++
		if c := p.peek(); c == '+' || c == '-' {
			chomping = 1
			if c == '-' {
				chomping = -1
			}
			p.off++
		}
	}
	if increment == 0 && p.off > 0 && src[p.off-1] == '0' {
		p.bail() // an indentation indicator of 0
	}
	header := p.off
	p.skipSpaces()
	if p.peek() == '#' {
		if p.off == header {
			p.bail() // a comment must follow a blank: "|#x" is refused
		}
		for p.off < len(src) && src[p.off] != '\n' {
			p.off++
		}
	}
	if p.off < len(src) {
		if src[p.off] != '\n' {
			p.bail()
		}
		p.off++
		p.newline(p.off)
	}
	indent := 0
	if increment > 0 {
		if ind >= 0 {
			indent = ind + increment
		} else {
			indent = increment
		}
	}
	sb := p.sb[:0]
	leadingBreak := false
	breaks := 0
	p.blockBreaks(&indent, &breaks, ind)
	leadingBlank, trailingBlank := false, false
	for p.off < len(src) && p.off-p.lineStart == indent {
		trailingBlank = src[p.off] == ' '
		if !literal && !leadingBlank && !trailingBlank && leadingBreak {
			if breaks == 0 {
				sb = append(sb, ' ')
			}
		} else if leadingBreak {
			sb = append(sb, '\n')
		}
		leadingBreak = false
		for ; breaks > 0; breaks-- {
			sb = append(sb, '\n')
		}
		leadingBlank = src[p.off] == ' '
		start := p.off
		for p.off < len(src) && src[p.off] != '\n' {
			p.off++
		}
		sb = append(sb, src[start:p.off]...)
		if p.off == len(src) {
			// The last line has no line break: the YAML library and PyYAML
			// read what follows it differently ("0\n \n" or "0\n " for
			// "|\n 0\n  "); the library's reading is kept.
			p.bail()
		}
		if p.off < len(src) {
			leadingBreak = true
			p.off++
			p.newline(p.off)
		}
		p.blockBreaks(&indent, &breaks, ind)
	}
	if chomping != -1 && leadingBreak {
		sb = append(sb, '\n')
	}
	if chomping == 1 {
		for ; breaks > 0; breaks-- {
			sb = append(sb, '\n')
		}
	}
	p.sb = sb
	return p.a.text(sb)
}

// blockBreaks eats the indentation and the empty lines before a line of a
// block scalar, counting the line breaks, and settles the indentation of
// the scalar when it is not known yet.
func (p *yfast) blockBreaks(indent, breaks *int, ind int) {
	src := p.src
	maxIndent := 0
	for {
		for (*indent == 0 || p.off-p.lineStart < *indent) && p.off < len(src) && src[p.off] == ' ' {
			p.off++
		}
		if col := p.off - p.lineStart; col > maxIndent {
			maxIndent = col
		}
		if p.off >= len(src) || src[p.off] != '\n' {
			break
		}
		*breaks++
		p.off++
		p.newline(p.off)
	}
	if *indent == 0 {
		*indent = max(maxIndent, ind+1, 1)
	}
}
