package resources

import "testing"

func FuzzParseSchema(f *testing.F) {
	f.Add([]byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "properties": {"Id": {"type": "string"}}}`))
	f.Add([]byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "handlers": {"create": {"timeoutInMinutes": 5}}, "x-stacksim": {"durations": {"create": 3}}}`))
	f.Add([]byte(`{"typeName": "Module"}`))
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
