package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
)

func TestDriftOf(t *testing.T) {
	schema, err := resources.ParseSchema("fn", []byte(`{"typeName": "Test::Drift::Fn", "description": "d",
	 "properties": {"Name": {"type": "string"}, "Code": {"type": "object"}, "Size": {"type": "integer"},
	  "Secret": {"type": "string"}, "Tags": {"type": "array"}, "Env": {"type": "object"}},
	 "primaryIdentifier": ["/properties/Name"], "writeOnlyProperties": ["/properties/Code/ZipFile", "/properties/Secret"],
	 "additionalProperties": false}`))
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]any{"Name": "f", "Code": map[string]any{"ZipFile": "x"}, "Secret": "s", "Size": "8",
		"Tags": []any{"a", "b"}, "Env": map[string]any{"A": "1", "Ref": "{{resolve:ssm:/p}}"}}
	for _, c := range []struct {
		why    string
		actual map[string]any
		gone   bool
		status string
		diffs  []store.PropertyDifference
	}{
		{"the same (8 is \"8\"; writeOnly and dynamic references not compared)", map[string]any{"Name": "f", "Size": 8, "Tags": []any{"a", "b"}, "Extra": "x"}, false, DriftInSync, nil},
		{"changed, an element added, one missing", map[string]any{"Name": "g", "Size": json.Number("8"), "Tags": []any{"a", "b", "c"}}, false, DriftModified,
			[]store.PropertyDifference{{PropertyPath: "/Name", ExpectedValue: "f", ActualValue: "g", DifferenceType: DifferenceNotEqual},
				{PropertyPath: "/Tags/2", ActualValue: "c", DifferenceType: DifferenceAdd}}},
		{"a property gone", map[string]any{"Name": "f", "Size": 8}, false, DriftModified,
			[]store.PropertyDifference{{PropertyPath: "/Tags", ExpectedValue: `["a","b"]`, DifferenceType: DifferenceRemove}}},
		{"the resource gone", nil, true, DriftDeleted, nil},
	} {
		d := driftOf(schema, expected, c.actual, c.gone)
		if d.Status != c.status || !reflect.DeepEqual(d.Differences, c.diffs) {
			t.Errorf("%s: %s %+v, want %s %+v", c.why, d.Status, d.Differences, c.status, c.diffs)
		}
		if d.Expected != `{"Name":"f","Size":"8","Tags":["a","b"]}` {
			t.Errorf("%s: expected %s", c.why, d.Expected)
		}
	}
	if _, ok := expected["Secret"]; !ok {
		t.Fatal("driftOf changed the properties it was given")
	}
}
