package template

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// diffTrees returns the first difference between two trees (kinds, values,
// tags, positions of nodes and keys, fields in order), or "". A nil and an
// empty list of items or fields are the same.
func diffTrees(a, b *Node) string {
	return diffNode(a, b, "")
}

func diffNode(a, b *Node, path string) string {
	switch {
	case a == nil && b == nil:
		return ""
	case a == nil || b == nil:
		return fmt.Sprintf("%s: nil %v vs %v", path, a == nil, b == nil)
	}
	if a.Kind != b.Kind || a.Value != b.Value || a.Tag != b.Tag || a.Pos != b.Pos {
		return fmt.Sprintf("%s: %s %q %s @%v vs %s %q %s @%v", path, a.Kind, a.Value, a.Tag, a.Pos, b.Kind, b.Value, b.Tag, b.Pos)
	}
	if a.fn != b.fn || a.flags != b.flags {
		return fmt.Sprintf("%s: call %d/%d flags %d/%d", path, a.fn, b.fn, a.flags, b.flags)
	}
	if len(a.Items) != len(b.Items) || len(a.Fields) != len(b.Fields) {
		return fmt.Sprintf("%s: %d/%d items, %d/%d fields", path, len(a.Items), len(b.Items), len(a.Fields), len(b.Fields))
	}
	for i := range a.Items {
		if a.Items[i].parent != a || b.Items[i].parent != b || int(a.Items[i].index) != i {
			return fmt.Sprintf("%s/%d: parent link", path, i)
		}
		if d := diffNode(a.Items[i], b.Items[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	for i := range a.Fields {
		fa, fb := a.Fields[i], b.Fields[i]
		p := path + "/" + fa.Key
		if fa.Key != fb.Key || fa.KeyPos != fb.KeyPos {
			return fmt.Sprintf("%s: key %q@%v vs %q@%v", p, fa.Key, fa.KeyPos, fb.Key, fb.KeyPos)
		}
		if fa.Value.parent != a || fb.Value.parent != b || int(fa.Value.index) != i {
			return fmt.Sprintf("%s: parent link", p)
		}
		if d := diffNode(fa.Value, fb.Value, p); d != "" {
			return d
		}
	}
	return ""
}

// seedFiles adds to f every file of template/testdata and, when the shared
// corpus is beside the project, every template in it whose name ends with
// one of exts (never copied into the project: read at test time).
func seedFiles(f *testing.F, exts ...string) int {
	n := 0
	for _, dir := range []string{"testdata", filepath.Join("..", "..", "shared", "corpus", "templates")} {
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if dir != "testdata" && !hasExt(p, exts) {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
				n++
			}
			return nil
		})
	}
	return n
}

func hasExt(p string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(strings.ToLower(p), e) {
			return true
		}
	}
	return false
}

// FuzzJSONParser checks the JSON parser against the reference parser it
// replaced (parse_json_ref_test.go): the same tree with the same positions,
// or the same error.
func FuzzJSONParser(f *testing.F) {
	seedFiles(f, ".json")
	f.Add([]byte("{\"a\": \"\xc3\xa9\\u00e9\", \"b\": [1, -2.5e+3, true, false, null]}"))
	f.Add([]byte("{\"\xc3\xa9\": {\"x\": \"\\ud83d\\ude00\"},\n \"c\": \"\xff\"}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		checkJSONAgainstReference(t, body)
	})
}

func checkJSONAgainstReference(t *testing.T, body []byte) {
	t.Helper()
	got, gerr := parseJSON("f", body)
	want, werr := refParseJSON("f", body)
	if (gerr == nil) != (werr == nil) {
		t.Fatalf("error %v, reference %v", gerr, werr)
	}
	if gerr != nil {
		if gerr.Error() != werr.Error() {
			t.Fatalf("error\n%v\nreference\n%v", gerr, werr)
		}
		return
	}
	want.link()
	if d := diffTrees(got, want); d != "" {
		t.Fatalf("trees differ: %s", d)
	}
}

func TestJSONParserMatchesReference(t *testing.T) {
	bodies := [][]byte{bigTemplateJSON(t, 50)}
	for _, s := range []string{
		`{"a": tru}`, `{"a": nul}`, `{"a": 01}`, `{"a": -}`, `{"a": 1.}`, `{"a": 1e}`, "{\"a\": \"\xc3\xa9\xff\"}",
		"{\"a\":\n \"\xc3\xa9\xc3\xa9\", \"b\": x}", "{\"a\": \"\\u12\"}", "{\"a\": \"\\q\"}", `{"a": "\ud800"}`,
		"{\"\xc3\xa9\": 1, \"\xc3\xa9\": 2}", "{\"a\": \"\xc3\xa9\\n\xc3\xa9\"\n, \"b\" 1}", `[1, 2`, `{"a": [1 2]}`, `{} x`,
	} {
		bodies = append(bodies, []byte(s))
	}
	for _, b := range bodies {
		checkJSONAgainstReference(t, b)
	}
}
