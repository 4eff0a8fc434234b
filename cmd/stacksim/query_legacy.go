package main

import (
	"encoding/json"
	"strings"
	"unicode"
)

// legacyLiterals rewrites the JSON literals of a JMESPath expression that
// are not JSON (`Mesh2`, where JSON wants `"Mesh2"`) into the JSON strings
// the AWS CLI reads them as: its JMESPath (the reference implementation,
// during JEP-12's deprecation period) takes such a literal as the string
// of its text, left-trimmed, so scripts written for it use
// [?LogicalResourceId==`Web`] freely. A literal that is JSON, or whose
// text does not make a JSON string either, is left alone (the second is
// the compile error the AWS CLI gives too). Backticks inside raw strings
// ('...') and quoted identifiers ("...") are not literals.
func legacyLiterals(expr string) string {
	var b strings.Builder
	changed := false
	for i := 0; i < len(expr); {
		c := expr[i]
		switch c {
		case '\'', '"':
			end, _ := closing(expr, i)
			b.WriteString(expr[i:end])
			i = end
		case '`':
			end, ok := closing(expr, i)
			if !ok {
				b.WriteString(expr[i:]) // unterminated: the compiler says so
				i = len(expr)
				continue
			}
			lexeme := strings.ReplaceAll(expr[i+1:end-1], "\\`", "`")
			if quoted := `"` + strings.TrimLeftFunc(lexeme, unicode.IsSpace) + `"`; !json.Valid([]byte(lexeme)) && json.Valid([]byte(quoted)) {
				b.WriteByte('`')
				b.WriteString(strings.ReplaceAll(quoted, "`", "\\`"))
				b.WriteByte('`')
				changed = true
			} else {
				b.WriteString(expr[i:end])
			}
			i = end
		default:
			b.WriteByte(c)
			i++
		}
	}
	if !changed {
		return expr
	}
	return b.String()
}

// closing is the index just past the delimiter that closes the token
// opened at expr[i] (a backslash escapes the character after it), or
// len(expr) and false when none does.
func closing(expr string, i int) (int, bool) {
	d := expr[i]
	for j := i + 1; j < len(expr); j++ {
		switch expr[j] {
		case '\\':
			j++
		case d:
			return j + 1, true
		}
	}
	return len(expr), false
}
