package resources

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// CloudFormation words a template's properties that fail their schema as
// its validator does: the messages below are those of the registry's
// resource-schema library (its ValidatorTest), which scrubs the value out
// of the keywords that would show it.
func TestValidationMessagesEveryKeyword(t *testing.T) {
	const schema = `{
	  "typeName": "Test::Words::Thing",
	  "additionalProperties": false,
	  "required": ["Name"],
	  "primaryIdentifier": ["/properties/Name"],
	  "properties": {
	    "Name": {"type": "string", "minLength": 3, "maxLength": 8, "pattern": "^[a-z]+$"},
	    "Tier": {"type": "string", "enum": ["Standard", "Advanced"]},
	    "Kind": {"type": "string", "const": "fixed"},
	    "Count": {"type": "integer", "minimum": 1, "maximum": 10, "multipleOf": 2},
	    "Ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
	    "Items": {"type": "array", "minItems": 2, "maxItems": 3, "uniqueItems": true, "items": {"type": "integer"}},
	    "Must": {"type": "array", "contains": {"const": 7}},
	    "Map": {"type": "object", "minProperties": 2, "maxProperties": 3},
	    "Flag": {"type": "boolean"},
	    "Obj": {"type": "object"}
	  }
	}`
	s, err := ParseSchema("test", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		model map[string]any
		want  []string
	}{
		{"required", map[string]any{}, []string{"#: required key [Name] not found"}},
		{"extraneous", map[string]any{"Name": "abc", "Zed": 1, "Alpha": 2}, []string{"#: extraneous key [Alpha] is not permitted", "#: extraneous key [Zed] is not permitted"}},
		{"maxLength and pattern", map[string]any{"Name": "TooLongName"}, []string{"#/Name: expected maxLength: 8, actual: 11", "#/Name: failed validation constraint for keyword [pattern]"}},
		{"minLength", map[string]any{"Name": "ab"}, []string{"#/Name: expected minLength: 3, actual: 2"}},
		{"enum", map[string]any{"Name": "abc", "Tier": "Gold"}, []string{"#/Tier: failed validation constraint for keyword [enum]"}},
		{"const", map[string]any{"Name": "abc", "Kind": "other"}, []string{"#/Kind: failed validation constraint for keyword [const]"}},
		{"minimum and multipleOf", map[string]any{"Name": "abc", "Count": 0.0}, []string{"#/Count: failed validation constraint for keyword [minimum]"}},
		{"maximum", map[string]any{"Name": "abc", "Count": 5000001.0}, []string{"#/Count: failed validation constraint for keyword [maximum]", "#/Count: failed validation constraint for keyword [multipleOf]"}},
		{"exclusiveMinimum", map[string]any{"Name": "abc", "Ratio": 0.0}, []string{"#/Ratio: failed validation constraint for keyword [exclusiveMinimum]"}},
		{"exclusiveMaximum", map[string]any{"Name": "abc", "Ratio": 1.0}, []string{"#/Ratio: failed validation constraint for keyword [exclusiveMaximum]"}},
		{"maxItems and uniqueItems", map[string]any{"Name": "abc", "Items": []any{1.0, 1.0, 2.0, 3.0}}, []string{"#/Items: array items are not unique", "#/Items: expected maximum item count: 3, found: 4"}},
		{"minItems", map[string]any{"Name": "abc", "Items": []any{1.0}}, []string{"#/Items: expected minimum item count: 2, found: 1"}},
		{"contains", map[string]any{"Name": "abc", "Must": []any{}}, []string{"#/Must: expected at least one array item to match 'contains' schema"}},
		{"minProperties", map[string]any{"Name": "abc", "Map": map[string]any{"a": "1"}}, []string{"#/Map: minimum size: [2], found: [1]"}},
		{"maxProperties", map[string]any{"Name": "abc", "Map": map[string]any{"a": "1", "b": "2", "c": "3", "d": "4"}}, []string{"#/Map: maximum size: [3], found: [4]"}},
		{"type", map[string]any{"Name": "abc", "Obj": "x"}, []string{"#/Obj: expected type: JSONObject, found: String"}},
		{"type of a list", map[string]any{"Name": "abc", "Items": "x"}, []string{"#/Items: expected type: JSONArray, found: String"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ValidateInput(tc.model)
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ValidateInput = %v, want a *ValidationError", err)
			}
			if got, want := strings.Join(ve.Problems, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("problems:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// The subschemas: AWS's validation (everit, draft 7) applies allOf,
// anyOf, oneOf, not, if/then/else and dependencies to template
// properties, and words a failure as everit does: a combinator by the
// count of the alternatives that matched (below the root, with the
// subschema's own "#: " inside); not, then and else scrubbed by the
// resource-schema library (they are not among its SAFE_KEYWORDS); a
// missing dependency by its name. The contract checker applies none of
// them (the contract tests do not).
func TestValidationMessagesCombinators(t *testing.T) {
	const schema = `{
	  "typeName": "Test::Combined::Thing",
	  "additionalProperties": false,
	  "primaryIdentifier": ["/properties/Name"],
	  "oneOf": [{"required": ["TemplateURL"]}, {"required": ["TemplateBody"]}],
	  "properties": {
	    "Name": {"type": "string"},
	    "TemplateURL": {"type": "string"},
	    "TemplateBody": {"type": "string"},
	    "Vectors": {"$ref": "#/definitions/Vectors"},
	    "Day": {"type": "string", "anyOf": [{"enum": ["MONDAY", "TUESDAY"]}, {"pattern": "^[Mm]onday$"}]},
	    "Size": {"type": "integer", "allOf": [{"minimum": 1}, {"maximum": 9}, {"multipleOf": 2}]},
	    "Mode": {"type": "string", "not": {"const": "legacy"}},
	    "Table": {"$ref": "#/definitions/Table"},
	    "Recovery": {
	      "type": "object",
	      "properties": {"Enabled": {"type": "boolean"}, "Days": {"type": "integer"}, "Key": {"type": "string"}, "Encrypted": {"type": "boolean"}},
	      "dependencies": {"Days": ["Enabled"], "Key": {"required": ["Encrypted"], "properties": {"Encrypted": {"const": true}}}}
	    }
	  },
	  "definitions": {
	    "Vectors": {
	      "type": "object",
	      "additionalProperties": false,
	      "properties": {"IndexArn": {"type": "string"}, "IndexName": {"type": "string"}, "VectorBucketArn": {"type": "string"}},
	      "oneOf": [{"required": ["IndexArn"]}, {"required": ["IndexName", "VectorBucketArn"]}]
	    },
	    "Table": {
	      "type": "object",
	      "properties": {"Indexes": {"type": "array"}, "Keys": {"type": "array"}},
	      "if": {"required": ["Indexes"]},
	      "then": {"properties": {"Keys": {"minItems": 2}}},
	      "else": {"properties": {"Keys": {"maxItems": 1}}}
	    }
	  }
	}`
	s, err := ParseSchema("test", []byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	body := func(m map[string]any) map[string]any { m["TemplateBody"] = "{}"; return m }
	for _, tc := range []struct {
		name  string
		model map[string]any
		want  []string // nil: valid
	}{
		{"oneOf of the root, one matches", map[string]any{"TemplateURL": "u"}, nil},
		{"oneOf of the root, none", map[string]any{"Name": "n"}, []string{"#: 0 subschemas matched instead of one"}},
		{"oneOf of the root, both", map[string]any{"TemplateURL": "u", "TemplateBody": "b"}, []string{"#: 2 subschemas matched instead of one"}},
		{"oneOf below the root, one", body(map[string]any{"Vectors": map[string]any{"IndexArn": "a"}}), nil},
		{"oneOf below the root, both", body(map[string]any{"Vectors": map[string]any{"IndexArn": "a", "IndexName": "i", "VectorBucketArn": "b"}}),
			[]string{"#/Vectors: #: 2 subschemas matched instead of one"}},
		{"oneOf below the root, none", body(map[string]any{"Vectors": map[string]any{}}), []string{"#/Vectors: #: 0 subschemas matched instead of one"}},
		{"the node's own problems too", body(map[string]any{"Vectors": map[string]any{"Other": "x"}}),
			[]string{"#/Vectors: #: 0 subschemas matched instead of one", "#/Vectors: extraneous key [Other] is not permitted"}},
		{"anyOf, one matches", body(map[string]any{"Day": "monday"}), nil},
		{"anyOf, none", body(map[string]any{"Day": "Friday"}), []string{"#/Day: #: no subschema matched out of the total 2 subschemas"}},
		{"allOf, all match", body(map[string]any{"Size": "4"}), nil},
		{"allOf, some fail", body(map[string]any{"Size": "11"}), []string{"#/Size: #: only 1 subschema matches out of 3"}},
		{"not, passes", body(map[string]any{"Mode": "modern"}), nil},
		{"not, fails", body(map[string]any{"Mode": "legacy"}), []string{"#/Mode: failed validation constraint for keyword [not]"}},
		{"if holds, then holds", body(map[string]any{"Table": map[string]any{"Indexes": []any{"i"}, "Keys": []any{"a", "b"}}}), nil},
		{"if holds, then fails", body(map[string]any{"Table": map[string]any{"Indexes": []any{"i"}, "Keys": []any{"a"}}}),
			[]string{"#/Table: failed validation constraint for keyword [then]"}},
		{"if fails, else holds", body(map[string]any{"Table": map[string]any{"Keys": []any{"a"}}}), nil},
		{"if fails, else fails", body(map[string]any{"Table": map[string]any{"Keys": []any{"a", "b"}}}),
			[]string{"#/Table: failed validation constraint for keyword [else]"}},
		{"a dependency, met", body(map[string]any{"Recovery": map[string]any{"Days": json.Number("7"), "Enabled": true}}), nil},
		{"a dependency, missing", body(map[string]any{"Recovery": map[string]any{"Days": json.Number("7")}}),
			[]string{"#/Recovery: property [Enabled] is required"}},
		{"no dependency without its property", body(map[string]any{"Recovery": map[string]any{"Enabled": false}}), nil},
		{"a dependent schema, met", body(map[string]any{"Recovery": map[string]any{"Key": "k", "Encrypted": true}}), nil},
		{"a dependent schema, failed: its problems are the object's", body(map[string]any{"Recovery": map[string]any{"Key": "k"}}),
			[]string{"#/Recovery: required key [Encrypted] not found"}},
		{"a dependent schema, failed below", body(map[string]any{"Recovery": map[string]any{"Key": "k", "Encrypted": false}}),
			[]string{"#/Recovery/Encrypted: failed validation constraint for keyword [const]"}},
		{"a type problem stops the node's checks", body(map[string]any{"Vectors": "x"}), []string{"#/Vectors: expected type: JSONObject, found: String"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.ValidateInput(tc.model)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("ValidateInput = %v, want valid", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ValidateInput = %v, want a *ValidationError", err)
			}
			if got, want := strings.Join(ve.Problems, "\n"), strings.Join(tc.want, "\n"); got != want {
				t.Errorf("problems:\n%s\nwant:\n%s", got, want)
			}
			// the contract tests apply none of them
			var contract *ValidationError
			if errors.As(s.ValidateModel(tc.model), &contract) {
				for _, p := range contract.Problems {
					if strings.Contains(p, "subschema") || strings.Contains(p, "failed") || strings.Contains(p, "required") {
						t.Errorf("ValidateModel applies a subschema: %s", p)
					}
				}
			}
		})
	}
}
