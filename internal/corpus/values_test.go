package corpus

import (
	"regexp"
	"testing"
)

func TestFromPattern(t *testing.T) {
	for _, tt := range []struct {
		pattern string
		min     int
	}{
		{"[a-z]+", 0},
		{"^[a-zA-Z][-a-zA-Z0-9]*$", 5},
		{`(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})/(\d{1,2})`, 0},
		{"(dev|prod)", 0},
		{`[a-z0-9-]{3,63}`, 3},
	} {
		s, ok := fromPatternLen(tt.pattern, tt.min)
		if !ok {
			t.Errorf("%s: no string", tt.pattern)
			continue
		}
		if !regexp.MustCompile("^(?:"+tt.pattern+")$").MatchString(s) || len(s) < tt.min {
			t.Errorf("%s: %q does not match", tt.pattern, s)
		}
	}
}
