package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

// The state file: the whole store as versioned JSON.
//
//	{"format":"stacksim-state","version":1,
//	"region":"us-east-1","accountId":"123456789012","partition":"aws","seed":0,
//	"clock":"2025-01-01T00:05:00Z","counters":{"ids":4,"tasks":12,"stacks":1},
//	"stacks":[
//	{...one stack...}],
//	"resources":[ ... ],
//	...
//	"tasks":[ ... ]}
//
// One row per line, tables in a fixed order, rows in key order, map keys
// sorted: the same state gives the same bytes. Numbers inside models are
// decoded as json.Number, so that they come back exactly as they were.
// Events, the bulk of a state, are rows of strings in the column order of
// "eventColumns" (trailing empty columns left out); their ids and the
// bookkeeping behind them are not stored: they are made again from the
// events.

// numEventColumns is the number of columns of an event row.
const numEventColumns = 9

// eventColumns are the columns of an event row. Operation is the
// operation that wrote the event, as store.OpTag writes it ("3
// UPDATE_STACK"); files written before it was kept have the first 8
// columns only, and their events no operation.
func eventColumns() [numEventColumns]string {
	return [...]string{"Timestamp", "LogicalResourceId", "PhysicalResourceId", "ResourceType",
		"ResourceStatus", "ResourceStatusReason", "ResourceProperties", "ClientRequestToken", "Operation"}
}

// oldEventColumns is how many columns files written before the
// Operation column have.
const oldEventColumns = 8

// eventCols is an event as a row of eventColumns, props its
// ResourceProperties text.
func eventCols(e *store.EventRecord, props string) [numEventColumns]string {
	return [numEventColumns]string{time.Unix(0, e.Time).UTC().Format(time.RFC3339Nano), e.Logical, e.Physical, e.Type,
		e.Status, e.Reason, props, e.Token, e.Op.String()}
}

// eventOf is the event of a row of eventColumns (OfStack and Dup are the
// caller's to set).
func eventOf(row *[numEventColumns]string) (store.EventRecord, error) {
	ts, err := time.Parse(time.RFC3339Nano, row[0])
	if err != nil {
		return store.EventRecord{}, fmt.Errorf("Timestamp: %w", err)
	}
	op, err := store.ParseOpTag(row[8])
	if err != nil {
		return store.EventRecord{}, fmt.Errorf("Operation: %w", err)
	}
	return store.EventRecord{Time: ts.UnixNano(), Logical: row[1], Physical: row[2], Type: row[3], Status: row[4],
		Reason: row[5], Properties: textOf(row[6]), Token: row[7], Op: op}, nil
}

const (
	stateFormat  = "stacksim-state"
	stateVersion = 1
)

// stateHeader is the part of the file read first, to refuse a file that is
// not a state file of this version before anything else.
type stateHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// stateDoc is the whole file.
type stateDoc struct {
	Format    string        `json:"format"`
	Version   int           `json:"version"`
	Region    string        `json:"region"`
	AccountID string        `json:"accountId"`
	Partition string        `json:"partition"`
	Seed      int64         `json:"seed"`
	Clock     time.Time     `json:"clock"`
	Counters  stateCounters `json:"counters"`
	// EventColumns names the columns of event rows.
	EventColumns []string                 `json:"eventColumns"`
	Stacks       []*store.StackRecord     `json:"stacks"`
	Resources    []*store.ResourceRecord  `json:"resources"`
	Retired      []*store.ResourceRecord  `json:"retired"`
	Events       []stateEvents            `json:"events"`
	Exports      []*store.ExportRecord    `json:"exports"`
	Imports      []*store.ImportRecord    `json:"imports"`
	Objects      []*resources.Object      `json:"objects"`
	Operations   []*store.OperationRecord `json:"operations"`
	Steps        []*store.StepRecord      `json:"steps"`
	Released     []*store.ReleasedRecord  `json:"released"`
	ChangeSets   []*store.ChangeSetRecord `json:"changesets"`
	Tasks        []*store.Task            `json:"tasks"`
}

type stateCounters struct {
	IDs    uint64 `json:"ids"`
	Tasks  uint64 `json:"tasks"`
	Stacks uint32 `json:"stacks"`
}

// stateEvents are the events of one stack, oldest first, as rows of
// eventColumns. A stack's own events are those whose PhysicalResourceId is
// the stack's id and whose type is AWS::CloudFormation::Stack (a nested
// stack resource has its own stack's id).
type stateEvents struct {
	StackId string          `json:"StackId"`
	Events  json.RawMessage `json:"Events"`
}

