package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// A command of the CLI lives for tens of milliseconds: it loads what it
// needs, runs, saves and exits, and most of what it allocates is live
// until it exits. The collector's default pace (a cycle each time the heap
// doubles from 4 MB) spends a third to a half of such a command's CPU
// marking a heap that is about to be freed anyway. So a command starts
// with the collector off, up to a heap of shortLivedHeap; the first
// collection (when the heap reaches it) puts the default pace back, so
// that a command that needs more memory than that — a large account, a
// large input being refused — is collected as usual. It is what the Go
// compiler, a short-lived program too, does (cmd/compile's
// AdjustStartingHeap). serve, which lives long, puts the default pace back
// at once (longLived). A user's GOGC or GOMEMLIMIT is left as it is.
const shortLivedHeap = 64 << 20

// userGC: the user set the collector's pace.
func userGC() bool { return os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" }

// shortLived sets the collector's pace for a short-lived command.
func shortLived() {
	if userGC() {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(shortLivedHeap)
	// The first collection finalizes the sentinel, which puts the default
	// pace back.
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) { longLived() })
}

// longLived puts the collector's default pace back, for a process that
// serves requests for as long as it runs, or a command past its starting
// heap.
func longLived() {
	if userGC() {
		return
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
