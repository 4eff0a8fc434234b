//go:build unix

package resources_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, every thread counted
// (the garbage collector's too). Benchmarks report it per operation beside
// ns/op, which a loaded machine inflates with time spent waiting for a CPU.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
