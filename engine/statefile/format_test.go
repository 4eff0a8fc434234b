package statefile

import (
	"encoding/json"
	"testing"
	"unsafe"
)

func TestStatePositions(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	for _, c := range []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {5, 2, 3}, {7, 4, 1}, {9, 4, 3}, {99, 4, 3}} {
		if l, col := position(data, c.off); l != c.line || col != c.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uote`, `back\slash`, "line\nbreak\r\t", "\x00\x01\x1f", "é ü 日本 🙂",
		"<html>&amp;", "\u2028\u2029", "bad\xffutf8", string([]byte{0xe2, 0x82})} {
		out := appendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, out, err)
		}
		std, _ := json.Marshal(s)
		var want string
		_ = json.Unmarshal(std, &want)
		if back != want {
			t.Errorf("%q: round trip gives %q", s, back)
		}
	}
}

func TestParseEventRows(t *testing.T) {
	in := interner{}
	rows, err := parseEventRows([]byte(` [ ["a","b\"c\\d\/e\n\u00e9\ud83d\ude42"] , [] ,["x","y","","AWS::SNS::Topic"]]`), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][1] != "b\"c\\d/e\né🙂" || rows[1][0] != "" || rows[2][3] != "AWS::SNS::Topic" {
		t.Fatalf("%q", rows)
	}
	again, _ := parseEventRows([]byte(`[["AWS::SNS::Topic"]]`), in)
	if unsafeSameString(again[0][0], rows[2][3]) == false {
		t.Fatal("equal strings were not interned")
	}
	for _, bad := range []string{``, `{}`, `[1]`, `[[1]]`, `[["a"`, `[["a",]]`, `[["a"]`, `[["\x"]]`, `[["\u12"]]`,
		`[["1","2","3","4","5","6","7","8","9","10"]]`, "[[\"a\nb\"]]"} {
		if _, err := parseEventRows([]byte(bad), in); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// An event row's string reads as encoding/json reads it, a byte that is
// not UTF-8 included (U+FFFD), so a state that loads saves the same again.
func TestParseEventRowsReadsStringsAsEncodingJSON(t *testing.T) {
	for _, raw := range []string{`"plain"`, `"é 日本 🙂"`, "\"A\xd4\xff\xfeWS\"", "\"\xe2\x82\"", "\"x\xff\\n\xc3\"",
		`"\ufffd"`, "\"\xef\xbf\xbd\"", "\"a\\u00e9\xff\""} {
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		rows, err := parseEventRows([]byte("[["+raw+"]]"), interner{})
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if rows[0][0] != want {
			t.Errorf("%q reads as %q, encoding/json reads %q", raw, rows[0][0], want)
		}
	}
	for _, bad := range []string{"[[\"a\\n\x01\"]]", "[[\"\xff\x1f\"]]"} {
		if _, err := parseEventRows([]byte(bad), interner{}); err == nil {
			t.Errorf("%q (a control character after an escape) was accepted", bad)
		}
	}
}

// unsafeSameString reports whether a and b share their bytes.
func unsafeSameString(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}
