package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stacksim/stacksim/internal/readfile"
)

// The AWS CLI's shorthand syntax (awscli/shorthand.py), for the structure
// lists of --parameters and --tags: KEY=VALUE pairs separated by commas.
// A value is plain text (a comma in it escaped as \,), or quoted with ' or "
// (a quote inside escaped with \), or an explicit list [a,b], or a hash
// {k=v}. A plain value followed by more comma-separated words that are not
// KEY= pairs is a list: ParameterValue=a,b is ['a', 'b'], as in the AWS CLI.

// shorthandError is the AWS CLI's message for a value it cannot parse.
type shorthandError struct {
	value            string
	expected, actual string
	index            int
}

func (e *shorthandError) Error() string {
	value, index := quoteWindow(e.value, e.index)
	spaces := index
	if i := strings.LastIndex(value[:index], "\n"); i >= 0 {
		spaces = index - i - 1
	}
	return fmt.Sprintf("Expected: '%s', received: '%s' for input:\n%s\n%s^", e.expected, e.actual, value, strings.Repeat(" ", spaces))
}

// quoteWindow cuts a long input to readfile.MaxQuote bytes around index,
// marking the cuts ("...", and the size in all), so that the message
// never echoes a large input whole; it returns the index in the cut text.
func quoteWindow(value string, index int) (string, int) {
	index = min(max(index, 0), len(value))
	if len(value) <= readfile.MaxQuote {
		return value, index
	}
	start := max(0, index-readfile.MaxQuote/2)
	for start > 0 && !utf8.RuneStart(value[start]) {
		start--
	}
	end := min(len(value), start+readfile.MaxQuote)
	for end < len(value) && !utf8.RuneStart(value[end]) {
		end--
	}
	head, tail := "", ""
	if start > 0 {
		head = "..."
	}
	if end < len(value) {
		tail = "..."
	}
	if head != "" || tail != "" {
		tail += " (" + readfile.Bytes(int64(len(value))) + " bytes in all)"
	}
	return head + value[start:end] + tail, index - start + len(head)
}

type shorthandParser struct {
	in []rune
	i  int
	s  string
}

