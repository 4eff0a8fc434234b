package scenario

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/internal/readfile"
)

// Error is a problem in a scenario file: where (FILE:LINE:COL), what, and
// how to fix it.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Errors is every problem found in a scenario file, by position.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// errs collects the problems of one file.
type errs struct {
	file string
	list Errors
}

func (c *errs) at(n *yaml.Node, format string, args ...any) {
	e := &Error{File: c.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col = n.Line, n.Column
	}
	c.list = append(c.list, e)
}

func (c *errs) err() error {
	if len(c.list) == 0 {
		return nil
	}
	sort.SliceStable(c.list, func(i, j int) bool {
		a, b := c.list[i], c.list[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return c.list
}

// suggest returns ` (did you mean "X"?)` for the closest of names, when it
// is close enough.
func suggest(got string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		d := levenshtein.ComputeDistance(strings.ToLower(got), strings.ToLower(n))
		if d < bestD {
			best, bestD = n, d
		}
	}
	if best != "" && bestD <= max(2, len(got)/3) {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}

// kindName names a node's kind for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return readfile.Quote(n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "a document"
}
