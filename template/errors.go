package template

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error is a fault of the template, or of the values bound to it, with the
// place in the template it comes from. Message is worded as AWS words it
// ("Template format error: ...", "Template error: ..."); Detail, when set,
// adds what the parser knows beyond AWS's words.
type Error struct {
	File      string
	Line, Col int
	// Path is the JSON pointer of the offending node, such as
	// /Resources/A/Properties/X, or "" when the error is about the body.
	Path    string
	Message string
	Detail  string

	err error // a wrapped cause: ErrUnsupported, or the Resolver's error
}

// ErrUnsupported is wrapped by the errors of features Parse does not run
// (transforms other than AWS::LanguageExtensions and Fn::Transform, which
// run before it; modules; Hooks):
// errors.Is(err, ErrUnsupported) tells a template stacksim cannot run from a
// template that is wrong.
var ErrUnsupported = errors.New("not supported by stacksim")

// Error renders FILE:LINE:COL: MESSAGE.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	b.WriteString(e.Message)
	if e.Detail != "" {
		b.WriteString(" (")
		b.WriteString(e.Detail)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the cause: ErrUnsupported or the Resolver's error.
func (e *Error) Unwrap() error { return e.err }

// Pos returns the position of the error.
func (e *Error) Pos() Pos { return Pos{e.Line, e.Col} }

// Errors is every fault found in one pass, sorted by position, so that a
// user fixes them all at once. It is returned only when there are two or
// more; a single fault is returned as its *Error.
type Errors []*Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is and errors.As look at each error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// AsList returns the errors of err: the list of an Errors, the one *Error,
// or nil when err holds none.
func AsList(err error) []*Error {
	var es Errors
	if errors.As(err, &es) {
		return es
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	return nil
}

// collector gathers the errors of one pass.
type collector struct {
	file string
	list []*Error
}

// at records an error at node n (its position and path).
func (c *collector) at(n *Node, format string, args ...any) *Error {
	e := &Error{File: c.file, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Col, e.Path = n.Pos.Line, n.Pos.Col, n.Path()
	}
	c.list = append(c.list, e)
	return e
}

// atPos records an error at a position with a path.
func (c *collector) atPos(p Pos, path, format string, args ...any) *Error {
	e := &Error{File: c.file, Line: p.Line, Col: p.Col, Path: path, Message: fmt.Sprintf(format, args...)}
	c.list = append(c.list, e)
	return e
}

func (c *collector) add(e *Error) { c.list = append(c.list, e) }

func (c *collector) empty() bool { return len(c.list) == 0 }

// err returns nil, the single *Error or the sorted Errors.
func (c *collector) err() error { return joinErrors(c.list) }

func joinErrors(list []*Error) error {
	switch len(list) {
	case 0:
		return nil
	case 1:
		return list[0]
	}
	sorted := make([]*Error, len(list))
	copy(sorted, list)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	// Drop exact duplicates (one fault reached by two paths).
	out := sorted[:0]
	for i, e := range sorted {
		if i > 0 {
			p := sorted[i-1]
			if p.Line == e.Line && p.Col == e.Col && p.Message == e.Message && p.Path == e.Path {
				continue
			}
		}
		out = append(out, e)
	}
	if len(out) == 1 {
		return out[0]
	}
	return Errors(out)
}

// nodeError builds an error at node n outside a collector.
func nodeError(file string, n *Node, format string, args ...any) *Error {
	c := collector{file: file}
	return c.at(n, format, args...)
}
