package contract

import (
	"context"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

// The checker keeps, by logical id, the last model it found valid (the map
// itself), and a delete of the resource forgets it.
func TestValidModelsRememberedAndForgotten(t *testing.T) {
	s, err := resources.ParseSchema("t.json", []byte(`{"typeName": "Test::Valid::Thing", "properties": {"Name": {"type": "string"}},
	 "additionalProperties": false, "primaryIdentifier": ["/properties/Name"]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"Name": "a"}
	h := func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) {
		if r.Action == resources.ActionDelete {
			return resources.Success(nil), nil
		}
		return resources.Success(m), nil
	}
	c := Wrap(resources.NewHandlerProvider(s, resources.HandlerFuncs{CreateFunc: h, ReadFunc: h, DeleteFunc: h}), Options{})
	for _, step := range []struct {
		action resources.Action
		kept   bool
	}{{resources.ActionCreate, true}, {resources.ActionRead, true}, {resources.ActionDelete, false}} {
		if _, err := resources.Invoke(context.Background(), c, &resources.Request{Action: step.action, LogicalResourceIdentifier: "A", DesiredResourceState: m, ClientRequestToken: "t"}); err != nil {
			t.Fatal(err)
		}
		if got := c.knownValid("A", m); got != step.kept {
			t.Errorf("after %s: the model is known valid: %v, want %v", step.action, got, step.kept)
		}
	}
	if len(c.Violations()) != 0 {
		t.Fatalf("violations: %v", c.Violations())
	}
}
