package statemachine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agnivade/levenshtein"
)

// UnknownStatusError says that a name is not a status of the machine asked
// about, with the closest names and, when the name belongs to the other
// machine, which.
type UnknownStatusError struct {
	Machine     string   // "stack" or "resource": the machine asked about
	Input       string   // the name as given
	Suggestions []string // the closest statuses of Machine, closest first
	OtherKind   string   // "resource" or "stack" when Input is a status of that machine only
}

func (e *UnknownStatusError) Error() string {
	if e.OtherKind != "" {
		return fmt.Sprintf("%s is a %s status, not a %s status", normalize(e.Input), e.OtherKind, e.Machine)
	}
	if len(e.Suggestions) > 0 {
		return fmt.Sprintf("unknown %s status %q; did you mean %s?", e.Machine, e.Input, orList(e.Suggestions))
	}
	return fmt.Sprintf("unknown %s status %q", e.Machine, e.Input)
}

// ParseStackStatus returns the stack status named by s. As a convenience it
// accepts lower case and hyphens ("update-rollback-failed"). An unknown name
// is an *UnknownStatusError.
func ParseStackStatus(s string) (StackStatus, error) {
	name := normalize(s)
	if st := StackStatus(name); st.Valid() {
		return st, nil
	}
	err := &UnknownStatusError{Machine: "stack", Input: s, Suggestions: closest(name, names(stackStatuses[:]))}
	if ResourceStatus(name).Valid() {
		err.OtherKind = "resource"
	}
	return "", err
}

// ParseResourceStatus returns the resource status named by s, accepting lower
// case and hyphens. An unknown name is an *UnknownStatusError.
func ParseResourceStatus(s string) (ResourceStatus, error) {
	name := normalize(s)
	if st := ResourceStatus(name); st.Valid() {
		return st, nil
	}
	err := &UnknownStatusError{Machine: "resource", Input: s, Suggestions: closest(name, names(resourceStatuses[:]))}
	if StackStatus(name).Valid() {
		err.OtherKind = "stack"
	}
	return "", err
}

func normalize(s string) string {
	s = strings.ToUpper(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_").Replace(s)
}

func names[S ~string](ss []S) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}

// closest returns up to three candidates nearest to name by edit distance,
// nearest first (ties in candidate order). A candidate further than half its
// length is no suggestion, unless it contains name.
func closest(name string, candidates []string) []string {
	type scored struct {
		s string
		d int
	}
	var ss []scored
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(name, c)
		// A fragment of a name ("ROLLBACK_FAIL") suggests it however much
		// is missing; otherwise the candidate must be half right.
		if d <= len(c)/2 || (len(name) >= 4 && strings.Contains(c, name)) {
			ss = append(ss, scored{c, d})
		}
	}
	slices.SortStableFunc(ss, func(a, b scored) int { return a.d - b.d })
	var out []string
	for i := 0; i < len(ss) && i < 3; i++ {
		out = append(out, ss[i].s)
	}
	return out
}

func orList(ss []string) string {
	switch len(ss) {
	case 1:
		return ss[0]
	case 2:
		return ss[0] + " or " + ss[1]
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " or " + ss[len(ss)-1]
}
