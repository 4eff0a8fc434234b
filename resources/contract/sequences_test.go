package contract_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

const stackID = "arn:aws:cloudformation:us-east-1:123456789012:stack/seq/0a1b2c3d-0000-4000-8000-000000000000"

type sample struct{ create, update map[string]any }

func samples(t *testing.T) map[string]sample {
	t.Helper()
	data, err := os.ReadFile("../testdata/samples.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sample{}
	for typ, x := range v {
		m := x.(map[string]any)
		out[typ] = sample{create: m["create"].(map[string]any), update: m["update"].(map[string]any)}
	}
	return out
}

// harness drives one checked provider the way the contract tests do.
type harness struct {
	t     *testing.T
	p     *contract.Checker
	token int
}

func (h *harness) call(a resources.Action, desired map[string]any, physicalID string) *resources.ProgressEvent {
	h.t.Helper()
	h.token++
	req := &resources.Request{
		Action: a, ClientRequestToken: "token-" + string(rune('a'+h.token%26)) + string(rune('a'+h.token/26)),
		DesiredResourceState: resources.StringifyModel(desired), PhysicalResourceID: physicalID,
		AWSAccountID: "123456789012", AWSPartition: "aws", Region: "us-east-1",
		LogicalResourceIdentifier: "Subject", StackID: stackID, ResourceType: h.p.TypeName(), Attempt: 1,
	}
	res, err := resources.Drive(context.Background(), h.p, req, 0)
	if err != nil {
		h.t.Fatalf("%s: %v", a, err)
	}
	return res.Last()
}

func (h *harness) list() []string {
	h.t.Helper()
	var ids []string
	next := ""
	for i := 0; i < 100; i++ {
		req := &resources.Request{Action: resources.ActionList, NextToken: next, ResourceType: h.p.TypeName(), Attempt: 1}
		ev, err := resources.Invoke(context.Background(), h.p, req)
		if err != nil || ev.Status != resources.StatusSuccess {
			h.t.Fatalf("list: %v %v", ev, err)
		}
		for _, m := range ev.ResourceModels {
			id, err := h.p.PhysicalID(m)
			if err != nil {
				h.t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if ev.NextToken == "" {
			return ids
		}
		next = ev.NextToken
	}
	h.t.Fatal("list: nextToken never ends")
	return nil
}

func has(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func want(t *testing.T, step string, ev *resources.ProgressEvent, status resources.OperationStatus, code resources.HandlerErrorCode) {
	t.Helper()
	if ev.Status != status || ev.ErrorCode != code {
		t.Fatalf("%s: got %v, want %s %s", step, ev, status, code)
	}
}

// TestContractSequences runs the contract test suite's sequences against
// every embedded type, through the checker in strict mode.
func TestContractSequences(t *testing.T) {
	all := samples(t)
	for _, typ := range resources.EmbeddedTypes() {
		t.Run(typ, func(t *testing.T) {
			s := all[typ]
			reg := resources.NewRegistry(resources.RegistryOptions{Seed: 11, ListPageSize: 2})
			p, err := reg.Provider(typ)
			if err != nil {
				t.Fatal(err)
			}
			c := contract.Wrap(p, contract.Options{Mode: contract.Strict})
			h := &harness{t: t, p: c}
			defer func() {
				for _, v := range c.Violations() {
					t.Errorf("violation: %s", v)
				}
			}()

			// create_read, create_list
			created := h.call(resources.ActionCreate, s.create, "")
			want(t, "create", created, resources.StatusSuccess, "")
			id, _ := c.PhysicalID(created.ResourceModel)
			want(t, "read after create", h.call(resources.ActionRead, created.ResourceModel, id), resources.StatusSuccess, "")
			// create_create: AlreadyExists when the template names the
			// identifier (directly, or through createOnly properties it is made
			// of: a route's table and CIDR block); otherwise a second resource.
			again := h.call(resources.ActionCreate, s.create, "")
			generated := again.Status == resources.StatusSuccess
			if allNamed(c.Schema(), s.create) || !generated {
				want(t, "create_create", again, resources.StatusFailed, resources.ErrAlreadyExists)
			} else if id2, _ := c.PhysicalID(again.ResourceModel); id2 == id {
				t.Fatalf("create_create: a second create answered the same identifier %s", id)
			}
			if generated { // more resources, so that list pages (page size 2)
				for i := 0; i < 3; i++ {
					want(t, "create more", h.call(resources.ActionCreate, s.create, ""), resources.StatusSuccess, "")
				}
			}
			if !has(h.list(), id) {
				t.Fatalf("create_list: %s not listed", id)
			}

			// update_read, update_list
			upd := resources.CopyModel(s.update)
			for _, ptr := range c.Schema().PrimaryIdentifier {
				if v, ok := resources.Get(created.ResourceModel, ptr); ok {
					resources.Set(upd, ptr, v)
				}
			}
			updated := h.call(resources.ActionUpdate, upd, id)
			want(t, "update", updated, resources.StatusSuccess, "")
			read := h.call(resources.ActionRead, updated.ResourceModel, id)
			want(t, "update_read", read, resources.StatusSuccess, "")
			if !has(h.list(), id) {
				t.Fatalf("update_list: %s not listed", id)
			}

			// update_without_create
			ghost := resources.CopyModel(created.ResourceModel)
			for _, ptr := range c.Schema().PrimaryIdentifier {
				resources.Set(ghost, ptr, "stacksim-no-such-resource")
			}
			want(t, "update_without_create", h.call(resources.ActionUpdate, ghost, ""), resources.StatusFailed, resources.ErrNotFound)

			// create_delete, delete_read, delete_list, delete_update, delete_delete, delete_create
			want(t, "delete", h.call(resources.ActionDelete, updated.ResourceModel, id), resources.StatusSuccess, "")
			want(t, "delete_read", h.call(resources.ActionRead, updated.ResourceModel, id), resources.StatusFailed, resources.ErrNotFound)
			if has(h.list(), id) {
				t.Fatalf("delete_list: %s still listed", id)
			}
			want(t, "delete_update", h.call(resources.ActionUpdate, upd, id), resources.StatusFailed, resources.ErrNotFound)
			want(t, "delete_delete", h.call(resources.ActionDelete, updated.ResourceModel, id), resources.StatusFailed, resources.ErrNotFound)
			want(t, "delete_create", h.call(resources.ActionCreate, s.create, ""), resources.StatusSuccess, "")
		})
	}
}

// named lists the primary identifier pointers the template sets.
func named(s *resources.Schema, props map[string]any) []string {
	var out []string
	for _, p := range s.PrimaryIdentifier {
		if resources.Has(props, p) {
			out = append(out, p)
		}
	}
	return out
}

func allNamed(s *resources.Schema, props map[string]any) bool {
	return len(named(s, props)) == len(s.PrimaryIdentifier)
}

func decode(data []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v map[string]any
	return v, d.Decode(&v)
}
