package resources

import (
	"context"
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
