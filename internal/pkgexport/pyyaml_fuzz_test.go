package pkgexport

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stacksim/stacksim/template"
)

// FuzzYAMLString: every string the writer is given reads back as the same text
// (plain, single-quoted, double-quoted with escapes, split over lines at
// any column), and writing it never panics.
//
//	go test ./internal/pkgexport -run '^$' -fuzz '^FuzzYAMLString$' -fuzztime 60s
func FuzzYAMLString(f *testing.F) {
	for _, s := range []string{"", "plain", "it's", "a: b", "- x", "1", "true", "null", "\t", "é", "\x07",
		strings.Repeat("words ", 20), strings.Repeat("w", 70) + strings.Repeat("\t", 40) + " end",
		strings.Repeat("x ", 50) + "\\ \"q\" \u2028", " leading", "trailing ", "a\nb", "a\n\nb\n", "#c", "{x}", "[y]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, '\uFEFF') || strings.ContainsRune(s, '\r') {
			return // a template is UTF-8; a BOM or CR inside a value is not kept by YAML readers
		}
		in, _ := json.Marshal(map[string]string{"V": s})
		root, err := template.ParseTree("in.json", in)
		if err != nil {
			return // a string the template reader refuses (control characters)
		}
		out := YAML(root)
		back, err := template.ParseTree("out.yaml", out)
		if err != nil {
			t.Fatalf("%q written as\n%s\ndoes not read back: %v", s, out, err)
		}
		// The text, not the kind: PyYAML writes plain what YAML 1.1 takes
		// for a string and YAML 1.2 for a number (0E0), as the AWS CLI does.
		if v := back.Get("V"); v == nil || v.Value != s {
			t.Fatalf("%q written as\n%s\nreads back as %#v", s, out, v)
		}
	})
}