// Encode writes the committed state of s. The caller holds the
// engine's mutex and no write transaction is open.
func Encode(s *store.Store) ([]byte, error) {
	tx := s.Read()
	var b bytes.Buffer
	w := &stateWriter{b: &b}
	b.WriteString(`{"format":"` + stateFormat + `","version":`)
	fmt.Fprint(&b, stateVersion)
	b.WriteString(",\n")
	w.field("region", s.ID.Region, false)
	w.field("accountId", s.ID.AccountID, false)
	w.field("partition", s.ID.Partition, false)
	w.field("seed", s.ID.Seed, true)
	w.field("clock", time.Unix(0, s.Meta.Now).UTC(), false)
	w.field("counters", stateCounters{IDs: s.Meta.IDs, Tasks: s.Meta.Tasks, Stacks: s.Meta.Stacks}, true)
	w.field("eventColumns", eventColumns(), true)

	stacks := tx.AllStacks()
	w.rows("stacks", len(stacks), func(i int) any { return stacks[i] })
	w.table(tx, "resources", store.TResources)
	w.table(tx, "retired", store.TRetired)
	w.rows("events", len(stacks), func(i int) any {
		return eventsRow{tx: tx, st: stacks[i]}
	})
	w.table(tx, "exports", store.TExports)
	w.table(tx, "imports", store.TImports)
	var objs []*resources.Object
	tx.Scan(store.TObjects, store.IxID, "", func(r store.Record) bool { objs = append(objs, r.(*store.ObjectRecord).Obj); return true })
	w.rows("objects", len(objs), func(i int) any { return objs[i] })
	w.table(tx, "operations", store.TOperations)
	w.table(tx, "steps", store.TSteps)
	w.table(tx, "released", store.TReleased)
	w.table(tx, "changesets", store.TChangeSets)
	tasks := s.Queue.All()
	for _, t := range tasks {
		t.StepText()
		if err := t.EncodeCallback(); err != nil {
			return nil, fmt.Errorf("task %d: its callback context: %w", t.Seq, err)
		}
	}
	w.rows("tasks", len(tasks), func(i int) any { return tasks[i] })
	b.Truncate(b.Len() - 2) // the last ",\n"
	b.WriteString("}\n")
	if w.err != nil {
		return nil, w.err
	}
	return b.Bytes(), nil
}

// eventsRow writes one stack's events, one per line. Events are most of a
// state, so this is written by hand rather than through reflection, straight
// into the output.
type eventsRow struct {
	tx *store.Txn
	st *store.StackRecord
}

func (r eventsRow) appendTo(b []byte) []byte {
	b = append(b, `{"StackId":`...)
	b = appendJSONString(b, r.st.StackId)
	b = append(b, `,"Events":[`...)
	first := true
	var cols [numEventColumns]string
	r.tx.EventsForward(r.st.Num, func(_ uint64, e *store.EventRecord) bool {
		if !first {
			b = append(b, ',')
		}
		first = false
		cols = eventCols(e, e.PropertiesText())
		n := len(cols)
		for n > 0 && cols[n-1] == "" {
			n--
		}
		b = append(b, "\n["...)
		for i, c := range cols[:n] {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, c)
		}
		b = append(b, ']')
		return true
	})
	return append(b, "]}"...)
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

type stateWriter struct {
	b   *bytes.Buffer
	err error
}

func (w *stateWriter) marshal(v any) []byte {
	if r, ok := v.(eventsRow); ok {
		// Room for the rows first, so that they are appended in place.
		w.b.Grow(int(r.tx.EventCount(r.st.Num))*256 + 256)
		w.b.Write(r.appendTo(w.b.AvailableBuffer()))
		return nil
	}
	out, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = err
	}
	return out
}

// field writes "name":value, and a line break after it when br.
func (w *stateWriter) field(name string, v any, br bool) {
	w.b.WriteString(`"` + name + `":`)
	w.b.Write(w.marshal(v))
	if br {
		w.b.WriteString(",\n")
	} else {
		w.b.WriteByte(',')
	}
}

// rows writes "name":[row,row...] with one row per line.
func (w *stateWriter) rows(name string, n int, row func(i int) any) {
	w.b.WriteString(`"` + name + `":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.b.WriteByte('\n')
		w.b.Write(w.marshal(row(i)))
	}
	w.b.WriteString("],\n")
}

// table writes every row of a table, in key order.
func (w *stateWriter) table(tx *store.Txn, name string, t store.TableID) {
	var rows []store.Record
	tx.Scan(t, store.IxID, "", func(r store.Record) bool { rows = append(rows, r); return true })
	w.rows(name, len(rows), func(i int) any { return rows[i] })
}
