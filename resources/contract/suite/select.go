package suite

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseSelect reads a -k expression as pytest does: words joined with
// and, or, not and parentheses; a word matches a test whose name holds it
// (case-insensitively) or that has it as a marker (create, read, update,
// delete, list). "create and not list", "delete_read or update".
func ParseSelect(expr string) (func(name string, markers []string) bool, error) {
	p := &selParser{src: expr}
	p.lex()
	if len(p.toks) == 0 {
		return nil, fmt.Errorf("-k %q: an empty expression; write words joined with and, or, not (-k 'create and not list')", expr)
	}
	m, err := p.or()
	if err == nil && p.pos < len(p.toks) {
		err = fmt.Errorf("unexpected %q", p.toks[p.pos])
	}
	if err != nil {
		return nil, fmt.Errorf("-k %q: %v; write words joined with and, or, not and parentheses (-k 'create and not list')", expr, err)
	}
	return m, nil
}

type matcher = func(name string, markers []string) bool

type selParser struct {
	src  string
	toks []string
	pos  int
}

func (p *selParser) lex() {
	cur := strings.Builder{}
	flush := func() {
		if cur.Len() > 0 {
			p.toks = append(p.toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range p.src {
		switch {
		case r == '(' || r == ')':
			flush()
			p.toks = append(p.toks, string(r))
		case unicode.IsSpace(r):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
}

func (p *selParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *selParser) or() (matcher, error) {
	left, err := p.and()
	for err == nil && p.peek() == "or" {
		p.pos++
		var right matcher
		right, err = p.and()
		l, r := left, right
		left = func(n string, m []string) bool { return l(n, m) || r(n, m) }
	}
	return left, err
}

func (p *selParser) and() (matcher, error) {
	left, err := p.not()
	for err == nil && p.peek() == "and" {
		p.pos++
		var right matcher
		right, err = p.not()
		l, r := left, right
		left = func(n string, m []string) bool { return l(n, m) && r(n, m) }
	}
	return left, err
}

func (p *selParser) not() (matcher, error) {
	if p.peek() == "not" {
		p.pos++
		inner, err := p.not()
		if err != nil {
			return nil, err
		}
		return func(n string, m []string) bool { return !inner(n, m) }, nil
	}
	return p.atom()
}

func (p *selParser) atom() (matcher, error) {
	t := p.peek()
	switch t {
	case "":
		return nil, fmt.Errorf("the expression ends where a word was expected")
	case "(":
		p.pos++
		m, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("a ( without its )")
		}
		p.pos++
		return m, nil
	case ")", "and", "or":
		return nil, fmt.Errorf("unexpected %q where a word was expected", t)
	}
	p.pos++
	word := strings.ToLower(t)
	return func(name string, markers []string) bool {
		if strings.Contains(strings.ToLower(name), word) {
			return true
		}
		for _, mk := range markers {
			if mk == word {
				return true
			}
		}
		return false
	}, nil
}
