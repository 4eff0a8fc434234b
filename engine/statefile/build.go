package statefile

import (
	"fmt"
	"slices"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// buildStore checks a decoded state and builds the store it describes:
// each table in turn (a method of builder each), rows checked for the keys
// and references the store needs (the engine checks what they mean).
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
	if cols := eventColumns(); !slices.Equal(doc.EventColumns, cols[:]) && !slices.Equal(doc.EventColumns, cols[:oldEventColumns]) {
		return nil, fmt.Errorf("eventColumns are %q, not %q", doc.EventColumns, cols)
	}
	b := &builder{s: s, w: s.Load(), doc: doc, byID: map[string]*store.StackRecord{}}
	defer b.w.Abort()
	for _, table := range []func() error{
		b.stacks, b.resources, b.events, b.exports, b.imports, b.objects,
		b.operations, b.steps, b.released, b.changeSets, b.tasks,
	} {
		if err := table(); err != nil {
			return nil, err
		}
	}
	b.w.Commit()
	return s, nil
}

// builder fills a store from a decoded state.
type builder struct {
	s   *store.Store
	w   *store.Loader
	doc *stateDoc
	// byID are the stacks of the file; ops the ids of its operations.
	byID map[string]*store.StackRecord
	ops  map[string]bool
}

// stackOf returns the stack a row names by StackId.
func (b *builder) stackOf(what, id string) (*store.StackRecord, error) {
	if st := b.byID[id]; st != nil {
		return st, nil
	}
	return nil, fmt.Errorf("%s names stack %q, which the file does not hold", what, id)
}

func (b *builder) stacks() error {
	nums := map[uint32]bool{}
	liveNames := map[string]string{}
	for i, st := range b.doc.Stacks {
		switch {
		case st == nil:
			return fmt.Errorf("stacks[%d] is null", i)
		case st.StackId == "" || st.StackName == "":
			return fmt.Errorf("stacks[%d] has no StackId or StackName", i)
		case st.Num == 0 || st.Num > b.s.Meta.Stacks:
			return fmt.Errorf("stack %s has Num %d, outside 1..counters.stacks (%d)", st.StackId, st.Num, b.s.Meta.Stacks)
		case nums[st.Num]:
			return fmt.Errorf("two stacks have Num %d", st.Num)
		case b.byID[st.StackId] != nil:
			return fmt.Errorf("two stacks have StackId %s", st.StackId)
		case st.StackStatus != statemachine.NotExist && !st.StackStatus.Valid():
			return fmt.Errorf("stack %s has an unknown status %q", st.StackId, st.StackStatus)
		}
		if st.Live() {
			if other, taken := liveNames[st.StackName]; taken {
				return fmt.Errorf("stacks %s and %s both hold the name %s", other, st.StackId, st.StackName)
			}
			liveNames[st.StackName] = st.StackId
		}
		b.byID[st.StackId] = st
		nums[st.Num] = true
		if err := b.w.Insert(st); err != nil {
			return err
		}
	}
	return nil
}

// resources fills the resources and retired tables.
func (b *builder) resources() error {
	for _, set := range []struct {
		name    string
		rows    []*store.ResourceRecord
		retired bool
	}{{"resources", b.doc.Resources, false}, {"retired", b.doc.Retired, true}} {
		for i, r := range set.rows {
			if r == nil || r.LogicalResourceId == "" {
				return fmt.Errorf("%s[%d] has no LogicalResourceId", set.name, i)
			}
			if (r.Retired != "") != set.retired {
				return fmt.Errorf("%s[%d] (%s): Retired must be set in retired and only there", set.name, i, r.LogicalResourceId)
			}
			st, err := b.stackOf(fmt.Sprintf("%s[%d]", set.name, i), r.StackId)
			if err != nil {
				return err
			}
			r.Num = st.Num
			if err := b.w.Insert(r); err != nil {
				return err
			}
		}
	}
	return nil
}

// events fills the events table: each stack's rows become chunks, and the
// bookkeeping that keeps event ids unique is made again from them.
func (b *builder) events() error {
	in := interner{}
	for i, se := range b.doc.Events {
		st, err := b.stackOf(fmt.Sprintf("events[%d]", i), se.StackId)
		if err != nil {
			return err
		}
		rows, err := parseEventRows(se.Events, in)
		if err != nil {
			return fmt.Errorf("events of stack %s: %w", st.StackId, err)
		}
		if err := b.stackEvents(st, rows); err != nil {
			return err
		}
	}
	return nil
}

