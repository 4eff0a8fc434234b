package plan

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

func TestDecide(t *testing.T) {
	schema := &resources.Schema{
		CreateOnlyProperties:            []string{"/properties/Name", "/properties/Config/Key", "/properties/Items/*/Id"},
		ConditionalCreateOnlyProperties: []string{"/properties/Engine"},
	}
	dtc := &resources.Schema{CreateOnlyProperties: []string{"/properties/Name"}, Replacement: "delete_then_create"}
	unknown := template.Unknown{LogicalID: "Other"}
	tests := []struct {
		name     string
		schema   Schema
		custom   bool
		old, new map[string]any
		action   Action
		repl     Replacement
		paths    []string
	}{
		{"nothing changes", schema, false,
			map[string]any{"Name": "a", "Size": json.Number("8"), "On": true},
			map[string]any{"Name": "a", "Size": "8", "On": "true"}, NoOp, "", nil},
		{"empty containers equal", schema, false,
			map[string]any{"Tags": []any{}, "M": map[string]any{}}, map[string]any{"Tags": []any{}, "M": map[string]any{}}, NoOp, "", nil},
		{"plain property: update in place", schema, false,
			map[string]any{"Name": "a", "Size": "1"}, map[string]any{"Name": "a", "Size": "2"}, Update, ReplacementFalse, []string{"/Size"}},
		{"createOnly: replacement", schema, false,
			map[string]any{"Name": "a"}, map[string]any{"Name": "b"}, CreateThenDelete, ReplacementTrue, []string{"/Name"}},
		{"createOnly added", schema, false,
			map[string]any{}, map[string]any{"Name": "b"}, CreateThenDelete, ReplacementTrue, []string{"/Name"}},
		{"createOnly removed", schema, false,
			map[string]any{"Name": "a"}, map[string]any{}, CreateThenDelete, ReplacementTrue, []string{"/Name"}},
		{"delete_then_create strategy", dtc, false,
			map[string]any{"Name": "a"}, map[string]any{"Name": "b"}, DeleteThenCreate, ReplacementTrue, []string{"/Name"}},
		{"createOnly member of an object", schema, false,
			map[string]any{"Config": map[string]any{"Key": "k1", "Other": "x"}},
			map[string]any{"Config": map[string]any{"Key": "k2", "Other": "x"}}, CreateThenDelete, ReplacementTrue, []string{"/Config/Key"}},
		{"object holding a createOnly member appears", schema, false,
			map[string]any{}, map[string]any{"Config": map[string]any{"Key": "k"}}, CreateThenDelete, ReplacementTrue, []string{"/Config/Key"}},
		{"other member of that object", schema, false,
			map[string]any{"Config": map[string]any{"Key": "k", "Other": "x"}},
			map[string]any{"Config": map[string]any{"Key": "k", "Other": "y"}}, Update, ReplacementFalse, []string{"/Config/Other"}},
		{"createOnly inside every array member", schema, false,
			map[string]any{"Items": []any{map[string]any{"Id": "1"}}},
			map[string]any{"Items": []any{map[string]any{"Id": "1"}, map[string]any{"Id": "2"}}}, CreateThenDelete, ReplacementTrue, []string{"/Items/1/Id"}},
		{"conditionalCreateOnly: Conditional", schema, false,
			map[string]any{"Engine": "5.7"}, map[string]any{"Engine": "8.0"}, Update, ReplacementConditional, []string{"/Engine"}},
		{"unknown at createOnly: Conditional", schema, false,
			map[string]any{"Name": "a"}, map[string]any{"Name": unknown}, Update, ReplacementConditional, []string{"/Name"}},
		{"unknown elsewhere: Update", schema, false,
			map[string]any{"Size": "1"}, map[string]any{"Size": unknown}, Update, ReplacementFalse, []string{"/Size"}},
		{"unknown replacing an object with a createOnly member", schema, false,
			map[string]any{"Config": map[string]any{"Key": "k"}}, map[string]any{"Config": unknown}, Update, ReplacementConditional, []string{"/Config/Key"}},
		{"known createOnly change wins over unknowns", schema, false,
			map[string]any{"Name": "a", "Size": "1"}, map[string]any{"Name": "b", "Size": unknown}, CreateThenDelete, ReplacementTrue, []string{"/Name", "/Size"}},
		{"custom resource: always an update", schema, true,
			map[string]any{"Name": "a"}, map[string]any{"Name": "b"}, Update, ReplacementFalse, []string{"/Name"}},
		{"no schema: permissive", nil, false,
			map[string]any{"Name": "a"}, map[string]any{"Name": "b"}, Update, ReplacementFalse, []string{"/Name"}},
		{"scalar becomes a list", schema, false,
			map[string]any{"V": "a"}, map[string]any{"V": []any{"a"}}, Update, ReplacementFalse, []string{"/V", "/V/0"}},
		{"keys needing escapes", schema, false,
			map[string]any{"a/b": "1", "c~d": "1"}, map[string]any{"a/b": "2", "c~d": "2"}, Update, ReplacementFalse, []string{"/a~1b", "/c~0d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.schema, tt.custom, tt.old, tt.new)
			if d.Action != tt.action || d.Replacement != tt.repl {
				t.Errorf("Decide = %s/%q, want %s/%q", d.Action, d.Replacement, tt.action, tt.repl)
			}
			var paths []string
			for _, c := range d.Changes {
				paths = append(paths, c.Path)
			}
			if !reflect.DeepEqual(paths, tt.paths) {
				t.Errorf("changed paths %v, want %v", paths, tt.paths)
			}
		})
	}
}

