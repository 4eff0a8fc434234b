package resources_test

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

// TestSharedModelsStayPut runs readers, an updater and whole lives of other
// resources at once through one checked provider (the race detector
// watches the maps they share: answers, stored objects, callback
// contexts), then checks that no answer handed out earlier has changed.
func TestSharedModelsStayPut(t *testing.T) {
	for _, typ := range []string{"AWS::SQS::Queue", "AWS::Lambda::Function"} {
		t.Run(typ, func(t *testing.T) {
			reg := resources.NewRegistry(resources.RegistryOptions{Seed: 9})
			p, err := reg.Provider(typ)
			if err != nil {
				t.Fatal(err)
			}
			c := contract.Wrap(p, contract.Options{Mode: contract.Strict})
			props := func(n int) map[string]any {
				if typ == "AWS::Lambda::Function" {
					return map[string]any{"Role": "arn:aws:iam::123456789012:role/r", "Runtime": "python3.12", "Handler": "index.handler",
						"Code": map[string]any{"ZipFile": "v" + strconv.Itoa(n)}, "Timeout": strconv.Itoa(3 + n)}
				}
				return map[string]any{"DelaySeconds": strconv.Itoa(n), "VisibilityTimeout": "30"}
			}
			ctx := context.Background()
			drive := func(req *resources.Request) *resources.ProgressEvent {
				req.StackID, req.Attempt = "arn:aws:cloudformation:us-east-1:123456789012:stack/s/1", 1
				res, err := resources.Drive(ctx, c, req, 0)
				if err != nil {
					t.Error(err)
					return nil
				}
				return res.Last()
			}
			created := drive(&resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: "Shared", ClientRequestToken: "c0", DesiredResourceState: props(0)})
			id, _ := c.PhysicalID(created.ResourceModel)
			var mu sync.Mutex
			var seen []*resources.ProgressEvent
			var snapshots [][]byte
			keep := func(ev *resources.ProgressEvent) {
				if ev == nil {
					return
				}
				b, _ := json.Marshal(ev)
				mu.Lock()
				seen, snapshots = append(seen, ev), append(snapshots, b)
				mu.Unlock()
			}
			keep(created)
			var wg sync.WaitGroup
			for g := 0; g < 4; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					for i := 0; i < 20; i++ {
						switch g {
						case 0: // the updater
							keep(drive(&resources.Request{Action: resources.ActionUpdate, LogicalResourceIdentifier: "Shared", ClientRequestToken: "u" + strconv.Itoa(i),
								DesiredResourceState: props(i + 1), PhysicalResourceID: id}))
						case 1: // a reader
							keep(drive(&resources.Request{Action: resources.ActionRead, LogicalResourceIdentifier: "Shared", PhysicalResourceID: id}))
						default: // whole lives of other resources
							logical := "R" + strconv.Itoa(g) + "x" + strconv.Itoa(i)
							ev := drive(&resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: logical, ClientRequestToken: "c", DesiredResourceState: props(i)})
							keep(ev)
							if ev != nil && ev.Status == resources.StatusSuccess {
								other, _ := c.PhysicalID(ev.ResourceModel)
								keep(drive(&resources.Request{Action: resources.ActionDelete, LogicalResourceIdentifier: logical, ClientRequestToken: "d",
									DesiredResourceState: ev.ResourceModel, PhysicalResourceID: other}))
							}
						}
					}
				}(g)
			}
			wg.Wait()
			for i, ev := range seen {
				if ev.Status != resources.StatusSuccess {
					t.Errorf("event %d: %v", i, ev)
				}
				if b, _ := json.Marshal(ev); string(b) != string(snapshots[i]) {
					t.Errorf("event %d changed after it was answered:\nthen %s\nnow  %s", i, snapshots[i], b)
				}
			}
			if vs := c.Violations(); len(vs) > 0 {
				t.Fatalf("violations: %v", vs)
			}
		})
	}
}
