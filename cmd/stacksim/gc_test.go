package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestCollectorPace: a short-lived command starts with the collector off
// up to its starting heap, and the first collection puts the default pace
// back; serve puts it back at once; a user's GOGC or GOMEMLIMIT wins.
func TestCollectorPace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	shortLived()
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("after shortLived the collector's percent is %d, want -1 (off)", p)
	}
	if l := debug.SetMemoryLimit(-1); l != shortLivedHeap {
		t.Errorf("after shortLived the memory limit is %d, want %d", l, shortLivedHeap)
	}
	// The first collection runs the sentinel's finalizer (in the
	// finalizer goroutine, soon after).
	restored := false
	for i := 0; i < 1000 && !restored; i++ {
		runtime.GC()
		runtime.Gosched() // let the finalizer goroutine run
		restored = debug.SetGCPercent(-1) == 100
		if restored {
			debug.SetGCPercent(100)
		}
	}
	if !restored {
		t.Fatal("the first collections did not put the default pace back")
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("after the first collection the memory limit is %d, want none", l)
	}

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "50")
			debug.SetGCPercent(77)
			debug.SetMemoryLimit(12345 << 20)
			shortLived()
			if p := debug.SetGCPercent(77); p != 77 {
				t.Errorf("with %s set, shortLived changed the percent to %d", env, p)
			}
			longLived()
			if l := debug.SetMemoryLimit(-1); l != 12345<<20 {
				t.Errorf("with %s set, longLived changed the memory limit to %d", env, l)
			}
		})
	}
}
