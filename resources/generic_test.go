package resources

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestEmbeddedTypesCRUD(t *testing.T) {
	samples := loadSamples(t)
	types := EmbeddedTypes()
	if len(types) < 33 {
		t.Fatalf("embedded types: %d, want at least 33", len(types))
	}
	reg := NewRegistry(RegistryOptions{Seed: 7})
	for _, typ := range types {
		t.Run(typ, func(t *testing.T) {
			s, ok := samples[typ]
			if !ok {
				t.Fatalf("no sample in testdata/samples.json")
			}
			p, err := reg.Provider(typ)
			if err != nil {
				t.Fatal(err)
			}
			ev := drive(t, p, newReq(ActionCreate, "Res", "tok-1", StringifyModel(s.Create)))
			if ev.Status != StatusSuccess {
				t.Fatalf("create: %v", ev)
			}
			id, err := p.PhysicalID(ev.ResourceModel)
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range p.Schema().Attributes() {
				if _, err := p.GetAtt(ev.ResourceModel, a); err != nil && !strings.Contains(err.Error(), "does not exist") {
					t.Errorf("GetAtt %s: %v", a, err)
				}
			}
			if _, err := p.Ref(ev.ResourceModel); err != nil {
				t.Errorf("Ref: %v", err)
			}
			t.Logf("%s: %s %v", typ, id, ev.ResourceModel)
			rd := drive(t, p, &Request{Action: ActionRead, DesiredResourceState: ev.ResourceModel})
			if rd.Status != StatusSuccess {
				t.Fatalf("read: %v", rd)
			}
			up := newReq(ActionUpdate, "Res", "tok-2", StringifyModel(s.Update))
			up.PreviousResourceState = StringifyModel(s.Create)
			up.PhysicalResourceID = id
			uev := drive(t, p, up)
			if uev.Status != StatusSuccess {
				t.Fatalf("update: %v", uev)
			}
			del := newReq(ActionDelete, "Res", "tok-3", uev.ResourceModel)
			if dev := drive(t, p, del); dev.Status != StatusSuccess {
				t.Fatalf("delete: %v", dev)
			}
			if ev := drive(t, p, &Request{Action: ActionRead, DesiredResourceState: ev.ResourceModel}); ev.ErrorCode != ErrNotFound {
				t.Fatalf("read after delete: %v", ev)
			}
			_ = context.Background()
		})
	}
}

// TestStabilizing reads the generic provider's callback context in the
// forms it writes and in the two-map form of a stabilization's last step
// that state files saved before lastStepContext hold.
func TestStabilizing(t *testing.T) {
	cases := []struct {
		name      string
		cc        map[string]any
		id        string
		remaining int64
		ok        bool
	}{
		{"last step", lastStepContext("abc"), "abc", 0, true},
		{"steps left", stabilizeContext("abc", numberFromInt(30)), "abc", 30, true},
		{"last step, saved before", map[string]any{stabilizeKey: map[string]any{"id": "abc", "remaining": json.Number("0")}}, "abc", 0, true},
		{"remaining as text", map[string]any{stabilizeKey: map[string]any{"id": "abc", "remaining": "12"}}, "abc", 12, true},
		{"no id", map[string]any{stabilizeKey: ""}, "", 0, false},
		{"another handler's context", map[string]any{"other": "abc"}, "", 0, false},
		{"none", nil, "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id, remaining, ok := stabilizing(&Request{CallbackContext: c.cc})
			if id != c.id || remaining != c.remaining || ok != c.ok {
				t.Errorf("stabilizing(%v) = %q, %d, %v; want %q, %d, %v", c.cc, id, remaining, ok, c.id, c.remaining, c.ok)
			}
		})
	}
}
