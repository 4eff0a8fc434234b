package store

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"time"
)

// TaskKind names what a task does; the loop dispatches on it (the engine's loop).
type TaskKind string

// Task is one thing the event loop will do at a virtual time: data, never a
// closure, so that a queue in motion is saved with the state file and a
// later process continues it. Tasks run in (At, Seq) order: at one instant,
// in the order they were scheduled.
type Task struct {
	// Seq is the task's number, given when it is scheduled (insertion
	// order; unique).
	Seq uint64
	// At is the virtual time the task is due.
	At time.Time
	// Kind selects the handler.
	Kind TaskKind
	// StackId and OperationId are the stack and operation the task works
	// for ("" when none).
	StackId     string `json:",omitempty"`
	OperationId string `json:",omitempty"`
	// Step is the step the task works on: a step index, a logical id...
	// as the kind's handler understands it.
	Step string `json:",omitempty"`
	// Attempt is the handler attempt (1 for the first call; grows with
	// retries after retriable failures).
	Attempt int `json:",omitempty"`
	// CallbackContext is the callbackContext of an IN_PROGRESS answer, to
	// hand back on re-invocation.
	CallbackContext json.RawMessage `json:",omitempty"`
	// Data is anything else the kind's handler needs.
	Data json.RawMessage `json:",omitempty"`

	at  int64 // At in nanoseconds since the Unix epoch
	pos int   // index in the heap; -1 when not queued
	// cc is the callback context as the handler answered it, when it is a
	// JSON value already (see Callback); CallbackContext is made from
	// it when the state is saved.
	cc map[string]any
	// step and gen are an invoke or deadline task's step and generation
	// (hasStep); Step and Data are made from them when the state is saved.
	step, gen uint32
	hasStep   bool
}

// Due is when the task is due, in nanoseconds since the Unix epoch.
func (t *Task) Due() int64 { return t.at }

// SetCallback gives the task the callback context to hand back, as the
// handler answered it (a JSON value already: see Callback).
func (t *Task) SetCallback(cc map[string]any) { t.cc = cc }

func (t *Task) Before(u *Task) bool {
	if t.at != u.at {
		return t.at < u.at
	}
	return t.Seq < u.Seq
}

// TaskQueue is a binary min-heap of tasks by (At, Seq).
type TaskQueue struct {
	h []*Task
}

func (q *TaskQueue) Len() int { return len(q.h) }

// Peek returns the next task without removing it, or nil.
func (q *TaskQueue) Peek() *Task {
	if len(q.h) == 0 {
		return nil
	}
	return q.h[0]
}

func (q *TaskQueue) Push(t *Task) {
	t.pos = len(q.h)
	q.h = append(q.h, t)
	q.up(t.pos)
}

// Remove takes t out of the queue (a no-op when it is not in it).
func (q *TaskQueue) Remove(t *Task) {
	i := t.pos
	if i < 0 || i >= len(q.h) || q.h[i] != t {
		return
	}
	last := len(q.h) - 1
	if i != last {
		q.swap(i, last)
	}
	q.h[last] = nil
	q.h = q.h[:last]
	t.pos = -1
	if i != last {
		if !q.down(i) {
			q.up(i)
		}
	}
}

// All returns the queued tasks in run order (a copy).
func (q *TaskQueue) All() []*Task {
	out := make([]*Task, len(q.h))
	copy(out, q.h)
	sortTasks(out)
	return out
}

func (q *TaskQueue) swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.h[i].pos = i
	q.h[j].pos = j
}

func (q *TaskQueue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].Before(q.h[p]) {
			return
		}
		q.swap(i, p)
		i = p
	}
}

// down sifts i down and reports whether it moved.
func (q *TaskQueue) down(i int) bool {
	start, n := i, len(q.h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.h[r].Before(q.h[l]) {
			m = r
		}
		if !q.h[m].Before(q.h[i]) {
			break
		}
		q.swap(i, m)
		i = m
	}
	return i > start
}

func sortTasks(ts []*Task) {
	slices.SortFunc(ts, func(a, b *Task) int {
		switch {
		case a.Before(b):
			return -1
		case b.Before(a):
			return 1
		}
		return 0
	})
}

