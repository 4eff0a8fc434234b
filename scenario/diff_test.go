package scenario

import "testing"

func TestDiff(t *testing.T) {
	cases := []struct{ name, want, got, diff string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"one line changed, three lines of context",
			"a\nb\nc\nd\ne\nf\ng\nh\ni\n", "a\nb\nc\nd\nE\nf\ng\nh\ni\n",
			"  b\n  c\n  d\n- e\n+ E\n  f\n  g\n  h\n"},
		{"a line added at the end", "a\nb\n", "a\nb\nc\n", "  a\n  b\n+ c\n  \n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Diff(c.want, c.got); got != c.diff {
				t.Errorf("Diff = %q, want %q", got, c.diff)
			}
		})
	}
}
