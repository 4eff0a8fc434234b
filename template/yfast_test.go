package template

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzYAMLFastPath parses each body on the fast path and with the YAML
// library: the fast path must give the library path's tree (kinds, values,
// tags, positions, links) or bail out, and it must never take a body the
// library refuses. Seeds: template/testdata and, when the shared corpus is
// beside the project, every YAML template in it (read in place).
func FuzzYAMLFastPath(f *testing.F) {
	seedFiles(f, ".yaml", ".yml", ".template")
	f.Add(bigTemplate(3))
	for _, s := range yfastCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkYAMLFastPath(t, body)
	})
}

// checkYAMLFastPath compares the two paths on one body; it returns whether
// the fast path took it.
func checkYAMLFastPath(t *testing.T, body []byte) bool {
	t.Helper()
	fast, ok := parseYAMLFast(body)
	want, err := parseYAMLLibrary("f", body)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("fast path took a body the library refuses (%v):\n%s", err, body)
	}
	if d := diffTrees(fast, want); d != "" {
		t.Fatalf("trees differ: %s\nbody:\n%s", d, body)
	}
	return true
}

// yfastCases are bodies the fast path must take, and a few it must leave to
// the library.
var yfastCases = []string{
	"a: b\nc: [1, 2, {d: e}]\n",
	"--- # doc\na: !Ref X\nb: !GetAtt A.B\nc: !GetAtt [A, B]\n",
	"a:\n- x\n- y: z\n  w: v\n-   - n\n    - m\nb: c\n",
	"a: |\n  line1\n   line2\n\n  line3\nb: >-\n  folded\n  text\n\n  para\nc: |+\n  keep\n\nd: |2-\n    x\n",
	"a: 'it''s'\nb: \"esc \\t \\u00e9 \\x41 \\\\ \\\"\"\nc: \"multi\n  line\n\n  text\"\n",
	"a: plain\n  multi line\n\n  scalar # c\nb: 1\n",
	"a: !Sub\n  - \"${X}\"\n  - {X: !Ref Y}\nb: !Join\n  - ''\n  - [a, b]\n",
	"a: {b: [c, d], e: 'f'}\nf: [\n  1,\n  2\n  ]\n",
	"a: !!str 123\nb: !!int 7\nc: !!bool yes\nd: !!float 1.5\ne: yes\nf: 0123\ng: 2010-09-09\n",
	"\"quoted key\": v\n'k2': w\nk3 : x\n",
	"a: é\nb: !Ref ü\nc: [é, ü]\n",
	"a: &x 1\nb: *x\n",
	"a: b\n---\nc: d\n",
	"a:\n  b: c\n d: e\n",
	"a: b: c\n",
	"a:\tb\n",
	"a: {b}\n",
	"a: [b: c]\n",
	"<<: {a: b}\n",
	"a: b\na: c\n",
	"a:\n",
	"a: !Foo x\n",
	"a: !Base64\n  Fn::Sub: x\n",
	"a: !GetAZs ''\nb: !Condition C\n",
	"a: |\n  x\n# c\nb: y\n",
	"a: >\n  a\n    b\n  c\n",
	"- a\n",
	"{a: b}\n",
}

func TestYAMLFastPathCases(t *testing.T) {
	for _, s := range yfastCases {
		checkYAMLFastPath(t, []byte(s))
	}
	for _, s := range []string{yfastCases[0], yfastCases[1], yfastCases[2], yfastCases[3], yfastCases[4], yfastCases[5],
		yfastCases[6], yfastCases[7], yfastCases[8], yfastCases[9], yfastCases[10]} {
		if _, ok := parseYAMLFast([]byte(s)); !ok {
			t.Errorf("the fast path bailed out on\n%s", s)
		}
	}
	if !checkYAMLFastPath(t, bigTemplate(500)) {
		t.Error("the fast path bailed out on the benchmark template")
	}
}

// TestYAMLFastPathCorpus runs the comparison over every YAML template of
// the shared corpus, when it is there, and reports how many the fast path
// leaves to the library.
func TestYAMLFastPathCorpus(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "templates")
	var total, bailed int
	var names []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !hasExt(p, []string{".yaml", ".yml", ".template"}) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		total++
		if !checkYAMLFastPath(t, b) {
			bailed++
			names = append(names, strings.TrimPrefix(p, dir+"/"))
		}
		return nil
	})
	if total == 0 {
		t.Skip("no corpus")
	}
	t.Logf("fast path took %d of %d YAML templates; left to the library: %v", total-bailed, total, names)
}

func TestTagNames(t *testing.T) {
	for tag, long := range shortTags {
		if name, l := tagNames([]byte(tag)); name != tag || l != long {
			t.Errorf("tagNames(%s) = %q %q, want %q", tag, name, l, long)
		}
	}
	for _, tag := range []string{"!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!timestamp"} {
		if name, l := tagNames([]byte(tag)); name != tag || l != "" {
			t.Errorf("tagNames(%s) = %q %q", tag, name, l)
		}
	}
	for _, tag := range []string{"!", "!!", "!Foo", "!!seq", "!!map", "!ref", "!!merge"} {
		if name, _ := tagNames([]byte(tag)); name != "" {
			t.Errorf("tagNames(%s) = %q", tag, name)
		}
	}
}

// TestYAMLPrecheck puts every byte value at every offset of a word and
// compares the eight-bytes-at-a-time check with the byte-by-byte rule.
func TestYAMLPrecheck(t *testing.T) {
	for c := 0; c < 256; c++ {
		want := c == '\n' || (c >= 0x20 && c < 0x7F)
		for k := 0; k < 16; k++ {
			b := []byte("abcdefgh\nijklmnopqrstuvwxyz")
			b[k] = byte(c)
			ascii, ok := yamlPrecheck(b)
			if c >= 0x80 {
				want = false // a lone byte of a UTF-8 sequence is invalid
			}
			if ok != want || (ok && !ascii) {
				t.Fatalf("byte %#x at %d: ok %v ascii %v", c, k, ok, ascii)
			}
		}
	}
	for _, s := range []string{"é", "\u00a0", "日本", "😀"} {
		if ascii, ok := yamlPrecheck([]byte("abcdefgh" + s + "ijklmnop")); !ok || ascii {
			t.Errorf("%q: ok %v ascii %v", s, ok, ascii)
		}
	}
	for _, s := range []string{"\u0085", "\u2028", "\u2029", "\ufeff", "\ufffe", "\x7f", "\t", "\r"} {
		if _, ok := yamlPrecheck([]byte("abcdefgh" + s + "ijklmnop")); ok {
			t.Errorf("%q accepted", s)
		}
	}
}
