package engine

import (
	"encoding/json"
	"slices"
	"time"
)

// TaskKind names what a task does; the loop dispatches on it (loop.go).
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
	// JSON value already (ops_callback.go); CallbackContext is made from
	// it when the state is saved.
	cc map[string]any
}

func (t *Task) before(u *Task) bool {
	if t.at != u.at {
		return t.at < u.at
	}
	return t.Seq < u.Seq
}

// taskQueue is a binary min-heap of tasks by (At, Seq).
type taskQueue struct {
	h []*Task
}

func (q *taskQueue) len() int { return len(q.h) }

// peek returns the next task without removing it, or nil.
func (q *taskQueue) peek() *Task {
	if len(q.h) == 0 {
		return nil
	}
	return q.h[0]
}

func (q *taskQueue) push(t *Task) {
	t.pos = len(q.h)
	q.h = append(q.h, t)
	q.up(t.pos)
}

// remove takes t out of the queue (a no-op when it is not in it).
func (q *taskQueue) remove(t *Task) {
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

// all returns the queued tasks in run order (a copy).
func (q *taskQueue) all() []*Task {
	out := make([]*Task, len(q.h))
	copy(out, q.h)
	sortTasks(out)
	return out
}

func (q *taskQueue) swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.h[i].pos = i
	q.h[j].pos = j
}

func (q *taskQueue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].before(q.h[p]) {
			return
		}
		q.swap(i, p)
		i = p
	}
}

// down sifts i down and reports whether it moved.
func (q *taskQueue) down(i int) bool {
	start, n := i, len(q.h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.h[r].before(q.h[l]) {
			m = r
		}
		if !q.h[m].before(q.h[i]) {
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
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
}

// schedule queues a task. Seq is given here; a zero At means now; an At in
// the past runs as soon as the loop reaches it (the clock never goes back).
// The task is the queue's from now on: do not change it.
func (tx *txn) schedule(t *Task) *Task {
	tx.mustWrite()
	tx.meta.Tasks++
	t.Seq = tx.meta.Tasks
	if t.At.IsZero() {
		t.at = tx.meta.Now
	} else {
		t.at = t.At.UnixNano()
	}
	t.At = time.Unix(0, t.at).UTC()
	tx.s.queue.push(t)
	tx.journal = append(tx.journal, undo{kind: undoQueuePush, obj: t})
	return t
}

// scheduleAfter queues a task due d after now.
func (tx *txn) scheduleAfter(d time.Duration, t *Task) *Task {
	t.At = time.Unix(0, tx.meta.Now+int64(d)).UTC()
	return tx.schedule(t)
}

// nextTask returns the next task due, without removing it, or nil.
func (tx *txn) nextTask() *Task { return tx.s.queue.peek() }

// unschedule removes a queued task.
func (tx *txn) unschedule(t *Task) {
	tx.mustWrite()
	if t.pos < 0 {
		return
	}
	tx.s.queue.remove(t)
	tx.journal = append(tx.journal, undo{kind: undoQueuePop, obj: t})
}

// tasks returns the queued tasks for which match is true (nil: all), in run
// order. O(queue): for cancellations and inspection, not for every step.
func (tx *txn) tasks(match func(*Task) bool) []*Task {
	var out []*Task
	for _, t := range tx.s.queue.h {
		if match == nil || match(t) {
			out = append(out, t)
		}
	}
	sortTasks(out)
	return out
}

// cancelTasks removes the queued tasks for which match is true and returns
// how many it removed.
func (tx *txn) cancelTasks(match func(*Task) bool) int {
	ts := tx.tasks(match)
	for _, t := range ts {
		tx.unschedule(t)
	}
	return len(ts)
}
