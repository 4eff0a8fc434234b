package jsonvalue

import (
	"encoding/json"
	"testing"
)

// TestAppendEscapeMatchesEncodingJSON: every escape, pairs of surrogates,
// lone halves and what follows them, decoded as encoding/json decodes a
// string holding it; malformed escapes refused.
func TestAppendEscapeMatchesEncodingJSON(t *testing.T) {
	for _, lit := range []string{
		`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\u2028`,
		`\ud83c\udf89`, `\ud83c`, `\ud83cx`, `\ud83c\u0041`, `\udf89\ud83c`, `\ud83c\n`,
	} {
		var want string
		if err := json.Unmarshal([]byte(`"`+lit+`"`), &want); err != nil {
			t.Fatalf("%s: %v", lit, err)
		}
		b := []byte(lit)
		var got []byte
		for i := 0; i < len(b); {
			if b[i] != '\\' {
				got = append(got, b[i])
				i++
				continue
			}
			var ok bool
			if got, i, ok = AppendEscape(got, b, i); !ok {
				t.Fatalf("%s: refused at %d", lit, i)
			}
		}
		if string(got) != want {
			t.Errorf("%s: %q, encoding/json %q", lit, got, want)
		}
	}
	for _, bad := range []string{`\`, `\x`, `\u12`, `\u12G4`, `\U0041`} {
		if _, _, ok := AppendEscape(nil, []byte(bad), 0); ok {
			t.Errorf("%s: accepted", bad)
		}
	}
}
