package resources

import "testing"

// TestInputCertainlyValid: a Pending value passes every check where it is
// (type, pattern, enum, length); a known value is checked as ValidateInput
// checks it; false is "not certain", never a wrong "valid".
func TestInputCertainlyValid(t *testing.T) {
	s, err := ParseSchema("pending", []byte(`{
	  "typeName": "Test::Pending::Thing",
	  "properties": {
	    "Name": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 5},
	    "Size": {"type": "integer", "enum": [1, 2]},
	    "Tags": {"type": "array", "items": {"type": "object", "properties": {"Key": {"type": "string"}}, "required": ["Key"]}}
	  },
	  "required": ["Name"],
	  "primaryIdentifier": ["/properties/Name"],
	  "additionalProperties": false
	}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		model map[string]any
		want  bool
	}{
		{"all pending", map[string]any{"Name": Pending{}, "Size": Pending{}, "Tags": Pending{}}, true},
		{"pending item key", map[string]any{"Name": "abc", "Tags": []any{map[string]any{"Key": Pending{}}}}, true},
		{"known and valid", map[string]any{"Name": "abc", "Size": "2"}, true},
		{"pending beside a bad pattern", map[string]any{"Name": "ABC", "Size": Pending{}}, false},
		{"pending beside a bad enum", map[string]any{"Name": Pending{}, "Size": "3"}, false},
		{"required missing", map[string]any{"Size": Pending{}}, false},
		{"extraneous key", map[string]any{"Name": Pending{}, "Other": "x"}, false},
	} {
		if got := s.InputCertainlyValid(c.model); got != c.want {
			t.Errorf("%s: InputCertainlyValid = %v, want %v", c.name, got, c.want)
		}
	}
}
