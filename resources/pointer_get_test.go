package resources

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Get walks a pointer where it stands; it answers as getSegs over
// SplitPointer does, for every form of pointer.
func TestGetMatchesSplitPointer(t *testing.T) {
	model := map[string]any{
		"A":           map[string]any{"B": []any{"x", map[string]any{"C": json.Number("3")}}, "": "empty"},
		"":            map[string]any{"": "twice"},
		"properties":  "a member named properties",
		"propertiesX": map[string]any{"A": true},
		"S/T":         "slash", "U~V": "tilde",
	}
	for _, p := range []string{"", "#", "/", "#/", "/properties", "properties", "/properties/", "/properties/A", "/A", "A",
		"/A/B", "/A/B/0", "/A/B/1/C", "/A/B/2", "/A/B/-1", "/A/B/x", "/A/", "//", "///", "/propertiesX/A", "propertiesX",
		"/properties/properties", "/properties/A/B/1", "#/properties/A/B/0", "/S~1T", "/U~0V", "/properties/S~1T",
		"/A/B/0/more", "/nope", "/properties//", "/A//"} {
		got, gok := Get(model, p)
		want, wok := getSegs(model, SplitPointer(p))
		if gok != wok || !reflect.DeepEqual(got, want) {
			t.Errorf("Get(%q) = %v %v, want %v %v", p, got, gok, want, wok)
		}
	}
}

// checkTypeName splits by hand; it accepts and refuses what a split on
// "::" did.
func TestCheckTypeName(t *testing.T) {
	bySplit := func(s string) bool {
		parts := strings.Split(s, "::")
		return len(parts) == 3 && parts[0] != "" && parts[1] != "" && parts[2] != "" ||
			len(parts) == 2 && parts[0] == "Custom" && parts[1] != ""
	}
	for _, s := range []string{"AWS::S3::Bucket", "Custom::Thing", "Custom::", "Custom", "AWS::S3", "AWS::S3::Bucket::X",
		"A::::B", "::B::C", "A::B::", "Custom::A::B", ":::", "A:::B::C", "A::B:::C", "", "::", "Custom::::", "a::b::c"} {
		ok := checkTypeName(s) == nil
		if ok != bySplit(s) {
			t.Errorf("checkTypeName(%q) accepts: %v, want %v", s, ok, bySplit(s))
		}
		if !ok && !strings.Contains(fmt.Sprint(checkTypeName(s)), "is not a resource type name") {
			t.Errorf("checkTypeName(%q): %v", s, checkTypeName(s))
		}
	}
}
