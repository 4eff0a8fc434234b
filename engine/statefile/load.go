package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
)

// Error says why a state file was refused: what is wrong, where, and
// what to do. A refused file is never written to.
type Error struct {
	Path string
	// Line and Column (1-based) and Offset (bytes) locate a syntax or type
	// error; 0 when the problem has no position.
	Line, Column int
	Offset       int64
	Problem      string
	Hint         string
	Err          error
	// Import: Path is a file given to `state import` (what `state
	// export` wrote), not the state file: the state file was not touched.
	Import bool
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Import {
		b.WriteString("state import ")
	} else {
		b.WriteString("state file ")
	}
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Problem)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (byte %d)", e.Offset)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

const (
	hintCorrupt = "the file is not valid stacksim state (damaged, truncated or edited); it was left as it is: restore it from a copy, or move it away to start from an empty world"
	hintVersion = "it was written by a different version of stacksim; it was left as it is: use that version, or move the file away to start from an empty world"
	hintFormat  = "it is not a stacksim state file; it was left as it is: give the path of a state file, or a path where none exists yet"
)

// Import hints: the file refused is the one given to import, and the
// state file was not touched.
var importHints = map[string]string{
	hintCorrupt: "it is not a state that 'stacksim state export' wrote (truncated or edited); the state file was not touched: export the state again, or mend the file at the place given",
	hintVersion: "it was exported by a different version of stacksim; the state file was not touched: import it with that version",
	hintFormat:  "it is not a state that 'stacksim state export' wrote; the state file was not touched: give the file that state export wrote",
}

// DecodeExport reads a state that `state export` wrote (a file given to
// `state import`, named name in errors) into a store. Its errors are
// Decode's, marked Import: they name that file, and say that the state
// file was not touched.
func DecodeExport(name string, data []byte) (*store.Store, error) {
	st, err := Decode(name, data)
	if err != nil {
		return nil, AsImportError(err)
	}
	return st, nil
}

// AsImportError marks a refusal of a state's content (*Error) as one of a
// file given to import; other errors are returned as they are.
func AsImportError(err error) error {
	var se *Error
	if !errors.As(err, &se) {
		return err
	}
	c := *se
	c.Import = true
	if h, ok := importHints[c.Hint]; ok {
		c.Hint = h
	}
	return &c
}

// Decode reads a state file's bytes into a store. path names the file
// in errors.
func Decode(path string, data []byte) (*store.Store, error) {
	h, err := readHeader(data)
	if err != nil {
		return nil, jsonStateError(path, data, err)
	}
	if h.Format != stateFormat {
		problem := fmt.Sprintf("its format is %q, not %q", h.Format, stateFormat)
		if h.Format == "" {
			problem = fmt.Sprintf("it has no \"format\": %q", stateFormat)
		}
		return nil, &Error{Path: path, Problem: problem, Hint: hintFormat}
	}
	if h.Version != stateVersion {
		return nil, &Error{Path: path, Hint: hintVersion,
			Problem: fmt.Sprintf("its format version is %d; this stacksim reads version %d", h.Version, stateVersion)}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc stateDoc
	if err := dec.Decode(&doc); err != nil {
		return nil, jsonStateError(path, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		off := dec.InputOffset()
		line, col := position(data, off)
		return nil, &Error{Path: path, Line: line, Column: col, Offset: off,
			Problem: "unexpected data after the end of the state", Hint: hintCorrupt}
	}
	s, err := buildStore(&doc)
	if err != nil {
		return nil, &Error{Path: path, Problem: "it is inconsistent: " + err.Error(), Hint: hintCorrupt, Err: err}
	}
	return s, nil
}

// readHeader reads the format and version. A state file begins with them,
// so a few tokens are enough; anything else is checked in full.
func readHeader(data []byte) (stateHeader, error) {
	var h stateHeader
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		k1, _ := dec.Token()
		v1, _ := dec.Token()
		k2, _ := dec.Token()
		v2, _ := dec.Token()
		f, fok := v1.(string)
		v, vok := v2.(json.Number)
		if k1 == "format" && k2 == "version" && fok && vok {
			if n, err := v.Int64(); err == nil {
				return stateHeader{Format: f, Version: int(n)}, nil
			}
		}
	}
	// json.Unmarshal checks the whole text (trailing data included) before
	// it decodes: a syntax error anywhere is found here.
	err := json.Unmarshal(data, &h)
	return h, err
}

// jsonStateError locates a JSON decoding error in the file.
func jsonStateError(path string, data []byte, err error) error {
	var (
		syn *json.SyntaxError
		typ *json.UnmarshalTypeError
		off int64
	)
	problem := err.Error()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		problem = "JSON syntax error: " + syn.Error()
	case errors.As(err, &typ):
		off = typ.Offset
		field := typ.Field
		if field == "" {
			field = "a value"
		}
		problem = fmt.Sprintf("%s holds a JSON %s where %s belongs", field, typ.Value, typ.Type)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		off = int64(len(data))
		problem = "the file ends in the middle of the state (truncated)"
	default:
		return &Error{Path: path, Problem: problem, Hint: hintCorrupt, Err: err}
	}
	line, col := position(data, off)
	return &Error{Path: path, Line: line, Column: col, Offset: off, Problem: problem, Hint: hintCorrupt, Err: err}
}

// position returns the 1-based line and column of a byte offset.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// textOf is a loaded event's ResourceProperties as its record keeps them:
// nil for none, else the text.
func textOf(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// maxProblemsShown caps the problems an Inconsistent error lists.
const maxProblemsShown = 10

// Inconsistent is the error of a file whose rows decode but do not make a
// consistent world (the engine's invariants: problems name the table and
// key of each row at fault). The file is left as it is.
func Inconsistent(path string, problems []string) *Error {
	shown := problems
	if len(shown) > maxProblemsShown {
		shown = shown[:maxProblemsShown]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "it is inconsistent (%d problem(s)):", len(problems))
	for _, p := range shown {
		b.WriteString("\n  ")
		b.WriteString(p)
	}
	if n := len(problems) - len(shown); n > 0 {
		fmt.Fprintf(&b, "\n  ... and %d more", n)
	}
	b.WriteString("\n")
	return &Error{Path: path, Problem: b.String(), Hint: hintCorrupt}
}
