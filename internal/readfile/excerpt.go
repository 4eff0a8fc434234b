package readfile

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxQuote is how much of an input an error message quotes, in bytes.
const MaxQuote = 200

// Excerpt returns s when it is at most MaxQuote bytes long; otherwise its
// first MaxQuote bytes (cut at a character boundary) followed by
// "... (N bytes in all)". Errors quote inputs through it (or Quote), so
// that a large input is never echoed back whole.
func Excerpt(s string) string {
	head, tail := cut(s)
	return head + tail
}

// Quote is Excerpt in Go's double quotes (as %q writes it), the
// "... (N bytes in all)" that marks a cut outside the quotes.
func Quote(s string) string {
	head, tail := cut(s)
	return strconv.Quote(head) + tail
}

func cut(s string) (head, tail string) {
	if len(s) <= MaxQuote {
		return s, ""
	}
	n := MaxQuote
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], "... (" + Bytes(int64(len(s))) + " bytes in all)"
}

// Capped is a string that formats capped: as Excerpt with %s and %v, as
// Quote with %q. Messages built with fmt wrap the inputs they quote in it:
// fmt.Errorf("unknown key %q", readfile.Capped(key)).
type Capped string

// Format implements fmt.Formatter.
func (c Capped) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		_, _ = io.WriteString(f, Quote(string(c)))
		return
	}
	_, _ = io.WriteString(f, Excerpt(string(c)))
}
