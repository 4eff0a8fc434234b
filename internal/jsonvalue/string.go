package jsonvalue

import "unicode/utf8"

// StringProblem is what makes the body of a JSON string invalid, as
// AppendUnquoted reads it.
type StringProblem int

const (
	StringOK           StringProblem = iota
	StringUnterminated               // no closing quote (or a backslash last)
	StringControl                    // a control character not escaped
	StringBadEscape                  // \ and a letter that is not an escape's
	StringBadUnicode                 // \u without 4 hex digits
)

// plainRun is the end of the plain run of a JSON string's body from
// b[i]: bytes that read as themselves (no quote, escape or control
// character, every byte UTF-8).
func plainRun(b []byte, i int) int {
	for i < len(b) {
		switch c := b[i]; {
		case c == '"' || c == '\\' || c < 0x20:
			return i
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return i
			}
			i += size
		default:
			i++
		}
	}
	return i
}

// AppendUnquoted decodes the body of a JSON string from b[i] (just after
// its opening quote) to its closing quote onto buf, as encoding/json
// decodes it: escapes (AppendEscape), a byte that is not UTF-8 as U+FFFD,
// a control character refused. It returns buf and the index after the
// closing quote; on a problem, the index of the byte at fault (buf is then
// not to be used). The hand-written parsers of this module (the state
// file's, the CLI's ordered output) all read strings with it, so that they
// read them alike.
func AppendUnquoted(buf, b []byte, i int) (_ []byte, next int, problem StringProblem) {
	for i < len(b) {
		if end := plainRun(b, i); end > i {
			buf, i = append(buf, b[i:end]...), end
			continue
		}
		switch c := b[i]; {
		case c == '"':
			return buf, i + 1, StringOK
		case c < 0x20:
			return buf, i, StringControl
		case c == '\\':
			if i+1 >= len(b) {
				return buf, i, StringUnterminated
			}
			var ok bool
			at := i
			if buf, i, ok = AppendEscape(buf, b, i); !ok {
				if b[at+1] == 'u' {
					return buf, at, StringBadUnicode
				}
				return buf, at, StringBadEscape
			}
		default: // a byte that is not UTF-8
			buf, i = utf8.AppendRune(buf, utf8.RuneError), i+1
		}
	}
	return buf, i, StringUnterminated
}