// stackEvents stores one stack's events.
func (b *builder) stackEvents(st *store.StackRecord, rows [][numEventColumns]string) error {
	var (
		chunk *store.EventChunk
		d     *store.DupState
	)
	for j := range rows {
		rec, err := eventOf(&rows[j])
		if err != nil {
			return fmt.Errorf("event %d of stack %s: %w", j+1, st.StackId, err)
		}
		t := rec.Time
		if d != nil && t < d.At {
			return fmt.Errorf("event %d of stack %s is older than the event before it", j+1, st.StackId)
		}
		if d == nil || d.At != t {
			d = &store.DupState{At: t, N: map[uint64]uint16{}}
		}
		rec.OfStack = rec.Physical == st.StackId && rec.Type == store.StackResourceType
		if rec.Logical == "" || rec.Type == "" || rec.Status == "" {
			return fmt.Errorf("event %d of stack %s has no LogicalResourceId, ResourceType or ResourceStatus", j+1, st.StackId)
		}
		if !rec.OfStack {
			k := store.DupHash(rec.Logical, rec.Status)
			rec.Dup = d.N[k]
			d.N[k]++
		}
		if chunk == nil || len(chunk.Events) == store.EventChunkSize {
			if chunk != nil {
				if err := b.w.Insert(chunk); err != nil {
					return err
				}
			}
			size := min(len(rows)-j, store.EventChunkSize)
			chunk = &store.EventChunk{Num: st.Num, Chunk: uint32(j / store.EventChunkSize), Events: make([]store.EventRecord, 0, size)}
		}
		chunk.Events = append(chunk.Events, rec)
	}
	if chunk != nil {
		if err := b.w.Insert(chunk); err != nil {
			return err
		}
	}
	if d != nil {
		b.s.Dups[st.Num] = d
	}
	return nil
}

func (b *builder) exports() error {
	for i, x := range b.doc.Exports {
		if x == nil || x.Name == "" {
			return fmt.Errorf("exports[%d] has no Name", i)
		}
		if _, err := b.stackOf("export "+x.Name, x.StackId); err != nil {
			return err
		}
		if err := b.w.Insert(x); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) imports() error {
	for i, x := range b.doc.Imports {
		if x == nil || x.ExportName == "" {
			return fmt.Errorf("imports[%d] has no ExportName", i)
		}
		if _, err := b.stackOf(fmt.Sprintf("imports[%d]", i), x.StackId); err != nil {
			return err
		}
		if err := b.w.Insert(x); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) objects() error {
	for i, o := range b.doc.Objects {
		if o == nil || o.Type == "" || o.ID == "" {
			return fmt.Errorf("objects[%d] has no Type or ID", i)
		}
		var num uint32
		if st := b.byID[o.StackID]; st != nil {
			num = st.Num
		}
		if err := b.w.Insert(store.NewObjectRecord(num, o)); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) operations() error {
	b.ops = map[string]bool{}
	openOf := map[string]string{}
	for i, op := range b.doc.Operations {
		if op == nil || op.Id == "" {
			return fmt.Errorf("operations[%d] has no Id", i)
		}
		if _, err := b.stackOf("operation "+op.Id, op.StackId); err != nil {
			return err
		}
		if other, busy := openOf[op.StackId]; busy && op.Open {
			return fmt.Errorf("stack %s has two open operations, %s and %s", op.StackId, other, op.Id)
		}
		if op.Open {
			openOf[op.StackId] = op.Id
		}
		b.ops[op.Id] = true
		if err := b.w.Insert(op); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) steps() error {
	for i, st := range b.doc.Steps {
		if st == nil || !b.ops[st.OperationId] {
			return fmt.Errorf("steps[%d] belongs to no operation of the file", i)
		}
		if err := b.w.Insert(st); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) released() error {
	for i, x := range b.doc.Released {
		if x == nil || x.Type == "" || x.PhysicalId == "" {
			return fmt.Errorf("released[%d] has no Type or PhysicalId", i)
		}
		if err := b.w.Insert(x); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) changeSets() error {
	for i, cs := range b.doc.ChangeSets {
		if cs == nil || cs.Id == "" || cs.Name == "" {
			return fmt.Errorf("changesets[%d] has no Id or Name", i)
		}
		if _, err := b.stackOf("change set "+cs.Id, cs.StackId); err != nil {
			return err
		}
		if err := b.w.Insert(cs); err != nil {
			return err
		}
	}
	return nil
}

// tasks queues the tasks.
func (b *builder) tasks() error {
	seqs := map[uint64]bool{}
	for i, t := range b.doc.Tasks {
		switch {
		case t == nil || t.Kind == "":
			return fmt.Errorf("tasks[%d] has no Kind", i)
		case t.Seq == 0 || t.Seq > b.s.Meta.Tasks:
			return fmt.Errorf("task %d is outside 1..counters.tasks (%d)", t.Seq, b.s.Meta.Tasks)
		case seqs[t.Seq]:
			return fmt.Errorf("two tasks have Seq %d", t.Seq)
		case t.At.IsZero():
			return fmt.Errorf("task %d has no At", t.Seq)
		}
		seqs[t.Seq] = true
		b.s.LoadTask(t)
	}
	return nil
}
