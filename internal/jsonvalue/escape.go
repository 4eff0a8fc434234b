package jsonvalue

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendEscape decodes the escape of a JSON string at b[i] (b[i] is the
// backslash, b[i+1] the escape's letter) onto buf, as encoding/json
// decodes it: \uXXXX pairs of surrogates make one rune, a lone half is
// U+FFFD and what follows it is read as itself. It returns buf and the
// index after the escape; ok is false for a malformed escape (buf and the
// index are then not to be used). The hand-written parsers of this module
// (the state file's rows, the CLI's ordered output) share it.
func AppendEscape(buf, b []byte, i int) (_ []byte, next int, ok bool) {
	if i+1 >= len(b) {
		return buf, i, false
	}
	e := b[i+1]
	i += 2
	switch e {
	case '"', '\\', '/':
		return append(buf, e), i, true
	case 'b':
		return append(buf, '\b'), i, true
	case 'f':
		return append(buf, '\f'), i, true
	case 'n':
		return append(buf, '\n'), i, true
	case 'r':
		return append(buf, '\r'), i, true
	case 't':
		return append(buf, '\t'), i, true
	case 'u':
		r, ok := hex4(b, i)
		if !ok {
			return buf, i, false
		}
		i += 4
		if utf16.IsSurrogate(r) {
			d := utf8.RuneError
			if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
				if r2, ok := hex4(b, i+2); ok {
					if d = utf16.DecodeRune(r, r2); d != utf8.RuneError {
						i += 6
					}
				}
			}
			r = d
		}
		return utf8.AppendRune(buf, r), i, true
	}
	return buf, i, false
}

// hex4 reads the four hex digits at b[i].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[i:i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	return rune(n), true
}
