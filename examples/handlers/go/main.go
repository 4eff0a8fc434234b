// Command go-box is stacksim's Go handler example: the handler of
// Example::Go::Box, served over standard input and output in stacksim's
// handler protocol by resources.ServeHandler (a request a line, an answer
// a line), so that the command line runs it per request or long-lived:
//
//	go build -o bin/go-box ./examples/handlers/go
//	stacksim --handler 'Example::Go::Box=exec+persistent:bin/go-box' \
//	  --schema Example::Go::Box=examples/handlers/go/example-go-box.json \
//	  create-stack --stack-name boxes --template-body file://examples/handlers/go/template.yaml
//
// The "cloud" is a directory, EXAMPLE_CLOUD_DIR (./.cloud by default),
// with a JSON file per box. The same handler type can be registered in
// process instead (engine.Options.Handlers or Registry.Register): see
// docs/handlers.md.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/stacksim/stacksim/resources"
)

func main() {
	dir := os.Getenv("EXAMPLE_CLOUD_DIR")
	if dir == "" {
		dir = ".cloud"
	}
	if err := resources.ServeHandler(context.Background(), box{dir: dir}, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "go-box:", err)
		os.Exit(1)
	}
}
