package pkgexport

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/stacksim/stacksim/template"
)

// YAML as the AWS CLI (v1) writes a packaged template: PyYAML's
// yaml.dump(default_flow_style=False) through its SafeDumper
// (awscli/customizations/cloudformation/yamlhelper.py): block style,
// members in their order, the items of a list at the indentation of the
// key that holds it, an empty map or list as {} or [], a string in single
// quotes when it would read as something else (true, 123, null, a date)
// and in double quotes, escaped, when it holds a character outside
// printable ASCII (allow_unicode is off), plain text folded at spaces past
// column 80. This is a port of the parts of PyYAML's emitter.py
// (analyze_scalar, choose_scalar_style, write_plain, write_single_quoted,
// write_double_quoted, write_indent) that a template reaches.

const bestWidth = 80

// YAML writes the tree as PyYAML's yaml.dump writes the same data.
func YAML(root *template.Node) []byte {
	e := &yamlEmitter{whitespace: true, indention: true}
	e.node(root, -2, false) // the root mapping is at indentation 0
	// The document ends with write_indent at indentation 0: a line break.
	e.writeIndent(0)
	return []byte(e.b.String())
}

type yamlEmitter struct {
	b          strings.Builder
	column     int
	whitespace bool
	indention  bool
}

func (e *yamlEmitter) write(s string) {
	e.b.WriteString(s)
	e.column += utf8.RuneCountInString(s)
}

func (e *yamlEmitter) lineBreak() {
	e.b.WriteByte('\n')
	e.whitespace, e.indention, e.column = true, true, 0
}

func (e *yamlEmitter) writeIndent(indent int) {
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.lineBreak()
	}
	if e.column < indent {
		e.whitespace = true
		e.write(strings.Repeat(" ", indent-e.column))
	}
}

func (e *yamlEmitter) indicator(s string, needWhitespace, whitespace, indention bool) {
	if !e.whitespace && needWhitespace {
		s = " " + s
	}
	e.whitespace = whitespace
	e.indention = e.indention && indention
	e.write(s)
}

// node writes n; indent is that of the collection holding it (the
// scalar's continuation lines are two further in), inMapping tells that
// n is the value of a mapping member.
func (e *yamlEmitter) node(n *template.Node, indent int, inMapping bool) {
	switch n.Kind {
	case template.Map:
		if len(n.Fields) == 0 {
			e.indicator("{", true, true, false)
			e.indicator("}", false, false, false)
			return
		}
		inner := indent + 2
		for _, f := range n.Fields {
			e.writeIndent(inner)
			e.scalar(f.Key, "str", inner, true)
			e.indicator(":", false, false, false)
			e.node(f.Value, inner, true)
		}
	case template.List:
		if len(n.Items) == 0 {
			e.indicator("[", true, true, false)
			e.indicator("]", false, false, false)
			return
		}
		// A sequence that is a mapping's value is indentless.
		inner := indent + 2
		if inMapping && !e.indention {
			inner = indent
		}
		for _, it := range n.Items {
			e.writeIndent(inner)
			e.indicator("-", true, false, true)
			e.node(it, inner, false)
		}
	case template.String:
		e.scalar(n.Value, "str", indent+2, false)
	case template.Number:
		e.scalar(n.Value, "number", indent+2, false)
	case template.Bool:
		e.scalar(n.Value, "bool", indent+2, false)
	default:
		e.scalar("null", "null", indent+2, false)
	}
}

// scalar writes a scalar in the style PyYAML chooses for it. kind is
// "str" for a string (whose style depends on how it would resolve) or the
// kind of a value PyYAML writes plain (numbers, booleans, null).
func (e *yamlEmitter) scalar(s, kind string, indent int, simpleKey bool) {
	a := analyzeScalar(s)
	implicit := kind != "str" || resolvesAsString(s)
	split := !simpleKey
	switch {
	case implicit && !(simpleKey && (a.empty || a.multiline)) && a.allowBlockPlain:
		e.writePlain(s, indent, split)
	case a.allowSingleQuoted && !(simpleKey && a.multiline):
		e.writeSingleQuoted(s, indent, split)
	default:
		e.writeDoubleQuoted(s, indent, split)
	}
}

type scalarAnalysis struct {
	empty, multiline                   bool
	allowBlockPlain, allowSingleQuoted bool
}

func isBreak(r rune) bool { return r == '\n' || r == '\x85' || r == '\u2028' || r == '\u2029' }

func isSpaceOrEnd(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\r' || isBreak(r) }

// analyzeScalar is PyYAML's analyze_scalar, with allow_unicode off.
func analyzeScalar(scalar string) scalarAnalysis {
	if scalar == "" {
		return scalarAnalysis{empty: true, allowBlockPlain: true, allowSingleQuoted: true}
	}
	rs := []rune(scalar)
	var blockIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(scalar, "---") || strings.HasPrefix(scalar, "...") {
		blockIndicators = true
	}
	precededByWS := true
	followedByWS := len(rs) == 1 || isSpaceOrEnd(rs[1])
	previousSpace, previousBreak := false, false
	for i, ch := range rs {
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) {
				blockIndicators = true
			}
			if (ch == '?' || ch == ':') && followedByWS {
				blockIndicators = true
			}
			if ch == '-' && followedByWS {
				blockIndicators = true
			}
		} else {
			if ch == ':' && followedByWS {
				blockIndicators = true
			}
			if ch == '#' && precededByWS {
				blockIndicators = true
			}
		}
		if isBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || (ch >= 0x20 && ch <= 0x7E)) {
			special = true // unicode too: allow_unicode is off
		}
		switch {
		case ch == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i == len(rs)-1 {
				trailingSpace = true
			}
			if previousBreak {
				breakSpace = true
			}
			previousSpace, previousBreak = true, false
		case isBreak(ch):
			if i == 0 {
				leadingBreak = true
			}
			if i == len(rs)-1 {
				trailingBreak = true
			}
			if previousSpace {
				spaceBreak = true
			}
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWS = isSpaceOrEnd(ch)
		followedByWS = i+2 >= len(rs) || isSpaceOrEnd(rs[i+2])
	}
	a := scalarAnalysis{multiline: lineBreaks, allowBlockPlain: true, allowSingleQuoted: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.allowBlockPlain = false
	}
	if breakSpace {
		a.allowBlockPlain, a.allowSingleQuoted = false, false
	}
	if spaceBreak || special {
		a.allowBlockPlain, a.allowSingleQuoted = false, false
	}
	if lineBreaks || blockIndicators {
		a.allowBlockPlain = false
	}
	return a
}

