package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

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
// Event ids and the bookkeeping behind them are not stored: they are made
// again from the events.

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
	Format     string              `json:"format"`
	Version    int                 `json:"version"`
	Region     string              `json:"region"`
	AccountID  string              `json:"accountId"`
	Partition  string              `json:"partition"`
	Seed       int64               `json:"seed"`
	Clock      time.Time           `json:"clock"`
	Counters   stateCounters       `json:"counters"`
	Stacks     []*stackRecord      `json:"stacks"`
	Resources  []*resourceRecord   `json:"resources"`
	Retired    []*resourceRecord   `json:"retired"`
	Events     []stateEvents       `json:"events"`
	Exports    []*exportRecord     `json:"exports"`
	Imports    []*importRecord     `json:"imports"`
	Objects    []*resources.Object `json:"objects"`
	Operations []*operationRecord  `json:"operations"`
	Steps      []*stepRecord       `json:"steps"`
	Tasks      []*Task             `json:"tasks"`
}

type stateCounters struct {
	IDs    uint64 `json:"ids"`
	Tasks  uint64 `json:"tasks"`
	Stacks uint32 `json:"stacks"`
}

// stateEvents are the events of one stack, oldest first.
type stateEvents struct {
	StackId string       `json:"StackId"`
	Events  []stateEvent `json:"Events"`
}

// stateEvent is one event: a StackEvent without what the stack gives and
// without its EventId.
type stateEvent struct {
	Timestamp            time.Time `json:"Timestamp"`
	LogicalResourceId    string    `json:"LogicalResourceId"`
	PhysicalResourceId   string    `json:"PhysicalResourceId,omitempty"`
	ResourceType         string    `json:"ResourceType"`
	ResourceStatus       string    `json:"ResourceStatus"`
	ResourceStatusReason string    `json:"ResourceStatusReason,omitempty"`
	ResourceProperties   string    `json:"ResourceProperties,omitempty"`
	ClientRequestToken   string    `json:"ClientRequestToken,omitempty"`
	// OfStack marks the stack's own events.
	OfStack bool `json:"OfStack,omitempty"`
}

// encodeState writes the committed state of s. The caller holds the
// engine's mutex and no write transaction is open.
func encodeState(s *store) ([]byte, error) {
	tx := s.read()
	var b bytes.Buffer
	w := &stateWriter{b: &b}
	b.WriteString(`{"format":"` + stateFormat + `","version":`)
	fmt.Fprint(&b, stateVersion)
	b.WriteString(",\n")
	w.field("region", s.id.Region, false)
	w.field("accountId", s.id.AccountID, false)
	w.field("partition", s.id.Partition, false)
	w.field("seed", s.id.Seed, true)
	w.field("clock", time.Unix(0, s.meta.Now).UTC(), false)
	w.field("counters", stateCounters{IDs: s.meta.IDs, Tasks: s.meta.Tasks, Stacks: s.meta.Stacks}, true)

	stacks := tx.allStacks()
	w.rows("stacks", len(stacks), func(i int) any { return stacks[i] })
	w.table(tx, "resources", tResources)
	w.table(tx, "retired", tRetired)
	w.rows("events", len(stacks), func(i int) any {
		st := stacks[i]
		var evs []stateEvent
		tx.eventsForward(st.Num, func(_ uint64, r *eventRecord) bool {
			evs = append(evs, stateEvent{
				Timestamp:            time.Unix(0, r.Time).UTC(),
				LogicalResourceId:    r.Logical,
				PhysicalResourceId:   r.Physical,
				ResourceType:         r.Type,
				ResourceStatus:       r.Status,
				ResourceStatusReason: r.Reason,
				ResourceProperties:   r.Properties,
				ClientRequestToken:   r.Token,
				OfStack:              r.OfStack,
			})
			return true
		})
		return eventsRow{st.StackId, evs}
	})
	w.table(tx, "exports", tExports)
	w.table(tx, "imports", tImports)
	var objs []*resources.Object
	tx.scan(tObjects, ixID, nil, func(r record) bool { objs = append(objs, r.(*objectRecord).Obj); return true })
	w.rows("objects", len(objs), func(i int) any { return objs[i] })
	w.table(tx, "operations", tOperations)
	w.table(tx, "steps", tSteps)
	tasks := s.queue.all()
	w.rows("tasks", len(tasks), func(i int) any { return tasks[i] })
	b.Truncate(b.Len() - 2) // the last ",\n"
	b.WriteString("}\n")
	if w.err != nil {
		return nil, w.err
	}
	return b.Bytes(), nil
}

// eventsRow writes one stack's events one per line.
type eventsRow struct {
	StackId string
	Events  []stateEvent
}

func (r eventsRow) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	id, _ := json.Marshal(r.StackId)
	b.WriteString(`{"StackId":`)
	b.Write(id)
	b.WriteString(`,"Events":[`)
	for i := range r.Events {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n")
		row, err := json.Marshal(&r.Events[i])
		if err != nil {
			return nil, err
		}
		b.Write(row)
	}
	b.WriteString("]}")
	return b.Bytes(), nil
}

type stateWriter struct {
	b   *bytes.Buffer
	err error
}

func (w *stateWriter) marshal(v any) []byte {
	if m, ok := v.(eventsRow); ok {
		// json.Marshal would compact the lines eventsRow lays out.
		out, err := m.MarshalJSON()
		if err != nil && w.err == nil {
			w.err = err
		}
		return out
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
func (w *stateWriter) table(tx *txn, name string, t tableID) {
	var rows []record
	tx.scan(t, ixID, nil, func(r record) bool { rows = append(rows, r); return true })
	w.rows(name, len(rows), func(i int) any { return rows[i] })
}