// Schedule queues a task. Seq is given here; a zero At means now; an At in
// the past runs as soon as the loop reaches it (the clock never goes back).
// The task is the queue's from now on: do not change it.
func (tx *Txn) Schedule(t *Task) *Task {
	tx.MustWrite()
	tx.Meta.Tasks++
	t.Seq = tx.Meta.Tasks
	if t.At.IsZero() {
		t.at = tx.Meta.Now
	} else {
		t.at = t.At.UnixNano()
	}
	t.At = time.Unix(0, t.at).UTC()
	tx.Store.Queue.Push(t)
	tx.journal = append(tx.journal, undo{kind: undoQueuePush, obj: t})
	return t
}

// ScheduleAfter queues a task due d after now.
func (tx *Txn) ScheduleAfter(d time.Duration, t *Task) *Task {
	t.At = time.Unix(0, tx.Meta.Now+int64(d)).UTC()
	return tx.Schedule(t)
}

// NextTask returns the next task due, without removing it, or nil.
func (tx *Txn) NextTask() *Task { return tx.Store.Queue.Peek() }

// Unschedule removes a queued task.
func (tx *Txn) Unschedule(t *Task) {
	tx.MustWrite()
	if t.pos < 0 {
		return
	}
	tx.Store.Queue.Remove(t)
	tx.journal = append(tx.journal, undo{kind: undoQueuePop, obj: t})
}

// Tasks returns the queued tasks for which match is true (nil: all), in run
// order. O(queue): for cancellations and inspection, not for every step.
func (tx *Txn) Tasks(match func(*Task) bool) []*Task {
	var out []*Task
	for _, t := range tx.Store.Queue.h {
		if match == nil || match(t) {
			out = append(out, t)
		}
	}
	sortTasks(out)
	return out
}

// CancelTasks removes the queued tasks for which match is true and returns
// how many it removed.
func (tx *Txn) CancelTasks(match func(*Task) bool) int {
	ts := tx.Tasks(match)
	for _, t := range ts {
		tx.Unschedule(t)
	}
	return len(ts)
}

// StepName is the task's step, as messages name it.
func (t *Task) StepName() string {
	if t.hasStep {
		return strconv.FormatUint(uint64(t.step), 10)
	}
	return t.Step
}

func genData(gen uint32) json.RawMessage { return json.RawMessage(strconv.FormatUint(uint64(gen), 10)) }

// SetStep makes an invoke or deadline task the task of a step's generation
// (the numbers are kept; Step and Data are made from them when the state is
// saved: stepText).
func (t *Task) SetStep(index, gen uint32) {
	t.step, t.gen, t.hasStep = index, gen, true
}

// StepGen returns the step and generation of an invoke or deadline task;
// ok is false for a task of another kind, or one whose saved Step or Data
// were not numbers (stale: nothing runs).
func (t *Task) StepGen() (index, gen uint32, ok bool) {
	return t.step, t.gen, t.hasStep
}

// StepText makes Step and Data from the numbers setStep kept.
func (t *Task) StepText() {
	if t.hasStep && t.Step == "" {
		t.Step = strconv.FormatUint(uint64(t.step), 10)
		t.Data = genData(t.gen)
	}
}

func DecodeCallback(b []byte) (map[string]any, error) {
	var cc map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&cc); err != nil {
		return nil, err
	}
	return cc, nil
}

// Callback returns the task's callback context (nil when it has none).
func (t *Task) Callback() map[string]any {
	if t.cc != nil {
		return t.cc
	}
	if len(t.CallbackContext) == 0 {
		return nil
	}
	cc, err := DecodeCallback(t.CallbackContext)
	if err != nil {
		return nil
	}
	return cc
}

// EncodeCallback makes the task's CallbackContext text from the context it
// keeps, for the state file.
func (t *Task) EncodeCallback() error {
	if t.cc == nil || len(t.CallbackContext) > 0 {
		return nil
	}
	b, err := json.Marshal(t.cc)
	if err != nil {
		return err
	}
	t.CallbackContext = b
	return nil
}
