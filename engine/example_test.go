package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stacksim/stacksim/engine"
)

// A refused call answers an *engine.APIError with AWS's code and message,
// which CLIMessage words as the AWS CLI does.
func ExampleAPIError() {
	e, err := engine.New(engine.Options{})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	_, err = e.DescribeStacks(context.Background(), engine.DescribeStacksInput{StackName: "web"})
	var apiErr *engine.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.Code)
		fmt.Println(apiErr.CLIMessage("DescribeStacks"))
	}
	// Output:
	// ValidationError
	// An error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id web does not exist
}

// A world kept in a state file: Open locks it, Save writes it atomically,
// Close lets the next process in.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "stacksim")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "world.json")

	e, err := engine.Open(path, engine.Options{Seed: 7})
	if err != nil {
		panic(err)
	}
	if _, err := engine.Open(path, engine.Options{}); err != nil {
		var locked *engine.StateLockedError
		fmt.Println("second writer refused:", errors.As(err, &locked))
	}
	if err := e.Save(); err != nil {
		panic(err)
	}
	_ = e.Close()

	again, err := engine.Open(path, engine.Options{Seed: 1})
	if err != nil {
		panic(err)
	}
	defer again.Close()
	fmt.Println("seed kept by the state file:", again.Seed())
	fmt.Println("clock:", again.Now().Format("2006-01-02T15:04:05Z"))
	// Output:
	// second writer refused: true
	// seed kept by the state file: 7
	// clock: 2025-01-01T00:00:00Z
}
