package javapattern

import (
	"regexp/syntax"
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
			m, err := Compile(tc.pattern)
			if err != nil {
				t.Fatalf("regexp2 does not compile it: %v", err)
			}
			if _, onRegexp2 := m.(javaPattern); !onRegexp2 {
				t.Fatalf("Go's regexp compiles %q: not a case for regexp2", tc.pattern)
			}
			if m.String() != tc.pattern {
				t.Errorf("String() = %q, want the pattern as given", m.String())
			}
			for _, s := range tc.match {
				if !m.MatchString(s) {
					t.Errorf("%q does not match", s)
				}
			}
			for _, s := range tc.miss {
				if m.MatchString(s) {
					t.Errorf("%q matches", s)
				}
			}
			// the Go form parses (the generators walk it)
			if _, err := syntax.Parse(GoForm(tc.pattern), syntax.Perl); err != nil {
				t.Errorf("GoForm %q: %v", GoForm(tc.pattern), err)
			}
		})
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{`[\p{Graph}\x20]*`, `\p{Print}+`, `\_`, `[\P{Alpha}]`, `\\p{Alpha}`, `\p{`, `[\]\p{Digit}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		// never panics; whatever compiles answers
		if m, err := Compile(p); err == nil {
			_ = m.MatchString("sample-Value_1")
		}
		_ = GoForm(p)
		_, _, _ = LengthAhead(p)
	})
}

func TestLengthAhead(t *testing.T) {
	for _, tc := range []struct {
		p      string
		lo, hi int
		ok     bool
	}{
		{`(?=.{1,32}$)[a-z]+`, 1, 32, true},
		{`(?=^.{3,63}$)(?!^\d+$)[a-z0-9.-]+`, 3, 63, true},
		{`^[a-z]{1,32}$`, 0, 0, false},
		{`(?=.{9,3}$)x`, 9, 3, false},
	} {
		lo, hi, ok := LengthAhead(tc.p)
		if ok != tc.ok || ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("%s: %d %d %v, want %d %d %v", tc.p, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}
