package yamlerr

import (
	"errors"
	"testing"

	"go.yaml.in/yaml/v4"
)

// The positions are PyYAML's problem and context marks for the same
// bodies (what CloudFormation reports), 1-based.
func TestOf(t *testing.T) {
	tests := []struct {
		name, src string
		want      Syntax
		detail    string
	}{
		{"missing colon", "Resources:\n  X:\n    Type: T\n    Properties\n      Name: y\n",
			Syntax{Line: 5, Col: 11, Problem: "mapping values are not allowed in this context"},
			"mapping values are not allowed in this context"},
		{"unclosed flow sequence", "a: [1, 2\nb: 3\n",
			Syntax{Line: 2, Col: 2, Problem: "did not find expected ',' or ']'", Context: "while parsing a flow sequence", ContextLine: 1, ContextCol: 4},
			"did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"},
		{"bad indentation", "A:\n  B: 1\n C: 2\n",
			Syntax{Line: 3, Col: 2, Problem: "did not find expected key", Context: "while parsing a block mapping", ContextLine: 1, ContextCol: 1},
			"did not find expected key (while parsing a block mapping at line 1, column 1)"},
		{"tab", "a:\n\tb: 1\n",
			Syntax{Line: 2, Col: 1, Problem: "found character that cannot start any token"},
			"found character that cannot start any token"},
		{"flow sequence at end", "faults: [\n",
			Syntax{Line: 2, Col: 1, Problem: "did not find expected node content"},
			"did not find expected node content"},
		{"unclosed quote", "a: 'b\n",
			Syntax{Line: 2, Col: 1, Problem: "found unexpected end of stream", Context: "while scanning a quoted scalar", ContextLine: 1, ContextCol: 4},
			"found unexpected end of stream (while scanning a quoted scalar at line 1, column 4)"},
		{"undefined alias", "a: *b\n",
			Syntax{Line: 1, Col: 4, Problem: `unknown anchor 'b' referenced`},
			`unknown anchor 'b' referenced`},
		{"column in characters", "é: [1\n",
			Syntax{Line: 2, Col: 1, Problem: "did not find expected ',' or ']'", Context: "while parsing a flow sequence", ContextLine: 1, ContextCol: 4},
			"did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"},
		// At the end of a body without a final line break, PyYAML's mark
		// is after the last character; the library's is on a line after it.
		{"end without a line break", "[",
			Syntax{Line: 1, Col: 2, Problem: "did not find expected node content"},
			"did not find expected node content"},
		{"end without a line break, in characters", "é: [1",
			Syntax{Line: 1, Col: 6, Problem: "did not find expected ',' or ']'", Context: "while parsing a flow sequence", ContextLine: 1, ContextCol: 4},
			"did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"},
		{"end after blanks", "a:\n  b: [x, \n  ",
			Syntax{Line: 3, Col: 3, Problem: "did not find expected node content"},
			"did not find expected node content"},
		{"end after a comment", "a: [1\r\n# c",
			Syntax{Line: 2, Col: 4, Problem: "did not find expected ',' or ']'", Context: "while parsing a flow sequence", ContextLine: 1, ContextCol: 4},
			"did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n yaml.Node
			err := yaml.Unmarshal([]byte(tt.src), &n)
			if err == nil {
				t.Fatal("no error")
			}
			got, ok := Of(err, []byte(tt.src))
			if !ok {
				t.Fatalf("Of(%v) found no syntax error", err)
			}
			if got != tt.want {
				t.Errorf("Of = %+v\nwant %+v", got, tt.want)
			}
			if d := got.Detail(); d != tt.detail {
				t.Errorf("Detail = %q, want %q", d, tt.detail)
			}
			if m := Message(err, []byte(tt.src)); m != tt.detail {
				t.Errorf("Message = %q, want %q", m, tt.detail)
			}
		})
	}
}

func TestOfOtherErrors(t *testing.T) {
	var v struct{ A int }
	err := yaml.Unmarshal([]byte("a: [1]\n"), &v)
	if err == nil {
		t.Fatal("no type error")
	}
	if s, ok := Of(err, []byte("a: [1]\n")); ok {
		t.Errorf("a type error read as a syntax error: %+v", s)
	}
	plain := errors.New("yaml: something else")
	if _, ok := Of(plain, nil); ok {
		t.Error("a plain error read as a syntax error")
	}
	if m := Message(plain, nil); m != "something else" {
		t.Errorf("Message = %q", m)
	}
}
