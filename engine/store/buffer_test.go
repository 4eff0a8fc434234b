package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The buffer against a plain map of the same rows: random sets, deletes
// and merges (an overlay of one partition, larger or smaller than it; an
// overlay of several), for a partitioned and an unpartitioned table. After
// every change the rows, the count and every scan's visit agree with the
// map, and a scan of one partition visits that partition's rows only.
func TestBufferAgainstAMap(t *testing.T) {
	for _, tc := range []struct {
		t   TableID
		key func(part, i int) string
	}{
		{TResources, func(part, i int) string { return ResourceKey(uint32(part), fmt.Sprintf("R%d", i)) }},
		{TSteps, func(part, i int) string { return StepKey(fmt.Sprintf("op-%d", part), uint32(i)) }},
		{TStacks, func(part, i int) string { return fmt.Sprintf("arn:stack/s%d/%d", part, i) }},
	} {
		t.Run(tc.t.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(tc.t)))
			b := &buffer{t: tc.t}
			want := map[string]Record{}
			inDB := map[string]bool{} // the rows memdb would hold
			row := func(k string) Record { return &ResourceRecord{LogicalResourceId: k} }
			for step := 0; step < 4000; step++ {
				part, i := 1+r.IntN(6), r.IntN(40)
				k := tc.key(part, i)
				switch op := r.IntN(10); {
				case op < 6:
					changeBoth(b, want, inDB, k, op, row)
				default:
					// An overlay: rows of one partition, or of several.
					ov := map[string]Record{}
					for j := r.IntN(30); j >= 0; j-- {
						p := part
						if op == 9 {
							p = 1 + r.IntN(6)
						}
						kk := tc.key(p, r.IntN(40))
						if r.IntN(3) == 0 {
							ov[kk] = nil
						} else {
							ov[kk] = row(kk)
						}
					}
					mergeBoth(b, want, ov, inDB)
				}
				if b.len() != len(want) {
					t.Fatalf("step %d: %d rows buffered, want %d", step, b.len(), len(want))
				}
				for k, w := range want {
					if got, ok := b.get(k); !ok || got != w {
						t.Fatalf("step %d: get %q = %v %v, want %v", step, k, got, ok, w)
					}
				}
				if _, ok := b.get(tc.key(99, 0)); ok {
					t.Fatalf("step %d: a key never set is buffered", step)
				}
				// A scan of one partition's range.
				prefix := partition(tc.t, k)
				var visited []string
				b.eachIn(prefix, func(k string, _ Record) { visited = append(visited, k) })
				for k := range want {
					if strings.HasPrefix(k, prefix) && !slices.Contains(visited, k) {
						t.Fatalf("step %d: the scan of %q missed %q", step, prefix, k)
					}
				}
				for _, k := range visited {
					if _, ok := want[k]; !ok {
						t.Fatalf("step %d: the scan visited %q, which is not buffered", step, k)
					}
					if partitioned(tc.t) && !strings.HasPrefix(k, prefix) {
						t.Fatalf("step %d: the scan of %q visited %q, of another partition", step, prefix, k)
					}
				}
				if n := b.sizeIn(prefix); n < len(visited) {
					t.Fatalf("step %d: sizeIn(%q) = %d, the scan visited %d", step, prefix, n, len(visited))
				}
			}
			// Every row, once.
			all := map[string]Record{}
			b.each(func(k string, r Record) {
				if _, twice := all[k]; twice {
					t.Fatalf("%q visited twice", k)
				}
				all[k] = r
			})
			if !maps.Equal(all, want) {
				t.Fatalf("each: %d rows, want %d", len(all), len(want))
			}
			// A prefix shorter than a partition visits the partitions it
			// starts (here: all of them).
			var n int
			b.eachIn(tc.key(1, 0)[:1], func(string, Record) { n++ })
			if n != len(want) {
				t.Fatalf("a short prefix visited %d rows of %d", n, len(want))
			}
			b.reset()
			if b.len() != 0 {
				t.Fatal("reset left rows")
			}
		})
	}
}

