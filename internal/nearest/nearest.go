package nearest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Name returns the name of known nearest to got, compared without case,
// when it is fewer than 3 edits away; "" when none is.
func Name(got string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := levenshtein.ComputeDistance(strings.ToLower(got), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}
