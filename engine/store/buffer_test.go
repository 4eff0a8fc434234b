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
				case op < 4:
					rec := row(k)
					b.set(k, rec)
					want[k] = rec
				case op < 5:
					b.set(k, nil)
					want[k] = nil
					inDB[k] = true
				case op < 6:
					b.del(k)
					delete(want, k)
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
					for kk, rec := range ov {
						switch {
						case rec != nil:
							want[kk] = rec
						case inDB[kk]:
							want[kk] = nil
						default:
							delete(want, kk)
						}
					}
					b.merge(ov, func(k string) bool { return inDB[k] })
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
