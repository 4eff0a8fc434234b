package api

import (
	"bytes"
	"encoding/xml"
	"math/rand/v2"
	"testing"
)

// text writes what xml.EscapeText writes, for values with nothing to
// escape (its fast path) and for every other kind of byte.
func TestXMLTextMatchesEscapeText(t *testing.T) {
	inputs := []string{"", "plain", "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1", "2025-01-01T00:00:00Z",
		`a"b`, "a'b", "a&b", "a<b>", "tab\there", "nl\nx", "cr\rx", "\x00\x01\x7f", "é😀", "\xff\xfe", "\ufffd", "~ !#$%()*+,-./:;=?@[]^_`{|}"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = byte(r.IntN(256))
			if r.IntN(3) > 0 {
				b[i] = byte(0x20 + r.IntN(0x5f))
			}
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		var want bytes.Buffer
		_ = xml.EscapeText(&want, []byte(in))
		s := newXMLSerializer("", nil)
		s.text(in)
		if got := s.buf.String(); got != want.String() {
			t.Errorf("%q: %q, want %q", in, got, want.String())
		}
	}
}
