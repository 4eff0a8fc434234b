package yamlkeys

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

func TestDuplicates(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // KEY@LINE:COL (of the second) <- LINE:COL (of the first)
	}{
		{"none", "a: 1\nb: {c: 1, d: 2}\nl: [{x: 1}, {x: 2}]\n", nil},
		{"top level", "name: s\nsteps: [a]\nsteps: []\n", []string{"steps@3:1<-2:1"}},
		{"nested", "faults:\n  - match: {logicalId: A, logicalId: B}\n    fail: X\n", []string{"logicalId@2:27<-2:13"}},
		{"in a list item", "- a: 1\n  a: 2\n- a: 1\n", []string{"a@2:3<-1:3"}},
		{"three times", "a: 1\na: 2\na: 3\n", []string{"a@2:1<-1:1", "a@3:1<-1:1"}},
		{"quoted and plain are one key", "\"1\": a\n1: b\n", []string{"1@2:1<-1:1"}},
		{"JSON", `{"faults": [], "faults": [1]}`, []string{"faults@1:16<-1:2"}},
		{"merge keys are not keys", "base: &b {x: 1}\nm:\n  <<: *b\n  <<: *b\n  x: 2\n", nil},
		{"an alias is checked where it is written", "base: &b {x: 1, x: 2}\nm: *b\n", []string{"x@1:17<-1:11"}},
		{"keys that are mappings", "? {a: 1}\n: 1\n? {a: 1}\n: 2\n", nil},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range Duplicates(&doc) {
				got = append(got, fmt.Sprintf("%s@%d:%d<-%d:%d", d.Key, d.Again.Line, d.Again.Column, d.First.Line, d.First.Column))
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMessage(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("steps: [a]\nsteps: []\n"), &doc); err != nil {
		t.Fatal(err)
	}
	d := Duplicates(&doc)
	if len(d) != 1 {
		t.Fatal(d)
	}
	if got, want := d[0].Message(), `mapping key "steps" already defined at line 1, column 1; keep one (YAML would silently keep only the last)`; got != want {
		t.Fatalf("%s\nwant %s", got, want)
	}
}

func FuzzDuplicates(f *testing.F) {
	f.Add("a: 1\na: 2\n")
	f.Add("- {x: [1, {y: 2, y: 3}]}\n")
	f.Fuzz(func(t *testing.T, s string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(s), &doc) != nil {
			return
		}
		for _, d := range Duplicates(&doc) {
			if d.First == d.Again || d.First.Value != d.Again.Value || d.Key != d.Again.Value {
				t.Fatalf("bad duplicate %+v", d)
			}
		}
	})
}
