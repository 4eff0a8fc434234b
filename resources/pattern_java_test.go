package resources

import (
	"testing"
)

// Patterns Go's regexp refuses, as registry schemas write them (Java
// expressions), run on regexp2: each matches what Java's would.
func TestJavaPatterns(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		match   []string
		miss    []string
	}{
		// a negative lookahead: tag keys that do not begin "aws:"
		{`^(?!aws:)[a-zA-Z+-=._:/]+$`, []string{"team", "app:tier"}, []string{"aws:cloudformation:stack-name"}},
		// a length lookahead (Go refuses both the lookahead and \u escapes)
		{`^(?=.{40,128}$)arn.*`, []string{"arn:aws:rds:us-east-1:123456789012:cluster:aurora-one"}, []string{"arn:aws:rds", "db-one"}},
		{`[\u0020-\u007E]+`, []string{"plain text"}, []string{"\t\n"}},
		{`\A[0-9a-fA-F]+\Z`, []string{"00ff"}, []string{"00fg", "x00"}},
		// a repetition count over Go's 1,000
		{`^[a-zA-Z0-9_\-]{1,2048}$`, []string{"name_1"}, []string{"", "sp ace"}},
		// Java's POSIX classes, in a class and alone, and \P outside one
		{`^[\p{Graph}\x20]*$`, []string{"a b!~"}, []string{"tab\there"}},
		{`^\p{Print}+$`, []string{"Hello, World"}, []string{"é"}},
		{`^\P{Alpha}+$`, []string{"123"}, []string{"a1"}},
		// an escaped underscore, which .NET refuses and Java reads as "_"
		{`^(?!aws:.*)[a-zA-Z0-9\s\:\_\.\/\=\+\-]+$`, []string{"my_key"}, []string{"aws:x", "a*b"}},
		// a lookbehind
		{`^([a-zA-Z0-9]([a-zA-Z0-9-]){0,62})(?<!-)$`, []string{"endpoint-1"}, []string{"endpoint-"}},
	} {
		t.Run(tc.pattern, func(t *testing.T) {
			c := compilePattern(tc.pattern)
			if c.re != nil {
				t.Fatalf("Go's regexp compiles %q: not a case for regexp2", tc.pattern)
			}
			if c.java == nil {
				t.Fatalf("regexp2 does not compile it: %v", c.err)
			}
			for _, s := range tc.match {
				if !c.matches(s) {
					t.Errorf("%q does not match", s)
				}
			}
			for _, s := range tc.miss {
				if c.matches(s) {
					t.Errorf("%q matches", s)
				}
			}
		})
	}
}

// Every pattern of the registry's schemas compiles with one engine or the
// other, so that none is taken as matching everything.
func TestRegistryPatternsCompile(t *testing.T) {
	seen, java := map[string]bool{}, 0
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if p, ok := e.(string); ok && k == "pattern" && !seen[p] {
					seen[p] = true
					c := compilePattern(p)
					if c.err != nil {
						t.Errorf("pattern %q compiles with neither engine: %v", p, c.err)
					}
					if c.java != nil {
						java++
					}
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, typ := range RegistryTypes() {
		s, _, err := RegistrySchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		walk(s.document())
	}
	t.Logf("%d patterns, %d of them on regexp2", len(seen), java)
	if java == 0 {
		t.Fatal("no pattern ran on regexp2: the registry has lookaheads")
	}
}

func FuzzJavaToNET(f *testing.F) {
	for _, s := range []string{`[\p{Graph}\x20]*`, `\p{Print}+`, `\_`, `[\P{Alpha}]`, `\\p{Alpha}`, `\p{`, `[\]\p{Digit}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		_ = javaToNET(p) // never panics
		_, _ = compileJava(p)
	})
}
