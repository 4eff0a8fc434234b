package pyjson

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
)

// cases are texts with what Python 3.11's json.loads says of them
// (recorded with the machine's python3; TestMatchesPython checks them
// again where python3 is installed). "" is a text Python accepts.
var cases = []struct{ text, want string }{
	{`{"StackName": "a"}`, ""},
	{`  [1, -2.5e+3, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]  `, ""},
	{`[-Infinity, NaN, Infinity]`, ""},
	{`"\ud800\ud800"`, ""},
	{`{"StackName": "a",`, "Expecting property name enclosed in double quotes: line 1 column 19 (char 18)"},
	{"{\"StackName\": \"a\",\n", "Expecting property name enclosed in double quotes: line 2 column 1 (char 19)"},
	{`{"StackName" "a"}`, "Expecting ':' delimiter: line 1 column 14 (char 13)"},
	{`{"StackName": "a" "x": 1}`, "Expecting ',' delimiter: line 1 column 19 (char 18)"},
	{`{"StackName": "a}`, "Unterminated string starting at: line 1 column 15 (char 14)"},
	{`[1 2]`, "Expecting ',' delimiter: line 1 column 4 (char 3)"},
	{``, "Expecting value: line 1 column 1 (char 0)"},
	{`  `, "Expecting value: line 1 column 3 (char 2)"},
	{`{"a": 1} x`, "Extra data: line 1 column 10 (char 9)"},
	{`{"a": tru}`, "Expecting value: line 1 column 7 (char 6)"},
	{`{"a": "\q"}`, `Invalid \escape: line 1 column 8 (char 7)`},
	{"{\"a\": \"x\ty\"}", "Invalid control character at: line 1 column 9 (char 8)"},
	{`{"a": [1,}`, "Expecting value: line 1 column 10 (char 9)"},
	{`{"a": 1,}`, "Expecting property name enclosed in double quotes: line 1 column 9 (char 8)"},
	{`{"é": "a", x}`, "Expecting property name enclosed in double quotes: line 1 column 12 (char 11)"},
	{"{\n  \"é\": \"ü\",\n  \"b\" 1}", "Expecting ':' delimiter: line 3 column 7 (char 20)"},
	{`{"StackName": "a"`, "Expecting ',' delimiter: line 1 column 18 (char 17)"},
	{`{"a":`, "Expecting value: line 1 column 6 (char 5)"},
	{`{"a"`, "Expecting ':' delimiter: line 1 column 5 (char 4)"},
	{`{`, "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"},
	{`[`, "Expecting value: line 1 column 2 (char 1)"},
	{`[1, 2`, "Expecting ',' delimiter: line 1 column 6 (char 5)"},
	{`"x`, "Unterminated string starting at: line 1 column 1 (char 0)"},
	{`"\`, "Unterminated string starting at: line 1 column 1 (char 0)"},
	{`nul`, "Expecting value: line 1 column 1 (char 0)"},
	{`{"a": 1e}`, "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{`[1e+]`, "Expecting ',' delimiter: line 1 column 3 (char 2)"},
	{`[1.]`, "Expecting ',' delimiter: line 1 column 3 (char 2)"},
	{`[1.5e]`, "Expecting ',' delimiter: line 1 column 5 (char 4)"},
	{`{"a": -}`, "Expecting value: line 1 column 7 (char 6)"},
	{`[-I]`, "Expecting value: line 1 column 2 (char 1)"},
	{`{"a": 01}`, "Expecting ',' delimiter: line 1 column 8 (char 7)"},
	{`"\u00`, `Invalid \uXXXX escape: line 1 column 3 (char 2)`},
	{`"\u0041`, `Invalid \uXXXX escape: line 1 column 3 (char 2)`},
	{`"\u00zz"`, `Invalid \uXXXX escape: line 1 column 3 (char 2)`},
	{`"\ud800\u00zz"`, `Invalid \uXXXX escape: line 1 column 9 (char 8)`},
	{`"\ud800\u12"`, `Invalid \uXXXX escape: line 1 column 9 (char 8)`},
	{`"\ud800\x"`, `Invalid \escape: line 1 column 8 (char 7)`},
	{"\ufeff{}", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"},
	{`[{"ParameterKey": "a",}]`, "Expecting property name enclosed in double quotes: line 1 column 23 (char 22)"},
}

func TestCheck(t *testing.T) {
	for _, c := range cases {
		err := Check(c.text)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("Check(%q) = %q, want %q", c.text, got, c.want)
		}
		var se *SyntaxError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("Check(%q): %T, want *SyntaxError", c.text, err)
		}
	}
}

