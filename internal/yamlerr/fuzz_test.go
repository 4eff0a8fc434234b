package yamlerr

import (
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// FuzzOf checks that every syntax error of a body is placed inside it: a
// line of the body (or the one after its last line break, where the end
// is), a column on that line at most one past its last character, and a
// context that does not come after the problem.
func FuzzOf(f *testing.F) {
	for _, s := range []string{
		"a: [1, 2\nb: 3\n", "A:\n  B: 1\n C: 2\n", "a:\n\tb: 1\n", "a: 'b\n", "é: [1\n",
		"Resources:\n  X:\n    Type: T\n    Properties\n      Name: y\n", "a: |#x\n 0\n", "- a\n b: c\n",
		"{a: 1\n", "a: \"\\q\"\n", "\xff: 1\n", "a:\r\n  - b\r\n c\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var n yaml.Node
		err := yaml.Unmarshal(src, &n)
		s, ok := Of(err, src)
		if !ok {
			return
		}
		lines := splitLines(src)
		if s.Line < 1 || s.Line > len(lines) {
			t.Fatalf("line %d outside a body of %d lines: %q", s.Line, len(lines), src)
		}
		if !utf8.Valid(src) {
			return // the reader stops at the first invalid byte; columns count what it read
		}
		line := lines[s.Line-1]
		if width := utf8.RuneCount(line) + 1; s.Col < 1 || s.Col > width+1 {
			t.Fatalf("column %d outside line %d (%d characters): %q", s.Col, s.Line, width-1, src)
		}
		if s.Context != "" && (s.ContextLine < 1 || s.ContextLine > s.Line) {
			t.Fatalf("context at line %d after the problem at line %d: %q", s.ContextLine, s.Line, src)
		}
		if s.Problem == "" {
			t.Fatalf("no problem named: %q", src)
		}
	})
}

// splitLines splits a body at YAML's line breaks (CR LF is one).
func splitLines(src []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if !isBreak(r) {
			i += size
			continue
		}
		lines = append(lines, src[start:i])
		if r == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			size++
		}
		i += size
		start = i
	}
	return append(lines, src[start:])
}
