package engine_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources"
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

// A Go handler serves a resource type of your own; the engine drives it as
// CloudFormation drives a registry type. Here a stack is created, updated
// with a value the handler refuses, and rolled back, in virtual time; then
// its events are read, oldest first.
func Example() {
	settings := map[string]string{} // what the handler manages
	schema, err := resources.ParseSchema("demo", []byte(`{
		"typeName": "Demo::App::Setting", "description": "a named setting",
		"properties": {"Name": {"type": "string"}, "Value": {"type": "string"}},
		"primaryIdentifier": ["/properties/Name"], "createOnlyProperties": ["/properties/Name"],
		"additionalProperties": false}`))
	if err != nil {
		panic(err)
	}
	put := func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
		m := req.DesiredResourceState
		if m["Value"] == "boom" {
			return resources.Failed(resources.ErrInvalidRequest, "the value boom is not allowed"), nil
		}
		settings[m["Name"].(string)] = m["Value"].(string)
		return resources.Success(map[string]any{"Name": m["Name"], "Value": m["Value"]}), nil
	}
	handler := resources.HandlerFuncs{
		CreateFunc: put,
		UpdateFunc: put,
		ReadFunc: func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			name, _ := req.DesiredResourceState["Name"].(string)
			v, ok := settings[name]
			if !ok {
				return resources.Failed(resources.ErrNotFound, "no setting %s", name), nil
			}
			return resources.Success(map[string]any{"Name": name, "Value": v}), nil
		},
		DeleteFunc: func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			delete(settings, req.PhysicalResourceID)
			return resources.Success(nil), nil
		},
	}
	e, err := engine.New(engine.Options{Handlers: []engine.TypeHandler{{TypeName: "Demo::App::Setting", Schema: schema, Handler: handler}}})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	ctx := context.Background()

	template := func(value string) string {
		return `{"Resources": {"Greeting": {"Type": "Demo::App::Setting",
			"Properties": {"Name": "greeting", "Value": "` + value + `"}}}}`
	}
	if _, err := e.CreateStack(ctx, engine.CreateStackInput{StackName: "demo", TemplateBody: template("hello")}); err != nil {
		panic(err)
	}
	st, _ := e.WaitForStack(ctx, "demo")
	fmt.Println(st.StackStatus, settings)

	if _, err := e.UpdateStack(ctx, engine.UpdateStackInput{StackName: "demo", TemplateBody: template("boom")}); err != nil {
		panic(err)
	}
	st, _ = e.WaitForStack(ctx, "demo")
	fmt.Println(st.StackStatus, settings)

	out, _ := e.DescribeStackEvents(ctx, engine.DescribeStackEventsInput{StackName: "demo"})
	for i := len(out.StackEvents) - 1; i >= 0; i-- {
		ev := out.StackEvents[i]
		line := fmt.Sprintf("%-8s %-28s %s", ev.LogicalResourceId, ev.ResourceStatus, ev.ResourceStatusReason)
		if len(line) > 100 {
			line = line[:100] + "..."
		}
		fmt.Println(strings.TrimSpace(line))
	}
	// Output:
	// CREATE_COMPLETE map[greeting:hello]
	// UPDATE_ROLLBACK_COMPLETE map[greeting:hello]
	// demo     CREATE_IN_PROGRESS           User Initiated
	// Greeting CREATE_IN_PROGRESS
	// Greeting CREATE_IN_PROGRESS           Resource creation Initiated
	// Greeting CREATE_COMPLETE
	// demo     CREATE_COMPLETE
	// demo     UPDATE_IN_PROGRESS           User Initiated
	// Greeting UPDATE_IN_PROGRESS
	// Greeting UPDATE_FAILED                Resource handler returned message: "the value boom is not allo...
	// demo     UPDATE_ROLLBACK_IN_PROGRESS  The following resource(s) failed to update: [Greeting].
	// Greeting UPDATE_IN_PROGRESS
	// Greeting UPDATE_COMPLETE
	// demo     UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS
	// demo     UPDATE_ROLLBACK_COMPLETE
}
