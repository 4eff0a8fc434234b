//go:build unix

// Command maxrss runs a command, with its streams, and writes the peak
// resident memory of that command, in bytes, to the file named by its
// first argument; it exits with the command's status. The tests of
// cmd/stacksim measure the binary through it: a process measures its
// child exactly only when it is small itself (on Linux a child's peak
// includes the memory of the process that started it, which for a test
// binary is tens of MB).
//
//	maxrss OUTFILE COMMAND ARGS...
package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: maxrss OUTFILE COMMAND ARGS...")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss)
		if runtime.GOOS != "darwin" {
			rss *= 1024 // kilobytes, but on macOS
		}
	}
	if err := os.WriteFile(os.Args[1], []byte(fmt.Sprint(rss)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	os.Exit(code)
}
