package jsonvalue

import (
	"bytes"
	"encoding/json"
	"testing"
)

// readString reads data, a whole JSON string, as the module's parsers do
// (AppendUnquoted): its value, and whether it is one whole valid string.
func readString(data []byte) (string, bool) {
	data = bytes.Trim(data, " \t\r\n") // JSON's whitespace, around the value
	if len(data) == 0 || data[0] != '"' {
		return "", false
	}
	buf, next, problem := AppendUnquoted(nil, data, 1)
	return string(buf), problem == StringOK && next == len(data)
}

func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{`"plain"`, `"é 日本 🙂"`, "\"A\xd4\xff\xfeWS\"", "\"\xe2\x82\"", "\"x\xff\\n\xc3\"",
		`"\ufffd"`, "\"\xef\xbf\xbd\"", "\"a\\u00e9\xff\"", `"\ud83d\ude42"`, `"\ud83d x"`, `""`,
		"\"a\x01\"", "\"a\\n\x1f\"", `"\x"`, `"\u12"`, `"\u12g4"`, `"open`, `"back\`, `"a"b"`} {
		var want string
		werr := json.Unmarshal([]byte(s), &want)
		got, ok := readString([]byte(s))
		if ok != (werr == nil) || ok && got != want {
			t.Errorf("%q: read %q (valid %v), encoding/json %q (%v)", s, got, ok, want, werr)
		}
	}
}

func TestStringProblems(t *testing.T) {
	for _, c := range []struct {
		body string
		want StringProblem
		at   int
	}{
		{`ab"`, StringOK, 3}, {"a\x01\"", StringControl, 1}, {`a\q"`, StringBadEscape, 1},
		{`a\u12"`, StringBadUnicode, 1}, {`ab`, StringUnterminated, 2}, {`ab\`, StringUnterminated, 2},
	} {
		_, next, p := AppendUnquoted(nil, []byte(c.body), 0)
		if p != c.want || next != c.at {
			t.Errorf("%q: problem %d at %d, want %d at %d", c.body, p, next, c.want, c.at)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{`"x"`, "\"\xff\"", `"\u00e9"`, `"\ud83d"`, "\"\x00\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		werr := json.Unmarshal(data, &want)
		got, ok := readString(data)
		if ok != (werr == nil) {
			t.Fatalf("%q: valid %v, encoding/json says %v", data, ok, werr)
		}
		if ok && got != want {
			t.Fatalf("%q: read %q, encoding/json %q", data, got, want)
		}
	})
}
