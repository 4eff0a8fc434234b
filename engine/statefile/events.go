package statefile

import (
	"errors"
	"fmt"

	"github.com/stacksim/stacksim/internal/jsonvalue"
)

// Event rows are most of a state file, and most of their strings repeat
// (types, statuses, reasons, tokens, logical ids). They are parsed here
// rather than through reflection, and every string is interned: a loaded
// state shares its strings the way a live one does, and parsing allocates
// once per distinct string. The text has already been checked as JSON by
// the decoder that handed it over.

// interner returns one string for equal byte sequences.
type interner map[string]string

func (in interner) of(b []byte) string {
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	in[s] = s
	return s
}

// parseEventRows parses [[string...]...] into rows of at most
// numEventColumns strings.
func parseEventRows(raw []byte, in interner) ([][numEventColumns]string, error) {
	p := rowParser{b: raw, in: in}
	p.space()
	if !p.eat('[') {
		return nil, p.fail("an array of event rows")
	}
	var rows [][numEventColumns]string
	p.space()
	if p.eat(']') {
		return rows, nil
	}
	for {
		p.space()
		if !p.eat('[') {
			return nil, p.fail(fmt.Sprintf("event row %d, an array of strings", len(rows)+1))
		}
		var row [numEventColumns]string
		n := 0
		p.space()
		if !p.eat(']') {
			for {
				p.space()
				if n == numEventColumns {
					return nil, fmt.Errorf("event row %d has more than %d columns", len(rows)+1, numEventColumns)
				}
				s, err := p.str()
				if err != nil {
					return nil, fmt.Errorf("event row %d, column %d: %w", len(rows)+1, n+1, err)
				}
				row[n] = s
				n++
				p.space()
				if p.eat(']') {
					break
				}
				if !p.eat(',') {
					return nil, p.fail(fmt.Sprintf("',' or ']' in event row %d", len(rows)+1))
				}
			}
		}
		rows = append(rows, row)
		p.space()
		if p.eat(']') {
			return rows, nil
		}
		if !p.eat(',') {
			return nil, p.fail("',' or ']' after an event row")
		}
	}
}

type rowParser struct {
	b   []byte
	i   int
	in  interner
	buf []byte
}

func (p *rowParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *rowParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *rowParser) fail(want string) error {
	if p.i >= len(p.b) {
		return fmt.Errorf("want %s, found the end", want)
	}
	return fmt.Errorf("want %s, found %q", want, p.b[p.i])
}

var errNotString = errors.New("not a string")

// str parses a JSON string, as encoding/json reads it.
func (p *rowParser) str() (string, error) {
	if !p.eat('"') {
		return "", errNotString
	}
	var problem jsonvalue.StringProblem
	if p.buf, p.i, problem = jsonvalue.AppendUnquoted(p.buf[:0], p.b, p.i); problem == jsonvalue.StringOK {
		return p.in.of(p.buf), nil
	}
	switch problem {
	case jsonvalue.StringControl:
		return "", fmt.Errorf("a control character in a string")
	case jsonvalue.StringBadUnicode:
		return "", fmt.Errorf("a bad \\u escape")
	case jsonvalue.StringBadEscape:
		return "", fmt.Errorf("a bad escape \\%c", p.b[p.i+1])
	}
	return "", fmt.Errorf("an unterminated string")
}
