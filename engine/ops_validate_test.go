package engine

import "testing"

// Which problems a value not known yet excuses (ops_validate.go).
func TestAboutUnknown(t *testing.T) {
	unknown := []string{"#/VpcSettings/SubnetIds/0", "#/VpcSettings/SubnetIds/1", "#/Name"}
	cases := []struct {
		problem string
		want    bool
	}{
		{"#/VpcSettings/SubnetIds/0: expected type: String, found: Null", true},
		{"#/VpcSettings/SubnetIds: items at 0 and 1 are equal", true},
		{"#/Name: expected type: String, found: Null", true},
		{"#: required key [Name] not found", true},
		{"#: required key [Type] not found", false},
		{"#: extraneous key [Colour] is not permitted", false},
		{"#/VpcSettings: required key [VpcId] not found", false},
		{"#/Size: expected type: Integer, found: JSONArray", false},
		{"#/VpcSettings: property [VpcId] is required", false},
		{"#/VpcSettings: failed validation constraint for keyword [then]", true},
		{"#: failed validation constraint for keyword [not]", true},
	}
	for _, c := range cases {
		if got := aboutUnknown(c.problem, unknown); got != c.want {
			t.Errorf("aboutUnknown(%q) = %v, want %v", c.problem, got, c.want)
		}
	}
}
