package resources_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

// BenchmarkCRUDCycle measures one resource's create, read, update and
// delete through the generic provider with the contract checker on (each
// mutating action answers IN_PROGRESS once, then SUCCESS: 7 calls).
// cpu-ns/op is the process's CPU time per cycle (the collector's included),
// which waiting for a CPU on a loaded machine does not inflate.
func BenchmarkCRUDCycle(b *testing.B) {
	for _, bc := range []struct {
		typ     string
		checked bool
	}{{"AWS::SQS::Queue", true}, {"AWS::Lambda::Function", true}, {"AWS::SQS::Queue", false}} {
		typ := bc.typ
		name := typ + "/checked"
		if !bc.checked {
			name = typ + "/unchecked"
		}
		b.Run(name, func(b *testing.B) {
			reg := resources.NewRegistry(resources.RegistryOptions{Seed: 1})
			p, err := reg.Provider(typ)
			if err != nil {
				b.Fatal(err)
			}
			checker := contract.Wrap(p, contract.Options{Mode: contract.Strict})
			var c resources.Provider = checker
			if !bc.checked {
				c = p
			}
			props := map[string]any{"DelaySeconds": "5", "VisibilityTimeout": "30"}
			updated := map[string]any{"DelaySeconds": "10", "VisibilityTimeout": "30"}
			if typ == "AWS::Lambda::Function" {
				props = map[string]any{"Role": "arn:aws:iam::123456789012:role/r", "Runtime": "python3.12", "Handler": "index.handler", "Code": map[string]any{"ZipFile": "x"}, "Timeout": "30"}
				updated = map[string]any{"Role": "arn:aws:iam::123456789012:role/r", "Runtime": "python3.12", "Handler": "index.handler", "Code": map[string]any{"ZipFile": "y"}, "Timeout": "60"}
			}
			ctx := context.Background()
			i := 0
			cpu0, cpuOK := processCPU()
			for b.Loop() {
				i++
				logical := "R" + strconv.Itoa(i)
				req := &resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: logical, ClientRequestToken: "c" + logical,
					DesiredResourceState: props, StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/b/1", Attempt: 1}
				res, err := resources.Drive(ctx, c, req, 0)
				if err != nil || res.Last().Status != resources.StatusSuccess {
					b.Fatalf("create: %v %v", res.Last(), err)
				}
				model := res.Last().ResourceModel
				id, _ := c.PhysicalID(model)
				if ev, _ := resources.Invoke(ctx, c, &resources.Request{Action: resources.ActionRead, DesiredResourceState: model, PhysicalResourceID: id}); ev.Status != resources.StatusSuccess {
					b.Fatalf("read: %v", ev)
				}
				up := *req
				up.Action, up.ClientRequestToken, up.DesiredResourceState, up.PreviousResourceState, up.PhysicalResourceID = resources.ActionUpdate, "u"+logical, updated, props, id
				if res, err := resources.Drive(ctx, c, &up, 0); err != nil || res.Last().Status != resources.StatusSuccess {
					b.Fatalf("update: %v %v", res.Last(), err)
				}
				del := *req
				del.Action, del.ClientRequestToken, del.DesiredResourceState, del.PhysicalResourceID = resources.ActionDelete, "d"+logical, model, id
				if res, err := resources.Drive(ctx, c, &del, 0); err != nil || res.Last().Status != resources.StatusSuccess {
					b.Fatalf("delete: %v %v", res.Last(), err)
				}
			}
			if cpu1, ok := processCPU(); ok && cpuOK && b.N > 0 {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
			}
			if v := checker.Violations(); len(v) > 0 {
				b.Fatalf("violations: %v", v[0])
			}
		})
	}
}
