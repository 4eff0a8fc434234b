package statefile

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

// fullResource has every field of a resource's row set, so that a field
// the fast decoder forgets fails the test.
func fullResource(t testing.TB) *store.ResourceRecord {
	r := &store.ResourceRecord{
		StackId: "arn:aws:cloudformation:us-east-1:123456789012:stack/app/x", LogicalResourceId: "Queue",
		PhysicalResourceId: "q\u00e9\"\\/", ResourceType: "AWS::SQS::Queue", ResourceStatus: "UPDATE_FAILED",
		ResourceStatusReason: "it failed: \n\t\u2028<&>", LastUpdatedTimestamp: time.Date(2025, 1, 1, 0, 0, 5, 123456789, time.UTC),
		Description: "d", Metadata: `{"a":1}`,
		Properties:     map[string]any{"N": json.Number("-12345678901234567890.5e-3"), "L": []any{"a", true, nil, map[string]any{}}, "E": map[string]any{"x": []any{}}},
		Model:          map[string]any{"QueueUrl": "q", "Big": json.Number("0")},
		DependsOn:      []string{"A", "B"},
		DeletionPolicy: "Retain", UpdateReplacePolicy: "Snapshot", RollbackFailed: true, Skipped: true,
		CreationPolicy: map[string]any{"ResourceSignal": map[string]any{"Count": json.Number("2")}},
		UpdatePolicy:   []any{"x"}, Retired: "Replaced",
		Drift: &store.ResourceDrift{Status: "MODIFIED", Reason: "r", Expected: `{"A":"1"}`, Actual: `{"A":"2"}`, Time: time.Date(2025, 1, 1, 0, 1, 0, 0, time.UTC),
			Differences: []store.PropertyDifference{{PropertyPath: "/A", ExpectedValue: "1", ActualValue: "2", DifferenceType: "NOT_EQUAL"}}},
		Instances:     []store.Instance{{Id: "i-0123", Launch: "a1b2"}, {Id: "i-4567"}},
		HandleSignals: []store.HandleSignal{{UniqueId: "i-1", Status: "SUCCESS", Data: "ready"}},
	}
	v := reflect.ValueOf(r).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Tag.Get("json") == "-" || !f.IsExported() {
			continue
		}
		if v.Field(i).IsZero() {
			t.Fatalf("fullResource leaves %s zero: set it, and teach fastResource to read it", f.Name)
		}
	}
	return r
}

func decodeStd(t testing.TB, data []byte) *store.ResourceRecord {
	rec := &store.ResourceRecord{}
	if err := decodeJSON(data, rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

func TestFastResourceMatchesEncodingJSON(t *testing.T) {
	data, err := json.Marshal(fullResource(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := fastResource(data, interner{})
	if err != nil {
		t.Fatalf("the fast decoder did not read a row json.Marshal wrote: %v", err)
	}
	if want := decodeStd(t, data); !reflect.DeepEqual(got, want) {
		t.Fatalf("\n got %#v\nwant %#v", got, want)
	}
	for _, odd := range []string{`{"Unknown":1}`, `{"Properties":"x"}`, `{"DependsOn":[1]}`, `{} x`, `{"Skipped":1}`} {
		if _, err := fastResource([]byte(odd), interner{}); err != errFallBack {
			t.Errorf("%s: %v, want the fall-back to encoding/json", odd, err)
		}
	}
}

// FuzzFastResource: whatever the bytes, the decoder of resources (fast,
// or encoding/json where it falls back) gives what encoding/json gives.
func FuzzFastResource(f *testing.F) {
	data, _ := json.Marshal(fullResource(f))
	f.Add(data)
	f.Add([]byte(`{"Properties":{"a":[1,2.5e10,"\u00e9\ud83d\ude00"]},"DependsOn":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := &store.ResourceRecord{}
		werr := decodeJSON(data, want)
		got, err := decodeResource(data, interner{})
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", data, err, werr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %#v\nwant %#v", data, got, want)
		}
	})
}

func BenchmarkDecodeResource(b *testing.B) {
	data, _ := json.Marshal(fullResource(b))
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		in := interner{}
		for i := 0; i < b.N; i++ {
			if _, err := fastResource(data, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			decodeStd(b, data)
		}
	})
}
