package yamlerr

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// Syntax is a YAML syntax error at a place in the source.
type Syntax struct {
	Line, Col int    // the problem's position, 1-based (column in characters)
	Problem   string // what is wrong: "did not find expected key"
	// Context names the construct the problem was found in ("while
	// parsing a block mapping"), at ContextLine:ContextCol; empty when the
	// library gave none, or gave the problem's own position.
	Context                 string
	ContextLine, ContextCol int
}

// syntaxStage holds the stages that read the text; the later ones
// (resolving tags, constructing Go values) fail on well-formed YAML.
var syntaxStage = map[yaml.Stage]bool{
	yaml.ReaderStage: true, yaml.ScannerStage: true, yaml.ParserStage: true, yaml.ComposerStage: true,
}

// Of returns the syntax error err holds, with its position in src (the
// body that was read); ok is false when err is not a positioned YAML
// syntax error (a type error while decoding into a Go value, an I/O
// error).
func Of(err error, src []byte) (s Syntax, ok bool) {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line <= 0 || !syntaxStage[le.Stage] {
		return Syntax{}, false
	}
	s = Syntax{Problem: le.Message}
	s.Line, s.Col = place(le.Mark, src)
	if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
		s.Context = le.ContextMsg
		s.ContextLine, s.ContextCol = place(le.ContextMark, src)
	}
	return s, true
}

// place is where PyYAML puts a mark. They differ at the end of a body
// without a final line break: the library reads one more, empty line and
// puts the end there (line 2, column 1 for "["), PyYAML after the last
// character (line 1, column 2).
func place(m yaml.Mark, src []byte) (line, col int) {
	line, col = m.Line, max(m.Column, 1)
	if col > 1 || len(src) == 0 {
		return line, col
	}
	if r, _ := utf8.DecodeLastRune(src); isBreak(r) {
		return line, col // the body ends with a line break: the marks agree
	}
	breaks, last := 0, 0 // line breaks in src, and where its last line starts
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		i += size
		if isBreak(r) {
			if r == '\r' && i < len(src) && src[i] == '\n' {
				i++
			}
			breaks, last = breaks+1, i
		}
	}
	if line != breaks+2 {
		return line, col
	}
	return breaks + 1, utf8.RuneCount(src[last:]) + 1
}

// isBreak reports whether YAML 1.1 (libyaml and PyYAML alike) breaks a
// line at r.
func isBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u0085' || r == '\u2028' || r == '\u2029'
}

// Detail is the problem with its context, as PyYAML words it:
// "did not find expected key (while parsing a block mapping at line 2,
// column 3)".
func (s Syntax) Detail() string {
	if s.Context == "" {
		return s.Problem
	}
	return fmt.Sprintf("%s (%s at line %d, column %d)", s.Problem, s.Context, s.ContextLine, s.ContextCol)
}

// Message is err's text for a person: the syntax error's detail when err
// is one (src is the body that was read), else the library's text without
// its "yaml: " prefix.
func Message(err error, src []byte) string {
	if s, ok := Of(err, src); ok {
		return s.Detail()
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
