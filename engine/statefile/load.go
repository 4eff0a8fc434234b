package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
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
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("state file ")
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

// buildStore checks a decoded state and builds the store it describes.
func buildStore(doc *stateDoc) (*store.Store, error) {
	if doc.Region == "" || doc.AccountID == "" || doc.Partition == "" {
		return nil, fmt.Errorf("region, accountId and partition are required")
	}
	if doc.Clock.IsZero() {
		return nil, fmt.Errorf("clock is required")
	}
	s, err := store.New(store.Identity{Region: doc.Region, AccountID: doc.AccountID, Partition: doc.Partition, Seed: doc.Seed},
		doc.Clock.UnixNano())
	if err != nil {
		return nil, err
	}
	s.Meta.IDs, s.Meta.Tasks, s.Meta.Stacks = doc.Counters.IDs, doc.Counters.Tasks, doc.Counters.Stacks
	if cols := eventColumns(); !slices.Equal(doc.EventColumns, cols[:]) {
		return nil, fmt.Errorf("eventColumns are %q, not %q", doc.EventColumns, cols)
	}

	w := s.Load()
	defer w.Abort()
	insert := w.Insert

	byID := map[string]*store.StackRecord{}
	nums := map[uint32]bool{}
	liveNames := map[string]string{}
	for i, st := range doc.Stacks {
		switch {
		case st == nil:
			return nil, fmt.Errorf("stacks[%d] is null", i)
		case st.StackId == "" || st.StackName == "":
			return nil, fmt.Errorf("stacks[%d] has no StackId or StackName", i)
		case st.Num == 0 || st.Num > s.Meta.Stacks:
			return nil, fmt.Errorf("stack %s has Num %d, outside 1..counters.stacks (%d)", st.StackId, st.Num, s.Meta.Stacks)
		case nums[st.Num]:
			return nil, fmt.Errorf("two stacks have Num %d", st.Num)
		case byID[st.StackId] != nil:
			return nil, fmt.Errorf("two stacks have StackId %s", st.StackId)
		case st.StackStatus != statemachine.NotExist && !st.StackStatus.Valid():
			return nil, fmt.Errorf("stack %s has an unknown status %q", st.StackId, st.StackStatus)
		}
		if st.Live() {
			if other, taken := liveNames[st.StackName]; taken {
				return nil, fmt.Errorf("stacks %s and %s both hold the name %s", other, st.StackId, st.StackName)
			}
			liveNames[st.StackName] = st.StackId
		}
		byID[st.StackId] = st
		nums[st.Num] = true
		if err := insert(st); err != nil {
			return nil, err
		}
	}
	stackOf := func(what, id string) (*store.StackRecord, error) {
		if st := byID[id]; st != nil {
			return st, nil
		}
		return nil, fmt.Errorf("%s names stack %q, which the file does not hold", what, id)
	}

	for _, set := range []struct {
		name    string
		rows    []*store.ResourceRecord
		retired bool
	}{{"resources", doc.Resources, false}, {"retired", doc.Retired, true}} {
		for i, r := range set.rows {
			if r == nil || r.LogicalResourceId == "" {
				return nil, fmt.Errorf("%s[%d] has no LogicalResourceId", set.name, i)
			}
			if (r.Retired != "") != set.retired {
				return nil, fmt.Errorf("%s[%d] (%s): Retired must be set in retired and only there", set.name, i, r.LogicalResourceId)
			}
			st, err := stackOf(fmt.Sprintf("%s[%d]", set.name, i), r.StackId)
			if err != nil {
				return nil, err
			}
			r.Num = st.Num
			if err := insert(r); err != nil {
				return nil, err
			}
		}
	}

	in := interner{}
	for i, se := range doc.Events {
		st, err := stackOf(fmt.Sprintf("events[%d]", i), se.StackId)
		if err != nil {
			return nil, err
		}
		rows, err := parseEventRows(se.Events, in)
		if err != nil {
			return nil, fmt.Errorf("events of stack %s: %w", st.StackId, err)
		}
		var (
			chunk *store.EventChunk
			d     *store.DupState
		)
		for j, ev := range rows {
			ts, err := time.Parse(time.RFC3339Nano, ev[0])
			if err != nil {
				return nil, fmt.Errorf("event %d of stack %s: Timestamp: %w", j+1, st.StackId, err)
			}
			t := ts.UnixNano()
			if d != nil && t < d.At {
				return nil, fmt.Errorf("event %d of stack %s is older than the event before it", j+1, st.StackId)
			}
			if d == nil || d.At != t {
				d = &store.DupState{At: t, N: map[uint64]uint16{}}
			}
			rec := store.EventRecord{
				Time: t, Logical: ev[1], Physical: ev[2], Type: ev[3], Status: ev[4], Reason: ev[5], Properties: textOf(ev[6]),
				Token: ev[7], OfStack: ev[2] == st.StackId && ev[3] == store.StackResourceType,
			}
			if rec.Logical == "" || rec.Type == "" || rec.Status == "" {
				return nil, fmt.Errorf("event %d of stack %s has no LogicalResourceId, ResourceType or ResourceStatus", j+1, st.StackId)
			}
			if !rec.OfStack {
				k := store.DupHash(rec.Logical, rec.Status)
				rec.Dup = d.N[k]
				d.N[k]++
			}
			if chunk == nil || len(chunk.Events) == store.EventChunkSize {
				if chunk != nil {
					if err := insert(chunk); err != nil {
						return nil, err
					}
				}
				no := uint32(j / store.EventChunkSize)
				size := min(len(rows)-j, store.EventChunkSize)
				chunk = &store.EventChunk{Num: st.Num, Chunk: no, Events: make([]store.EventRecord, 0, size)}
			}
			chunk.Events = append(chunk.Events, rec)
		}
		if chunk != nil {
			if err := insert(chunk); err != nil {
				return nil, err
			}
		}
		if d != nil {
			s.Dups[st.Num] = d
		}
	}

	for i, x := range doc.Exports {
		if x == nil || x.Name == "" {
			return nil, fmt.Errorf("exports[%d] has no Name", i)
		}
		if _, err := stackOf("export "+x.Name, x.StackId); err != nil {
			return nil, err
		}
		if err := insert(x); err != nil {
			return nil, err
		}
	}
	for i, x := range doc.Imports {
		if x == nil || x.ExportName == "" {
			return nil, fmt.Errorf("imports[%d] has no ExportName", i)
		}
		if _, err := stackOf(fmt.Sprintf("imports[%d]", i), x.StackId); err != nil {
			return nil, err
		}
		if err := insert(x); err != nil {
			return nil, err
		}
	}
	for i, o := range doc.Objects {
		if o == nil || o.Type == "" || o.ID == "" {
			return nil, fmt.Errorf("objects[%d] has no Type or ID", i)
		}
		var num uint32
		if st := byID[o.StackID]; st != nil {
			num = st.Num
		}
		if err := insert(store.NewObjectRecord(num, o)); err != nil {
			return nil, err
		}
	}
	ops := map[string]bool{}
	opOf := map[string]string{}
	for i, op := range doc.Operations {
		if op == nil || op.Id == "" {
			return nil, fmt.Errorf("operations[%d] has no Id", i)
		}
		if _, err := stackOf("operation "+op.Id, op.StackId); err != nil {
			return nil, err
		}
		if other, busy := opOf[op.StackId]; busy && op.Open {
			return nil, fmt.Errorf("stack %s has two open operations, %s and %s", op.StackId, other, op.Id)
		}
		if op.Open {
			opOf[op.StackId] = op.Id
		}
		ops[op.Id] = true
		if err := insert(op); err != nil {
			return nil, err
		}
	}
	for i, st := range doc.Steps {
		if st == nil || !ops[st.OperationId] {
			return nil, fmt.Errorf("steps[%d] belongs to no operation of the file", i)
		}
		if err := insert(st); err != nil {
			return nil, err
		}
	}
	for i, x := range doc.Released {
		if x == nil || x.Type == "" || x.PhysicalId == "" {
			return nil, fmt.Errorf("released[%d] has no Type or PhysicalId", i)
		}
		if err := insert(x); err != nil {
			return nil, err
		}
	}
	for i, cs := range doc.ChangeSets {
		if cs == nil || cs.Id == "" || cs.Name == "" {
			return nil, fmt.Errorf("changesets[%d] has no Id or Name", i)
		}
		if _, err := stackOf("change set "+cs.Id, cs.StackId); err != nil {
			return nil, err
		}
		if err := insert(cs); err != nil {
			return nil, err
		}
	}
	seqs := map[uint64]bool{}
	for i, t := range doc.Tasks {
		switch {
		case t == nil || t.Kind == "":
			return nil, fmt.Errorf("tasks[%d] has no Kind", i)
		case t.Seq == 0 || t.Seq > s.Meta.Tasks:
			return nil, fmt.Errorf("task %d is outside 1..counters.tasks (%d)", t.Seq, s.Meta.Tasks)
		case seqs[t.Seq]:
			return nil, fmt.Errorf("two tasks have Seq %d", t.Seq)
		case t.At.IsZero():
			return nil, fmt.Errorf("task %d has no At", t.Seq)
		}
		seqs[t.Seq] = true
		s.LoadTask(t)
	}
	w.Commit()
	return s, nil
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
