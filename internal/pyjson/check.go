package pyjson

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting. Python stops far deeper values with a
// RecursionError (which the AWS CLI does not catch); encoding/json stops
// at 10,000 levels, and so does Check, in encoding/json's words.
const maxDepth = 10000

// SyntaxError is a text json.loads refuses: Python's message and where it
// points.
type SyntaxError struct {
	Msg  string // Python's message, for example "Expecting ',' delimiter"
	Pos  int    // Python's index: characters (code points) before the problem
	Line int    // 1-based
	Col  int    // 1-based, in characters
}

// Error is the message as Python prints a json.JSONDecodeError.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: line %d column %d (char %d)", e.Msg, e.Line, e.Col, e.Pos)
}

// Check returns nil when json.loads(text) succeeds, and otherwise the
// *SyntaxError Python raises.
func Check(text string) error {
	if strings.HasPrefix(text, "\ufeff") {
		return errorAt(text, 0, "Unexpected UTF-8 BOM (decode using utf-8-sig)")
	}
	s := &scanner{s: text}
	end, err := s.value(s.skip(0), 0)
	if err != nil {
		return err
	}
	if end = s.skip(end); end != len(text) {
		return errorAt(text, end, "Extra data")
	}
	return nil
}

// scanner walks the text by byte offsets; errors convert an offset to
// Python's character index.
type scanner struct{ s string }

func (s *scanner) fail(off int, msg string) error { return errorAt(s.s, off, msg) }

// skip passes JSON's whitespace from off.
func (s *scanner) skip(off int) int {
	for off < len(s.s) {
		switch s.s[off] {
		case ' ', '\t', '\n', '\r':
			off++
		default:
			return off
		}
	}
	return off
}

// value scans the value at off (scan_once) and returns the offset after it.
func (s *scanner) value(off, depth int) (int, error) {
	if off >= len(s.s) {
		return 0, s.fail(off, "Expecting value")
	}
	switch c := s.s[off]; c {
	case '"':
		return s.str(off)
	case '{', '[':
		if depth >= maxDepth {
			return 0, s.fail(off, "exceeded max depth")
		}
		if c == '{' {
			return s.object(off+1, depth+1)
		}
		return s.array(off+1, depth+1)
	}
	for _, lit := range [...]string{"null", "true", "false", "NaN", "Infinity", "-Infinity"} {
		if strings.HasPrefix(s.s[off:], lit) {
			return off + len(lit), nil
		}
	}
	if end := s.number(off); end > off {
		return end, nil
	}
	return 0, s.fail(off, "Expecting value")
}

// number matches Python's number pattern at off,
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, and returns the offset
// after it (off when nothing matches). A fraction or an exponent without
// its digits is not part of the number: what follows is then refused by
// the enclosing value ("Expecting ',' delimiter").
func (s *scanner) number(off int) int {
	i := off
	if i < len(s.s) && s.s[i] == '-' {
		i++
	}
	switch {
	case i < len(s.s) && s.s[i] == '0':
		i++
	case i < len(s.s) && s.s[i] >= '1' && s.s[i] <= '9':
		i = s.digits(i)
	default:
		return off
	}
	if i+1 < len(s.s) && s.s[i] == '.' && isDigit(s.s[i+1]) {
		i = s.digits(i + 1)
	}
	if i < len(s.s) && (s.s[i] == 'e' || s.s[i] == 'E') {
		j := i + 1
		if j < len(s.s) && (s.s[j] == '+' || s.s[j] == '-') {
			j++
		}
		if j < len(s.s) && isDigit(s.s[j]) {
			i = s.digits(j)
		}
	}
	return i
}

func (s *scanner) digits(i int) int {
	for i < len(s.s) && isDigit(s.s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// str scans the string whose opening quote is at off (scanstring_unicode).
func (s *scanner) str(off int) (int, error) {
	i := off + 1
	for {
		if i >= len(s.s) {
			return 0, s.fail(off, "Unterminated string starting at")
		}
		c := s.s[i]
		switch {
		case c == '"':
			return i + 1, nil
		case c < 0x20:
			return 0, s.fail(i, "Invalid control character at")
		case c != '\\':
			i++
			continue
		}
		// An escape: the backslash is at i.
		if i+1 >= len(s.s) {
			return 0, s.fail(off, "Unterminated string starting at")
		}
		if e := s.s[i+1]; e != 'u' {
			if !strings.ContainsRune(`"\/bfnrt`, rune(e)) {
				return 0, s.fail(i, `Invalid \escape`)
			}
			i += 2
			continue
		}
		// \uXXXX: four hex digits, and the text goes on after them
		// (CPython checks the room before the digits); Python points at
		// the 'u'. Each escape of a surrogate pair is checked alone.
		if i+6 >= len(s.s) || !isHex4(s.s[i+2:i+6]) {
			return 0, s.fail(i+1, `Invalid \uXXXX escape`)
		}
		i += 6
	}
}

// isHex4 reports whether h is four hex digits.
func isHex4(h string) bool {
	for _, c := range []byte(h) {
		if !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// object scans an object's members from off, just after its '{'
// (_parse_object_unicode).
func (s *scanner) object(off, depth int) (int, error) {
	i := s.skip(off)
	if i < len(s.s) && s.s[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(s.s) || s.s[i] != '"' {
			return 0, s.fail(i, "Expecting property name enclosed in double quotes")
		}
		end, err := s.str(i)
		if err != nil {
			return 0, err
		}
		if i = s.skip(end); i >= len(s.s) || s.s[i] != ':' {
			return 0, s.fail(i, "Expecting ':' delimiter")
		}
		if i, err = s.value(s.skip(i+1), depth); err != nil {
			return 0, err
		}
		i = s.skip(i)
		if i < len(s.s) && s.s[i] == '}' {
			return i + 1, nil
		}
		if i >= len(s.s) || s.s[i] != ',' {
			return 0, s.fail(i, "Expecting ',' delimiter")
		}
		i = s.skip(i + 1)
	}
}

// array scans an array's items from off, just after its '['
// (_parse_array_unicode).
func (s *scanner) array(off, depth int) (int, error) {
	i := s.skip(off)
	if i < len(s.s) && s.s[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = s.value(i, depth); err != nil {
			return 0, err
		}
		i = s.skip(i)
		if i < len(s.s) && s.s[i] == ']' {
			return i + 1, nil
		}
		if i >= len(s.s) || s.s[i] != ',' {
			return 0, s.fail(i, "Expecting ',' delimiter")
		}
		i = s.skip(i + 1)
	}
}

// errorAt is Python's JSONDecodeError at byte offset off: pos counts the
// characters before off, line the '\n's, and the column is the distance
// from the last '\n' (Python's colno = pos - doc.rfind('\n', 0, pos)).
func errorAt(text string, off int, msg string) error {
	off = min(off, len(text))
	before := text[:off]
	line := strings.Count(before, "\n") + 1
	lineStart := strings.LastIndexByte(before, '\n') + 1
	pos := utf8.RuneCountInString(before)
	return &SyntaxError{Msg: msg, Pos: pos, Line: line, Col: utf8.RuneCountInString(before[lineStart:]) + 1}
}