func TestDecideChangeDetails(t *testing.T) {
	schema := &resources.Schema{CreateOnlyProperties: []string{"/properties/Name"}}
	d := Decide(schema, false,
		map[string]any{"Name": "a", "Tags": []any{map[string]any{"Key": "k", "Value": "v"}}},
		map[string]any{"Name": template.Unknown{LogicalID: "X"}, "Tags": []any{map[string]any{"Key": "k", "Value": "w"}}})
	want := []PropertyChange{
		{Path: "/Name", Before: "a", After: template.Unknown{LogicalID: "X"}, Known: false, RequiresRecreation: Always},
		{Path: "/Tags/0/Value", Before: "v", After: "w", Known: true, RequiresRecreation: Never},
	}
	if !reflect.DeepEqual(d.Changes, want) {
		t.Errorf("Changes = %#v\nwant %#v", d.Changes, want)
	}
	if d.Changes[1].Name() != "Tags" {
		t.Errorf("Name() = %q", d.Changes[1].Name())
	}
	if (PropertyChange{Path: "/a~1b/0"}).Name() != "a/b" {
		t.Error("Name() does not unescape")
	}
}

func TestActionText(t *testing.T) {
	for a := NoOp; a <= Skip; a++ {
		b, err := a.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Action
		if err := back.UnmarshalText(b); err != nil || back != a {
			t.Errorf("%s: round trip gave %s, %v", a, back, err)
		}
	}
	var zero Action
	if b, _ := zero.MarshalText(); len(b) != 0 {
		t.Errorf("zero action marshals as %q", b)
	}
	if err := zero.UnmarshalText([]byte("Explode")); err == nil {
		t.Error("unknown action accepted")
	}
	if _, err := Action(99).MarshalText(); err == nil || Action(99).String() != "Action(99)" {
		t.Error("invalid action marshals")
	}
	if !CreateThenDelete.IsReplace() || !DeleteThenCreate.IsReplace() || Update.IsReplace() {
		t.Error("IsReplace wrong")
	}
	for o := Done; o <= InFlight; o++ {
		b, _ := o.MarshalText()
		var back Outcome
		if err := back.UnmarshalText(b); err != nil || back != o {
			t.Errorf("%s: round trip gave %s", o, back)
		}
	}
	if _, err := Outcome(0).MarshalText(); err == nil {
		t.Error("zero outcome marshals")
	}
}
