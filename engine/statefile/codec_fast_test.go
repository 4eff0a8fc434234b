package statefile

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// TestFastRowsMatchEncodingJSON: a resource's and a cloud object's rows
// are written byte for byte as encoding/json writes them, over random
// records that leave each field empty or not; and the rows' structs have
// the fields the fast writers know (a new field fails here first).
func TestFastRowsMatchEncodingJSON(t *testing.T) {
	if n := reflect.TypeFor[store.ResourceRecord]().NumField(); n != 24 {
		t.Fatalf("store.ResourceRecord has %d fields; appendResource knows 24 (all but Num and the unexported key written): add the new one", n)
	}
	if n := reflect.TypeFor[resources.Object]().NumField(); n != 10 {
		t.Fatalf("resources.Object has %d fields, appendObject knows 10 (writes the 6 exported): add the new one", n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	str := func() string {
		return [...]string{"", "a", "P001", "x<y>&\"z\"\n", "\u2028é\xff"}[rng.IntN(5)]
	}
	val := func() map[string]any {
		if rng.IntN(3) == 0 {
			return nil
		}
		return map[string]any{"Name": str(), "N": json.Number("12"), "L": []any{str(), true, map[string]any{"k": str()}}}
	}
	for i := 0; i < 2000; i++ {
		r := &store.ResourceRecord{
			Num: rng.Uint32(), StackId: str(), LogicalResourceId: str(), PhysicalResourceId: str(),
			ResourceType: str(), ResourceStatus: statemachine.ResourceStatus(str()), ResourceStatusReason: str(),
			Description: str(), Metadata: str(), Properties: val(), Model: val(),
			DeletionPolicy: str(), UpdateReplacePolicy: str(), RollbackFailed: rng.IntN(2) == 0, Skipped: rng.IntN(2) == 0,
			Retired: str(),
		}
		if rng.IntN(4) == 0 {
			r.Drift = &store.ResourceDrift{Status: str(), Expected: str(), Time: time.Date(2025, 1, 1, 0, 0, rng.IntN(100), 0, time.UTC),
				Differences: []store.PropertyDifference{{PropertyPath: str(), ActualValue: str(), DifferenceType: str()}}}
		}
		if rng.IntN(2) == 0 {
			r.LastUpdatedTimestamp = time.Date(2025, 1, 1, 0, 0, rng.IntN(100), rng.IntN(3)*1e8, time.UTC)
		}
		if rng.IntN(2) == 0 {
			r.DependsOn = []string{str(), str()}
		}
		if rng.IntN(3) == 0 {
			r.CreationPolicy = map[string]any{"ResourceSignal": map[string]any{"Count": json.Number("1")}}
		}
		if rng.IntN(3) == 0 {
			r.UpdatePolicy = val()
		}
		if rng.IntN(4) == 0 {
			r.Instances = []store.Instance{{Id: str(), Launch: str()}, {Id: str()}}
		}
		if rng.IntN(4) == 0 {
			r.HandleSignals = []store.HandleSignal{{UniqueId: str(), Status: str(), Data: str()}}
		}
		want, _ := json.Marshal(r)
		got, err := appendResource(nil, r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("resource %d:\n got %s (%v)\nwant %s", i, got, err, want)
		}
		var o *resources.Object
		if rng.IntN(5) > 0 {
			o = &resources.Object{Type: str(), ID: str(), Model: val(), StackID: str(), LogicalID: str(), RequestToken: str()}
		}
		want, _ = json.Marshal(objectJSON{Num: r.Num, Obj: o})
		if got, err = appendObject(nil, r.Num, o); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("object %d:\n got %s (%v)\nwant %s", i, got, err, want)
		}
	}
}
