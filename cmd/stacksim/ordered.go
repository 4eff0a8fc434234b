package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/stacksim/stacksim/internal/jsonvalue"
)

// parseOrdered reads JSON that json.Marshal wrote (so known to be valid)
// into the values the renderers take — object (members in order), []any,
// string, json.Number, bool, nil — with timestamps (timestampKeys) in the
// AWS CLI's form. It is decodeOrdered without encoding/json's tokenizer,
// which costs most of the time of printing a long answer (the events of a
// 500-resource stack); TestParseOrderedMatchesDecoder holds the two to the
// same results.
func parseOrdered(data []byte) (any, error) {
	p := &orderedParser{b: data}
	v, err := p.value("")
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail("the end")
	}
	return v, nil
}

type orderedParser struct {
	b   []byte
	i   int
	buf []byte
	// members and items are the stacks the objects and lists being read
	// gather on.
	members []member
	items   []any
}

func (p *orderedParser) fail(want string) error {
	return fmt.Errorf("JSON at byte %d: want %s", p.i, want)
}

func (p *orderedParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *orderedParser) value(key string) (any, error) {
	p.space()
	if p.i >= len(p.b) {
		return nil, p.fail("a value")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == '}' {
			p.i++
			return object{}, nil
		}
		// Members gather on the parser's stack, and the object gets a
		// slice of their exact size (no growing and copying as they come).
		base := len(p.members)
		for {
			p.space()
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, p.fail("':'")
			}
			p.i++
			v, err := p.value(k)
			if err != nil {
				return nil, err
			}
			p.members = append(p.members, member{k, v})
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == '}' {
				p.i++
				o := make(object, len(p.members)-base)
				copy(o, p.members[base:])
				clear(p.members[base:])
				p.members = p.members[:base]
				return o, nil
			}
			return nil, p.fail("',' or '}'")
		}
	case c == '[':
		p.i++
		p.space()
		if p.i < len(p.b) && p.b[p.i] == ']' {
			p.i++
			return []any{}, nil
		}
		base := len(p.items)
		for {
			v, err := p.value(key)
			if err != nil {
				return nil, err
			}
			p.items = append(p.items, v)
			p.space()
			if p.i < len(p.b) && p.b[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.b) && p.b[p.i] == ']' {
				p.i++
				list := make([]any, len(p.items)-base)
				copy(list, p.items[base:])
				clear(p.items[base:])
				p.items = p.items[:base]
				return list, nil
			}
			return nil, p.fail("',' or ']'")
		}
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		if timestampKeys[key] {
			if ts, err := time.Parse(time.RFC3339Nano, s); err == nil {
				return pyISOTime(ts), nil
			}
		}
		return s, nil
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.b)-p.i >= len(lit.s) && string(p.b[p.i:p.i+len(lit.s)]) == lit.s {
				p.i += len(lit.s)
				return lit.v, nil
			}
		}
		return nil, p.fail("a value")
	default:
		start := p.i
		for p.i < len(p.b) {
			switch c := p.b[p.i]; {
			case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
				p.i++
				continue
			}
			break
		}
		if p.i == start {
			return nil, p.fail("a value")
		}
		return json.Number(p.b[start:p.i]), nil
	}
}

// str reads a JSON string, as encoding/json reads it.
func (p *orderedParser) str() (string, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", p.fail("a string")
	}
	p.i++
	var problem jsonvalue.StringProblem
	p.buf, p.i, problem = jsonvalue.AppendUnquoted(p.buf[:0], p.b, p.i)
	switch problem {
	case jsonvalue.StringOK:
		return string(p.buf), nil
	case jsonvalue.StringControl:
		return "", p.fail("an escaped control character")
	case jsonvalue.StringBadUnicode:
		return "", p.fail("4 hex digits")
	case jsonvalue.StringBadEscape:
		return "", p.fail("an escape")
	}
	return "", p.fail("the end of a string")
}