// PyYAML's implicit resolvers (resolver.py, YAML 1.1): a plain scalar
// that matches one is not a string. Compiled on first use (only package
// writes YAML).
var implicitResolvers = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`),
		regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`),
		regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
		regexp.MustCompile(`^(?:<<)$`),
		regexp.MustCompile(`^(?:~|null|Null|NULL|)$`),
		regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`),
		regexp.MustCompile(`^(?:=)$`),
	}
})

func resolvesAsString(s string) bool {
	for _, re := range implicitResolvers() {
		if re.MatchString(s) {
			return false
		}
	}
	return true
}

func (e *yamlEmitter) writePlain(text string, indent int, split bool) {
	if text == "" {
		return
	}
	if !e.whitespace {
		e.write(" ")
	}
	e.whitespace, e.indention = false, false
	rs := []rune(text)
	spaces := false
	start := 0
	for end := 0; end <= len(rs); end++ {
		var ch rune = -1
		if end < len(rs) {
			ch = rs[end]
		}
		if spaces {
			if ch != ' ' {
				if start+1 == end && e.column > bestWidth && split {
					e.writeIndent(indent)
					e.whitespace, e.indention = false, false
				} else {
					e.write(string(rs[start:end]))
				}
				start = end
			}
		} else if ch == -1 || ch == ' ' || isBreak(ch) {
			e.write(string(rs[start:end]))
			start = end
		}
		if ch != -1 {
			spaces = ch == ' '
		}
	}
}

func (e *yamlEmitter) writeSingleQuoted(text string, indent int, split bool) {
	e.indicator("'", true, false, false)
	rs := []rune(text)
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(rs); end++ {
		var ch rune = -1
		if end < len(rs) {
			ch = rs[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.column > bestWidth && split && start != 0 && end != len(rs) {
					e.writeIndent(indent)
				} else {
					e.write(string(rs[start:end]))
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if rs[start] == '\n' {
					e.lineBreak()
				}
				for _, br := range rs[start:end] {
					if br == '\n' {
						e.lineBreak()
					} else {
						e.b.WriteRune(br)
						e.whitespace, e.indention, e.column = true, true, 0
					}
				}
				e.writeIndent(indent)
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) || ch == '\'' {
				if start < end {
					e.write(string(rs[start:end]))
					start = end
				}
			}
		}
		if ch == '\'' {
			e.write("''")
			start = end + 1
		}
		if ch != -1 {
			spaces, breaks = ch == ' ', isBreak(ch)
		}
	}
	e.indicator("'", false, false, false)
}

var doubleQuotedEscapes = map[rune]string{
	0: "0", '\x07': "a", '\x08': "b", '\x09': "t", '\x0A': "n", '\x0B': "v", '\x0C': "f",
	'\x0D': "r", '\x1B': "e", '"': "\"", '\\': "\\", '\x85': "N", '\xA0': "_", '\u2028': "L", '\u2029': "P",
}

func (e *yamlEmitter) writeDoubleQuoted(text string, indent int, split bool) {
	e.indicator("\"", true, false, false)
	rs := []rune(text)
	start := 0
	for end := 0; end <= len(rs); end++ {
		var ch rune = -1
		if end < len(rs) {
			ch = rs[end]
		}
		if ch == -1 || ch == '"' || ch == '\\' || ch == '\x85' || ch == '\u2028' || ch == '\u2029' || ch == '\uFEFF' ||
			!(ch >= 0x20 && ch <= 0x7E) {
			if start < end {
				e.write(string(rs[start:end]))
				start = end
			}
			if ch != -1 {
				var data string
				if r, ok := doubleQuotedEscapes[ch]; ok {
					data = "\\" + r
				} else if ch <= 0xFF {
					data = fmt.Sprintf("\\x%02X", ch)
				} else if ch <= 0xFFFF {
					data = fmt.Sprintf("\\u%04X", ch)
				} else {
					data = fmt.Sprintf("\\U%08X", ch)
				}
				e.write(data)
				start = end + 1
			}
		}
		if 0 < end && end < len(rs)-1 && (ch == ' ' || start >= end) && e.column+(end-start) > bestWidth && split {
			// text[start:end] in Python: empty when an escape just put
			// start past end.
			data := "\\"
			if start < end {
				data = string(rs[start:end]) + data
			}
			if start < end {
				start = end
			}
			e.write(data)
			e.writeIndent(indent)
			e.whitespace, e.indention = false, false
			if rs[start] == ' ' {
				e.write("\\")
			}
		}
	}
	e.indicator("\"", false, false, false)
}
