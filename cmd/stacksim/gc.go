package main

import (
	"math"
	"os"
	"runtime/debug"
)

// A command of the CLI lives for tens of milliseconds: it loads what it
// needs, runs, saves and exits, and most of what it allocates is live
// until it exits. The collector's default pace (a cycle each time the heap
// doubles from 4 MB) spends a third to a half of such a command's CPU
// marking a heap that is about to be freed anyway — the Go compiler, a
// short-lived program too, starts with a large heap goal for the same
// reason. So a command collects only when its heap nears shortLivedHeap;
// serve, which lives long, puts the default pace back (longLived). A user's
// GOGC or GOMEMLIMIT is left as it is.
const shortLivedHeap = 256 << 20

// shortLived sets the collector's pace for a short-lived command.
func shortLived() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(shortLivedHeap)
}

// longLived puts the collector's default pace back, for a process that
// serves requests for as long as it runs.
func longLived() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(math.MaxInt64)
}
