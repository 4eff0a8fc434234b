package store

import (
	"strconv"
	"testing"
)

func TestTaskQueueHeap(t *testing.T) {
	var q TaskQueue
	var all []*Task
	for i := 0; i < 200; i++ {
		tk := &Task{Seq: uint64(i + 1), at: int64((i * 7919) % 13)}
		all = append(all, tk)
		q.Push(tk)
	}
	for i := 0; i < 200; i += 3 {
		q.Remove(all[i])
	}
	prev := (*Task)(nil)
	n := 0
	for q.Len() > 0 {
		tk := q.Peek()
		q.Remove(tk)
		if prev != nil && tk.Before(prev) {
			t.Fatalf("out of order: %d@%d after %d@%d", tk.Seq, tk.at, prev.Seq, prev.at)
		}
		if (tk.Seq-1)%3 == 0 {
			t.Fatalf("removed task %d came out", tk.Seq)
		}
		prev = tk
		n++
	}
	if n != 200-67 {
		t.Fatalf("%d tasks came out", n)
	}
	_ = strconv.Itoa
}
