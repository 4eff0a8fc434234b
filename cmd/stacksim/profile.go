package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// profileEnv names a file to write a CPU profile of the whole process to
// (go tool pprof reads it): a developer's aid, for a serve session driven
// by a real client or a slow command, documented in README's "Developing
// stacksim". It is an environment variable, not a flag, so that no
// command's flags or help carry it.
const profileEnv = "STACKSIM_CPUPROFILE"

// startProfile starts the CPU profile $STACKSIM_CPUPROFILE asks for and
// returns what stops it; a profile that cannot start is said on stderr and
// the command runs unprofiled.
func startProfile(stderr io.Writer) (stop func()) {
	path := os.Getenv(profileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "stacksim: %s=%s: no profile: %v\n", profileEnv, path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "stacksim: %s=%s: %v\n", profileEnv, path, err)
		}
	}
}
