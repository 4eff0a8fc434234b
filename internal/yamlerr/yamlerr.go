package yamlerr

import (
	"errors"
	"fmt"
	"strings"

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

// Of returns the syntax error err holds, with its position; ok is false
// when err is not a positioned YAML syntax error (a type error while
// decoding into a Go value, an I/O error).
func Of(err error) (s Syntax, ok bool) {
	var le *yaml.LoadError
	if !errors.As(err, &le) || le.Mark.Line <= 0 || !syntaxStage[le.Stage] {
		return Syntax{}, false
	}
	s = Syntax{Line: le.Mark.Line, Col: max(le.Mark.Column, 1), Problem: le.Message}
	if le.ContextMsg != "" && le.ContextMark.Line > 0 && le.ContextMark != le.Mark {
		s.Context = le.ContextMsg
		s.ContextLine, s.ContextCol = le.ContextMark.Line, max(le.ContextMark.Column, 1)
	}
	return s, true
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
// is one, else the library's text without its "yaml: " prefix.
func Message(err error) string {
	if s, ok := Of(err); ok {
		return s.Detail()
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}
