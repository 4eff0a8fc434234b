// Command stacksim replays AWS CloudFormation stack operations offline,
// deterministically and in virtual time.
package main

import (
	"io"
	"os"
)

func main() {
	shortLived()
	stop := startProfile(os.Stderr)
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Exit statuses.
const (
	exitOK       = 0 // the command did what was asked
	exitFailed   = 1 // the operation ran but the stack ended failed or rolled back
	exitBadInput = 2 // bad input: nothing was changed
)

// run executes one command line and returns the process exit status. It is
// the whole program, minus os.Exit, so that tests drive it in process.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	return app.execute(args)
}
