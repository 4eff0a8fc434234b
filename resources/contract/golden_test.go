package contract_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

var update = flag.Bool("update", false, "rewrite testdata/golden files")

const nestedSchema = `{
 "typeName": "Test::Broken::Nested",
 "properties": {
  "Name": {"type": "string"},
  "Count": {"type": "integer", "minimum": 1},
  "On": {"type": "boolean"},
  "Conf": {"type": "object", "properties": {
    "Mode": {"type": "string", "enum": ["a", "b"]},
    "Key": {"type": "string"},
    "Items": {"type": "array", "items": {"type": "object", "properties": {"Id": {"type": "string"}, "N": {"type": "integer"}}}}
  }},
  "Ordered": {"type": "array", "items": {"type": "string"}},
  "Bag": {"type": "array", "insertionOrder": false, "items": {"type": "object", "properties": {"K": {"type": "string"}}}},
  "Region": {"type": "string"},
  "Id": {"type": "string"}
 },
 "additionalProperties": false,
 "primaryIdentifier": ["/properties/Region", "/properties/Id"],
 "readOnlyProperties": ["/properties/Id"],
 "writeOnlyProperties": ["/properties/Conf/Key", "/properties/Conf/Items/*/N"]
}`

// TestViolationMessagesGolden pins the wording of what the checker finds in
// a series of broken answers (nested input not applied, arrays in and out
// of order, schema problems, writeOnly values, composite identifiers).
func TestViolationMessagesGolden(t *testing.T) {
	s, err := resources.ParseSchema("nested.json", []byte(nestedSchema))
	if err != nil {
		t.Fatal(err)
	}
	input := model("Name", "n", "Count", "2", "On", "true", "Region", "eu",
		"Conf", model("Mode", "a", "Key", "k", "Items", []any{model("Id", "x", "N", "1"), model("Id", "y")}),
		"Ordered", []any{"p", "q"}, "Bag", []any{model("K", "1"), model("K", "2")})
	full := func(kv ...any) map[string]any {
		m := model("Name", "n", "Count", "2", "On", true, "Region", "eu", "Id", "i1",
			"Conf", model("Mode", "a", "Items", []any{model("Id", "x"), model("Id", "y")}),
			"Ordered", []any{"p", "q"}, "Bag", []any{model("K", "2"), model("K", "1")})
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
				continue
			}
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	cases := []struct {
		name   string
		action resources.Action
		answer *resources.ProgressEvent
	}{
		{"good create", resources.ActionCreate, ok(full())},
		{"good in progress", resources.ActionCreate, resources.InProgress(full(), map[string]any{"x": "1"}, 3)},
		{"missing and changed", resources.ActionCreate, ok(full("Name", nil, "Count", "3"))},
		{"nested differs", resources.ActionUpdate, ok(full("Conf", model("Mode", "b", "Items", []any{model("Id", "x")})))},
		{"nested not an object", resources.ActionCreate, ok(full("Conf", "flat"))},
		{"ordered array reordered", resources.ActionCreate, ok(full("Ordered", []any{"q", "p"}))},
		{"unordered bag other members", resources.ActionCreate, ok(full("Bag", []any{model("K", "1"), model("K", "3")}))},
		{"schema problems", resources.ActionRead, ok(full("Count", "0", "Conf", model("Mode", "z"), "Extra", "e"))},
		{"writeOnly returned", resources.ActionRead, ok(full("Conf", model("Mode", "a", "Key", "k", "Items", []any{model("Id", "x", "N", "1")})))},
		{"null", resources.ActionRead, ok(full("Conf", model("Mode", nil, "Items", []any{nil})))},
		{"identifier missing", resources.ActionUpdate, ok(full("Id", nil))},
		{"identifier changed", resources.ActionRead, ok(full("Id", "i2"))},
		{"list", resources.ActionList, &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModel: full(),
			ResourceModels: []map[string]any{full(), full("Id", nil, "Count", "x")}}},
		{"delete with model", resources.ActionDelete, ok(full())},
		{"read after delete", resources.ActionRead, ok(full())},
		{"create existing", resources.ActionCreate, ok(full())},
		{"failed", resources.ActionCreate, &resources.ProgressEvent{Status: resources.StatusFailed, ErrorCode: "Nope", CallbackDelaySeconds: 2}},
	}
	var b strings.Builder
	var answerNow *resources.ProgressEvent
	h := broken(func(*resources.Request) (*resources.ProgressEvent, error) { return answerNow, nil })
	c := contract.Wrap(resources.NewHandlerProvider(s, h), contract.Options{Mode: contract.Strict})
	seen := 0
	for i, tc := range cases {
		answerNow = tc.answer
		req := &resources.Request{Action: tc.action, DesiredResourceState: resources.StringifyModel(input),
			ClientRequestToken: "t" + string(rune('a'+i)), LogicalResourceIdentifier: "Thing", ResourceType: s.TypeName, Attempt: 1}
		if tc.action != resources.ActionCreate {
			req.PhysicalResourceID = "eu|i1"
		}
		if tc.action == resources.ActionRead || tc.action == resources.ActionDelete {
			req.DesiredResourceState = full()
		}
		ev, err := resources.Invoke(context.Background(), c, req)
		b.WriteString("## " + tc.name + "\n")
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
		} else {
			b.WriteString(ev.String() + "\n")
		}
		vs := c.Violations()
		for _, v := range vs[seen:] {
			b.WriteString("  " + v.String() + "\n")
		}
		seen = len(vs)
	}
	path := filepath.Join("testdata", "golden", "violations.txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to make it)", err, t.Name())
	}
	if !bytes.Equal([]byte(b.String()), want) {
		t.Fatalf("%s differs (run go test -run %s -update if the change is meant):\n--- want\n%s\n--- got\n%s", path, t.Name(), want, b.String())
	}
}
