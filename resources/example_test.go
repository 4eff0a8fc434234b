package resources_test

import (
	"context"
	"fmt"
	"time"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
	"github.com/stacksim/stacksim/resources/faults"
)

// The bodies of these examples are quoted in docs/handlers.md and
// docs/faults.md; TestDocsQuoteExamples keeps the two in step.

// A Go handler for a type of your own, registered with its schema, driven
// through the contract checker.
func ExampleRegistry_Register() {
	schema, err := resources.ParseSchema("acme-queue.json", []byte(`{
	  "typeName": "Acme::Messaging::Queue",
	  "properties": {
	    "Name": {"type": "string", "maxLength": 40},
	    "Depth": {"type": "integer"},
	    "Arn": {"type": "string"}
	  },
	  "additionalProperties": false,
	  "primaryIdentifier": ["/properties/Name"],
	  "createOnlyProperties": ["/properties/Name"],
	  "readOnlyProperties": ["/properties/Arn"]
	}`))
	if err != nil {
		panic(err)
	}
	handler := resources.HandlerFuncs{
		CreateFunc: func(ctx context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			model := resources.CopyModel(req.DesiredResourceState)
			model["Arn"] = "arn:acme:queue:" + model["Name"].(string)
			if req.CallbackContext == nil { // first call: start, come back in 30 s
				return resources.InProgress(model, map[string]any{"started": true}, 30), nil
			}
			return resources.Success(model), nil
		},
	}
	reg := resources.NewRegistry(resources.RegistryOptions{})
	if err := reg.Register("Acme::Messaging::Queue", schema, handler); err != nil {
		panic(err)
	}
	p, _ := reg.Provider("Acme::Messaging::Queue")
	checked := contract.Wrap(p, contract.Options{Mode: contract.Report})

	res, err := resources.Drive(context.Background(), checked, &resources.Request{
		Action:                    resources.ActionCreate,
		LogicalResourceIdentifier: "Orders",
		DesiredResourceState:      map[string]any{"Name": "orders", "Depth": "10"}, // scalars arrive as strings
	}, 0)
	if err != nil {
		panic(err)
	}
	arn, _ := p.GetAtt(res.Last().ResourceModel, "Arn")
	fmt.Println(res.Last().Status, "after", res.Elapsed, arn)
	for _, v := range checked.Violations() {
		fmt.Println(v.Rule, v.Message)
	}
	// Output:
	// SUCCESS after 30s arn:acme:queue:orders
}

// A custom resource whose ServiceToken maps to a Go function.
func ExampleCustomFunc() {
	provider := resources.CustomFunc(func(ctx context.Context, req *resources.CustomRequest) (*resources.CustomResponse, error) {
		id := req.PhysicalResourceID // keep it on Update and Delete (seed 004)
		if req.RequestType == resources.CustomCreate {
			id = "greeting-" + req.LogicalResourceID
		}
		return &resources.CustomResponse{
			Status:             "SUCCESS",
			PhysicalResourceID: id,
			Data:               map[string]any{"Text": "hello " + req.ResourceProperties["Name"].(string)},
		}, nil
	})
	reg := resources.NewRegistry(resources.RegistryOptions{
		ServiceTokens: map[string]resources.CustomTarget{
			"arn:aws:lambda:us-east-1:123456789012:function:greeter": provider,
		},
	})
	defer reg.Close()

	p, _ := reg.Provider("Custom::Greeting")
	ev, _ := resources.Invoke(context.Background(), p, &resources.Request{
		Action:                    resources.ActionCreate,
		LogicalResourceIdentifier: "Hello",
		DesiredResourceState: map[string]any{
			"ServiceToken": "arn:aws:lambda:us-east-1:123456789012:function:greeter",
			"Name":         "world",
		},
	})
	id, _ := p.PhysicalID(ev.ResourceModel)
	text, _ := p.GetAtt(ev.ResourceModel, "Text")
	fmt.Println(ev.Status, id, text)
	// Output:
	// SUCCESS greeting-Hello hello world
}

// Faults from a file, wrapped around a simulated type.
func Example_faults() {
	inj, err := faults.Load("faults.yaml", []byte(`
faults:
  - name: queue-throttled
    match: {logicalId: Orders, type: "AWS::SQS::*", action: create}
    throttle: 2
`))
	if err != nil {
		panic(err)
	}
	reg := resources.NewRegistry(resources.RegistryOptions{Seed: 1})
	queue, _ := reg.Provider("AWS::SQS::Queue")
	p := inj.Wrap(queue)

	for attempt := 1; attempt <= 3; attempt++ {
		res, _ := resources.Drive(context.Background(), p, &resources.Request{
			Action: resources.ActionCreate, LogicalResourceIdentifier: "Orders",
			ClientRequestToken: "token-1", Attempt: attempt,
		}, 0)
		ev := res.Last()
		fmt.Println(attempt, ev.Status, ev.ErrorCode, ev.ErrorCode.Retriable())
	}
	// Output:
	// 1 FAILED Throttling true
	// 2 FAILED Throttling true
	// 3 SUCCESS  false
}

// An external handler process (compiled, not run: it needs the program).
func ExampleRegistry_RegisterProcess() {
	schema, _ := resources.LoadSchemaFile("acme-messaging-queue.json")
	reg := resources.NewRegistry(resources.RegistryOptions{})
	err := reg.RegisterProcess("Acme::Messaging::Queue", schema,
		[]string{"python3", "handler.py"},
		resources.ProcessOptions{Timeout: 60 * time.Second})
	if err != nil {
		fmt.Println(err)
	}
}
