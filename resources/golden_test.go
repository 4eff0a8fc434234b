package resources_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

// TestEventStreamsGolden pins every event the simulated types answer, and
// what the checker says of them, through a whole life: create, read, a
// second create, update, list, delete, read after delete. Generated names,
// identifiers, defaults and messages are deterministic, so any change in
// them (a faster path that behaves differently) shows here.
func TestEventStreamsGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/samples.json")
	if err != nil {
		t.Fatal(err)
	}
	var samples map[string]struct{ Create, Update map[string]any }
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	if err := d.Decode(&samples); err != nil {
		t.Fatal(err)
	}
	type record struct {
		Step       string                     `json:"step"`
		Events     []*resources.ProgressEvent `json:"events"`
		Violations []string                   `json:"violations,omitempty"`
	}
	out := map[string][]record{}
	ctx := context.Background()
	for _, typ := range resources.EmbeddedTypes() {
		s := samples[typ]
		reg := resources.NewRegistry(resources.RegistryOptions{Seed: 3, ListPageSize: 2})
		p, err := reg.Provider(typ)
		if err != nil {
			t.Fatal(err)
		}
		c := contract.Wrap(p, contract.Options{Mode: contract.Report})
		var recs []record
		seen := 0
		run := func(step string, req *resources.Request) *resources.ProgressEvent {
			req.AWSAccountID, req.AWSPartition, req.Region, req.Attempt = "123456789012", "aws", "us-east-1", 1
			req.StackID = "arn:aws:cloudformation:us-east-1:123456789012:stack/gold/0a1b2c3d-0000-4000-8000-000000000000"
			res, err := resources.Drive(ctx, c, req, 0)
			if err != nil {
				res.Events = append(res.Events, resources.Failed("DriveError", "%v", err))
			}
			r := record{Step: step, Events: res.Events}
			vs := c.Violations()
			for _, v := range vs[seen:] {
				r.Violations = append(r.Violations, v.Rule+": "+v.Message)
			}
			seen = len(vs)
			recs = append(recs, r)
			return res.Last()
		}
		created := run("create", &resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: "Res", ClientRequestToken: "t1",
			DesiredResourceState: resources.StringifyModel(s.Create)})
		id, _ := c.PhysicalID(created.ResourceModel)
		run("read", &resources.Request{Action: resources.ActionRead, LogicalResourceIdentifier: "Res", DesiredResourceState: created.ResourceModel, PhysicalResourceID: id})
		run("create-again", &resources.Request{Action: resources.ActionCreate, LogicalResourceIdentifier: "Other", ClientRequestToken: "t2",
			DesiredResourceState: resources.StringifyModel(s.Create)})
		updated := run("update", &resources.Request{Action: resources.ActionUpdate, LogicalResourceIdentifier: "Res", ClientRequestToken: "t3",
			DesiredResourceState: resources.StringifyModel(s.Update), PreviousResourceState: resources.StringifyModel(s.Create), PhysicalResourceID: id})
		run("list", &resources.Request{Action: resources.ActionList})
		run("delete", &resources.Request{Action: resources.ActionDelete, LogicalResourceIdentifier: "Res", ClientRequestToken: "t4",
			DesiredResourceState: updated.ResourceModel, PhysicalResourceID: id})
		run("read-deleted", &resources.Request{Action: resources.ActionRead, LogicalResourceIdentifier: "Res", DesiredResourceState: created.ResourceModel, PhysicalResourceID: id})
		out[typ] = recs
	}
	got, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	resources.Golden(t, "event-streams.json", append(got, '\n'))
}
