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

// PlainString scans the body of a JSON string from b[i] (just after its
// opening quote) for its closing quote. When plain, b[i:end] is the
// string as encoding/json reads it (no escape, no control character,
// every byte UTF-8) and b[end] is the quote. Otherwise end is where the
// body stops being plain: the rest is for AppendUnquoted, from end.
// The hand-written parsers of this module (the state file's, the CLI's
// ordered output) share it, so that they read strings alike.
func PlainString(b []byte, i int) (end int, plain bool) {
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return i, true
		case c == '\\' || c < 0x20:
			return i, false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return i, false
			}
			i += size
		default:
			i++
		}
	}
	return i, false
}

// AppendUnquoted decodes the body of a JSON string from b[i] to its closing
// quote onto buf, as encoding/json decodes it: escapes (AppendEscape), a
// byte that is not UTF-8 as U+FFFD, a control character refused. It
// returns buf and the index after the closing quote; on a problem, the
// index of the byte at fault (buf is then not to be used).
func AppendUnquoted(buf, b []byte, i int) (_ []byte, next int, problem StringProblem) {
	for i < len(b) {
		c := b[i]
		switch {
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
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, b[i:i+size]...)
			}
			i += size
		default:
			buf = append(buf, c)
			i++
		}
	}
	return buf, i, StringUnterminated
}