// changeBoth makes one change (op 0-3: a row set, 4: a deletion mark, 5:
// a key forgotten) to the buffer and to the map it is checked against.
func changeBoth(b *buffer, want map[string]Record, inDB map[string]bool, k string, op int, row func(string) Record) {
	switch {
	case op < 4:
		rec := row(k)
		b.set(k, rec)
		want[k] = rec
	case op < 5:
		b.set(k, nil)
		want[k] = nil
		inDB[k] = true
	default:
		b.del(k)
		delete(want, k)
	}
}

// mergeBoth merges overlay ov into the buffer and into the map it is
// checked against: a deleted row memdb holds is marked, another forgotten.
func mergeBoth(b *buffer, want, ov map[string]Record, inDB map[string]bool) {
	for k, rec := range ov {
		switch {
		case rec != nil:
			want[k] = rec
		case inDB[k]:
			want[k] = nil
		default:
			delete(want, k)
		}
	}
	b.merge(ov, func(k string) bool { return inDB[k] })
}

// The buffer of a table read by secondary index (stacks: by name, live
// ones only, and by Num) indexes its rows: after random sets, deletes and
// merges, a keyed visit of every key of both indexes (and of "", every row
// the index has) visits exactly the buffered rows the index gives that key.
func TestBufferIndexAgainstAMap(t *testing.T) {
	var secs []secondary
	for _, s := range secondaries() {
		if s.table == TStacks {
			secs = append(secs, s)
		}
	}
	r := rand.New(rand.NewPCG(2, 9))
	b := &buffer{t: TStacks, secs: secs}
	want := map[string]Record{}
	inDB := map[string]bool{}
	row := func(k string) Record {
		st := &StackRecord{StackId: k, StackName: fmt.Sprintf("n%d", r.IntN(5)), Num: uint32(r.IntN(8)), StackStatus: "CREATE_COMPLETE"}
		if r.IntN(3) == 0 {
			st.StackStatus = "DELETE_COMPLETE"
		}
		return st
	}
	for step := 0; step < 3000; step++ {
		k := fmt.Sprintf("arn:stack/%d", r.IntN(30))
		switch op := r.IntN(10); {
		case op < 6:
			changeBoth(b, want, inDB, k, op, row)
		default:
			ov := map[string]Record{}
			for j := r.IntN(12); j >= 0; j-- {
				kk := fmt.Sprintf("arn:stack/%d", r.IntN(30))
				if r.IntN(3) == 0 {
					ov[kk] = nil
				} else {
					ov[kk] = row(kk)
				}
			}
			mergeBoth(b, want, ov, inDB)
		}
		for _, s := range secs {
			keys := map[string]bool{"": true}
			for _, rec := range want {
				if rec != nil {
					if key, ok := s.of(rec); ok {
						keys[key] = true
					}
				}
			}
			keys[strKey("never")], keys[NumKey(99)] = true, true
			for key := range keys {
				if !b.indexed(s.name, key) {
					if key != "" && !s.whole(key) {
						continue
					}
					t.Fatalf("step %d: %s key %q is not indexed", step, s.name, key)
				}
				exp := map[string]bool{}
				for pk, rec := range want {
					if rec == nil {
						continue
					}
					if got, ok := s.of(rec); ok && (key == "" || got == key) {
						exp[pk] = true
					}
				}
				seen := map[string]bool{}
				b.eachKeyed(s.name, key, func(pk string, rec Record) {
					if seen[pk] {
						t.Fatalf("step %d: %s %q visited %q twice", step, s.name, key, pk)
					}
					seen[pk] = true
					if rec != want[pk] {
						t.Fatalf("step %d: %s %q visited %q with another row", step, s.name, key, pk)
					}
				})
				if !maps.Equal(seen, exp) {
					t.Fatalf("step %d: %s %q visited %v, want %v", step, s.name, key, seen, exp)
				}
				if n := b.sizeKeyed(s.name, key); n != len(exp) {
					t.Fatalf("step %d: sizeKeyed(%s, %q) = %d, want %d", step, s.name, key, n, len(exp))
				}
			}
		}
	}
	b.reset()
	if b.sizeKeyed(ixNum, "") != 0 {
		t.Fatal("reset left index entries")
	}
}
