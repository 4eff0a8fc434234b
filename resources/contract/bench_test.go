package contract_test

import (
	"context"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

// BenchmarkCheck measures the checker alone: one event of each kind a
// create answers, from a handler that returns a model made beforehand.
func BenchmarkCheck(b *testing.B) {
	reg := resources.NewRegistry(resources.RegistryOptions{Seed: 1})
	p, err := reg.Provider("AWS::SQS::Queue")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	props := map[string]any{"DelaySeconds": "5", "VisibilityTimeout": "30"}
	res, err := resources.Drive(ctx, p, &resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: "Q",
		ClientRequestToken: "t", DesiredResourceState: props}, 0)
	if err != nil {
		b.Fatal(err)
	}
	model := res.Last().ResourceModel
	for _, bc := range []struct {
		name string
		ev   *resources.ProgressEvent
	}{
		{"in-progress", resources.InProgress(model, map[string]any{"k": "v"}, 5)},
		{"success", resources.Success(model)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := resources.HandlerFuncs{CreateFunc: func(context.Context, *resources.Request) (*resources.ProgressEvent, error) { return bc.ev, nil }}
			c := contract.Wrap(resources.NewHandlerProvider(p.Schema(), h), contract.Options{Mode: contract.Strict})
			req := &resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: "Q", ClientRequestToken: "t", DesiredResourceState: props}
			b.ReportAllocs()
			for b.Loop() {
				if ev, err := c.Create(ctx, req); err != nil || ev.Status == resources.StatusFailed {
					b.Fatal(ev, err)
				}
			}
		})
	}
}
