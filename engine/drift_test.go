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

// A list the schema says is a set (insertionOrder false) compares its
// members in any order; an ordered one element by element.
func TestDriftOfSets(t *testing.T) {
	schema, err := resources.ParseSchema("sg", []byte(`{"typeName": "Test::Drift::Group", "description": "d",
	 "properties": {"Name": {"type": "string"},
	  "Ports": {"type": "array", "insertionOrder": false, "items": {"type": "integer"}},
	  "Rules": {"type": "array", "insertionOrder": false, "items": {"$ref": "#/definitions/Rule"}},
	  "Order": {"type": "array", "insertionOrder": true, "items": {"type": "string"}}},
	 "definitions": {"Rule": {"type": "object", "properties": {"Cidr": {"type": "string"}, "Ports": {"type": "array", "insertionOrder": false}}}},
	 "primaryIdentifier": ["/properties/Name"], "additionalProperties": false}`))
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]any{"Name": "g", "Ports": []any{"80", "443"}, "Order": []any{"a", "b"},
		"Rules": []any{map[string]any{"Cidr": "10.0.0.0/8", "Ports": []any{1, 2}}, map[string]any{"Cidr": "0.0.0.0/0"}}}
	for _, c := range []struct {
		why    string
		actual map[string]any
		diffs  []store.PropertyDifference
	}{
		{"sets reordered, nested set too: in sync", map[string]any{"Name": "g", "Ports": []any{443, 80}, "Order": []any{"a", "b"},
			"Rules": []any{map[string]any{"Cidr": "0.0.0.0/0"}, map[string]any{"Cidr": "10.0.0.0/8", "Ports": []any{2, 1}}}}, nil},
		{"an ordered list reordered", map[string]any{"Name": "g", "Ports": []any{"80", "443"}, "Order": []any{"b", "a"},
			"Rules": expected["Rules"]}, []store.PropertyDifference{
			{PropertyPath: "/Order/0", ExpectedValue: "a", ActualValue: "b", DifferenceType: DifferenceNotEqual},
			{PropertyPath: "/Order/1", ExpectedValue: "b", ActualValue: "a", DifferenceType: DifferenceNotEqual}}},
		{"a set member replaced", map[string]any{"Name": "g", "Ports": []any{"22", "80"}, "Order": []any{"a", "b"},
			"Rules": expected["Rules"]}, []store.PropertyDifference{
			{PropertyPath: "/Ports/1", ExpectedValue: "443", DifferenceType: DifferenceRemove},
			{PropertyPath: "/Ports/0", ActualValue: "22", DifferenceType: DifferenceAdd}}},
	} {
		d := driftOf(schema, expected, c.actual, false)
		if !reflect.DeepEqual(d.Differences, c.diffs) {
			t.Errorf("%s: %+v, want %+v", c.why, d.Differences, c.diffs)
		}
	}
}