func TestDepth(t *testing.T) {
	ok := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if err := Check(ok); err != nil {
		t.Errorf("%d levels: %v", maxDepth, err)
	}
	deep := "[" + ok + "]"
	if err := Check(deep); err == nil || !strings.HasPrefix(err.Error(), "exceeded max depth") {
		t.Errorf("%d levels: %v, want exceeded max depth", maxDepth+1, err)
	}
	if json.Valid([]byte(deep)) || !json.Valid([]byte(ok)) {
		t.Errorf("encoding/json's depth limit is not %d", maxDepth)
	}
}

// TestMatchesPython runs the cases through the machine's python3, so the
// recorded messages are Python's and not this package's guesses.
func TestMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the recorded messages are not re-checked against json.loads")
	}
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	texts = append(texts, mutations(3000)...)
	in, _ := json.Marshal(texts)
	script := `import json, sys
for t in json.loads(sys.stdin.read()):
    try:
        json.loads(t); print("")
    except ValueError as e:
        print(e)`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(texts) {
		t.Fatalf("python3 answered %d lines for %d texts:\n%s", len(got), len(texts), out)
	}
	for i, c := range cases {
		if got[i] != c.want {
			t.Errorf("json.loads(%q) says %q; the case records %q", c.text, got[i], c.want)
		}
	}
	for i, text := range texts[len(cases):] {
		mine := ""
		if err := Check(text); err != nil {
			mine = err.Error()
		}
		if want := got[len(cases)+i]; mine != want {
			t.Errorf("Check(%q) = %q, json.loads says %q", text, mine, want)
		}
	}
}

// mutations are n texts made from the cases by deleting, inserting or
// replacing a few characters, from a fixed seed: near-JSON, where the
// scanners' paths part.
func mutations(n int) []string {
	const alphabet = "{}[]\",:\\u0123456789abcdefABCDEF.eE+-tnrulsNI \n\t\x01é"
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, 0, n)
	for len(out) < n {
		b := []rune(cases[r.IntN(len(cases))].text)
		for k := 1 + r.IntN(3); k > 0; k-- {
			i := r.IntN(len(b) + 1)
			c := []rune(alphabet)[r.IntN(len([]rune(alphabet)))]
			switch r.IntN(3) {
			case 0:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			case 1:
				b = append(b[:i], append([]rune{c}, b[i:]...)...)
			default:
				if i < len(b) {
					b[i] = c
				}
			}
		}
		out = append(out, string(b))
	}
	return out
}

// FuzzCheck: Check never panics, points inside the text, and accepts
// exactly what encoding/json accepts, but for Python's NaN and Infinity.
func FuzzCheck(f *testing.F) {
	for _, c := range cases {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		err := Check(text)
		var se *SyntaxError
		if err != nil {
			if !errors.As(err, &se) {
				t.Fatalf("%T", err)
			}
			if se.Pos < 0 || se.Pos > len([]rune(text)) || se.Line < 1 || se.Col < 1 {
				t.Fatalf("Check(%q) points outside the text: %v", text, err)
			}
		}
		if strings.Contains(text, "NaN") || strings.Contains(text, "Infinity") || strings.HasPrefix(text, "\ufeff") {
			return
		}
		if valid := json.Valid([]byte(text)); valid != (err == nil) {
			t.Fatalf("Check(%q) = %v, but encoding/json.Valid = %v", text, err, valid)
		}
	})
}