// parseShorthand parses one shorthand argument into a map whose values are
// strings, []any or map[string]any. keys keeps the order the keys came in.
func parseShorthand(s string) (vals map[string]any, keys []string, err error) {
	p := &shorthandParser{in: []rune(s), s: s}
	vals = map[string]any{}
	add := func(k string, v any) {
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	k, v, err := p.keyval()
	if err != nil {
		return nil, nil, err
	}
	add(k, v)
	for !p.eof() {
		if err := p.expect(',', true); err != nil {
			return nil, nil, err
		}
		k, v, err := p.keyval()
		if err != nil {
			return nil, nil, err
		}
		add(k, v)
	}
	return vals, keys, nil
}

func (p *shorthandParser) eof() bool { return p.i >= len(p.in) }

func (p *shorthandParser) cur() rune {
	if p.eof() {
		return 0
	}
	return p.in[p.i]
}

func (p *shorthandParser) fail(expected string) error {
	actual := "EOF"
	if !p.eof() {
		actual = string(p.in[p.i])
	}
	return &shorthandError{value: p.s, expected: expected, actual: actual, index: len(string(p.in[:p.i]))}
}

func (p *shorthandParser) space() {
	for !p.eof() && unicode.IsSpace(p.in[p.i]) {
		p.i++
	}
}

func (p *shorthandParser) expect(c rune, space bool) error {
	if space {
		p.space()
	}
	if p.eof() || p.in[p.i] != c {
		return p.fail(string(c))
	}
	p.i++
	if space {
		p.space()
	}
	return nil
}

func (p *shorthandParser) key() string {
	start := p.i
	for !p.eof() && (p.in[p.i] < 128 && (unicode.IsLetter(p.in[p.i]) || unicode.IsDigit(p.in[p.i]))) {
		p.i++
	}
	return string(p.in[start:p.i])
}

func (p *shorthandParser) keyval() (string, any, error) {
	k := p.key()
	if err := p.expect('=', true); err != nil {
		return "", nil, err
	}
	v, err := p.values()
	return k, v, err
}

func (p *shorthandParser) values() (any, error) {
	switch {
	case p.eof():
		return "", nil
	case p.cur() == '[':
		return p.explicitList()
	case p.cur() == '{':
		return p.hash()
	}
	return p.csvValue()
}

func (p *shorthandParser) csvValue() (any, error) {
	first, err := p.firstValue()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.eof() || p.cur() != ',' {
		return first, nil
	}
	save := p.i
	p.i++
	p.space()
	list := []any{first}
	for {
		start := p.i
		v, ok := p.secondValue()
		if !ok {
			p.i = save
			break
		}
		p.space()
		if p.eof() {
			list = append(list, v)
			break
		}
		if p.cur() != ',' {
			// "a=b,c=d": c was a key; back to the comma before it.
			p.i = start
			for p.i > 0 && p.in[p.i] != ',' {
				p.i--
			}
			break
		}
		list = append(list, v)
		save = p.i
		p.i++
		p.space()
	}
	if len(list) == 1 {
		return first, nil
	}
	return list, nil
}

// plainRune says whether r may appear in a plain value: at its start
// (neither quotes, commas, '=', '[' nor '{'), or further on in a first value
// (not ',', quotes, ']' or '}') or in a later list value (not ',', quotes or
// '=').
func plainRune(r rune, start, second bool) bool {
	if r < ' ' {
		return false
	}
	switch r {
	case ',', '"', '\'':
		return false
	}
	switch {
	case start:
		return r != ' ' && r != '=' && r != '[' && r != '{'
	case second:
		return r != '='
	default:
		return r != ']' && r != '}'
	}
}

// plain reads a plain value: a comma in it is written \, and trailing
// spaces are not part of it.
func (p *shorthandParser) plain(second bool) string {
	var b strings.Builder
	start := true
	for !p.eof() {
		r := p.in[p.i]
		if r == '\\' && p.i+1 < len(p.in) && p.in[p.i+1] == ',' {
			b.WriteRune(',')
			p.i += 2
			start = false
			continue
		}
		if !plainRune(r, start, second) {
			break
		}
		b.WriteRune(r)
		p.i++
		start = false
	}
	return strings.TrimRight(b.String(), " \t")
}

func (p *shorthandParser) firstValue() (string, error) {
	switch p.cur() {
	case '\'', '"':
		return p.quoted(p.cur())
	}
	return p.plain(false), nil
}

func (p *shorthandParser) secondValue() (string, bool) {
	switch p.cur() {
	case '\'', '"':
		v, err := p.quoted(p.cur())
		return v, err == nil
	}
	start := p.i
	v := p.plain(true)
	if p.i == start {
		return "", false
	}
	if !p.eof() && p.cur() == '=' {
		return "", false
	}
	return v, true
}

func (p *shorthandParser) quoted(q rune) (string, error) {
	start := p.i
	p.i++
	var b strings.Builder
	for !p.eof() {
		r := p.in[p.i]
		if r == '\\' && p.i+1 < len(p.in) && (p.in[p.i+1] == q || p.in[p.i+1] == '\\') {
			b.WriteRune(p.in[p.i+1])
			p.i += 2
			continue
		}
		if r == q {
			p.i++
			return b.String(), nil
		}
		b.WriteRune(r)
		p.i++
	}
	p.i = start
	name := "double quoted"
	if q == '\'' {
		name = "singled quoted"
	}
	return "", p.fail("<" + name + ">")
}

func (p *shorthandParser) explicitList() ([]any, error) {
	if err := p.expect('[', true); err != nil {
		return nil, err
	}
	list := []any{}
	for p.cur() != ']' {
		if p.eof() {
			return nil, p.fail("]")
		}
		v, err := p.explicitValue()
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		p.space()
		if p.cur() != ']' {
			if err := p.expect(',', false); err != nil {
				return nil, err
			}
			p.space()
		}
	}
	return list, p.expect(']', false)
}

func (p *shorthandParser) explicitValue() (any, error) {
	switch p.cur() {
	case '[':
		return p.explicitList()
	case '{':
		return p.hash()
	}
	return p.firstValue()
}

func (p *shorthandParser) hash() (map[string]any, error) {
	if err := p.expect('{', true); err != nil {
		return nil, err
	}
	m := map[string]any{}
	for p.cur() != '}' {
		if p.eof() {
			return nil, p.fail("}")
		}
		k := p.key()
		if err := p.expect('=', true); err != nil {
			return nil, err
		}
		v, err := p.explicitValue()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.cur() != '}' {
			if err := p.expect(',', false); err != nil {
				return nil, err
			}
			p.space()
		}
		m[k] = v
	}
	return m, p.expect('}', false)
}
