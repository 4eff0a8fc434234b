package resources

import (
	"strings"
	"testing"
)

func FuzzParseSchema(f *testing.F) {
	f.Add([]byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "properties": {"Id": {"type": "string"}}}`))
	f.Add([]byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "handlers": {"create": {"timeoutInMinutes": 5}}, "x-stacksim": {"durations": {"create": 3}}}`))
	f.Add([]byte(`{"typeName": "Module"}`))
	f.Add([]byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "readOnlyProperties": ["/properties/A/*/B"], "properties": {"Id": {"type": "string", "pattern": "^(?!z)[a-y]+$"}, "A": {"type": "array", "items": {"$ref": "#/definitions/D"}}}, "definitions": {"D": {"type": "object", "properties": {"B": {"type": "integer", "minimum": 1}}, "patternProperties": {"^x": {"type": "string"}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSchema("fuzz.json", data)
		if err != nil {
			return
		}
		// Whatever parsed must answer the planner's questions without panicking.
		s.Attributes()
		s.IsCreateOnly("/properties/A/0/B")
		s.ValidateModel(map[string]any{"Id": "x"}) //nolint:errcheck
		s.Coerce(map[string]any{"Id": "1"})
		// A schema Check accepts compiles in every validator: what it
		// refuses of a model is the model's, never the schema's.
		if s.Check() == nil {
			for _, m := range []map[string]any{{"Id": "x"}, {"Id": 1, "A": []any{"b", map[string]any{}}}, {}} {
				for _, err := range []error{s.ValidateInput(m), s.ValidateModel(m)} {
					if err != nil && strings.Contains(err.Error(), "compile schema") {
						t.Fatalf("checked, then: %v", err)
					}
				}
			}
		}
	})
}

func FuzzParseCustomResponse(f *testing.F) {
	f.Add([]byte(`{"Status": "SUCCESS", "PhysicalResourceId": "x", "Data": {"A": 1}}`))
	f.Add([]byte(`{"Status": "FAILED"}`))
	f.Add([]byte(`[]`))
	req := &CustomRequest{StackID: "s", RequestID: "r", LogicalResourceID: "l"}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseCustomResponse(data, req)
		if err == nil && (r.PhysicalResourceID == "" || (r.Status != "SUCCESS" && r.Status != "FAILED")) {
			t.Fatalf("accepted an invalid response: %+v", r)
		}
	})
}

func FuzzPointers(f *testing.F) {
	f.Add("/properties/A/*/B")
	f.Add("/a~1b/~0c/0")
	f.Fuzz(func(t *testing.T, p string) {
		m := map[string]any{"A": []any{map[string]any{"B": "x"}}, "a/b": map[string]any{}}
		Get(m, p)
		GetAll(m, p)
		Set(m, p, "v") //nolint:errcheck
		Delete(m, p)
		PointerMatches(p, "/properties/A/0/B")
	})
}
