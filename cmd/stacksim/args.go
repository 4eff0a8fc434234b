package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
)

// Arguments as the AWS CLI reads them: file://PATH loads a file, a value
// that starts with [ or { is JSON, anything else in a structure list is
// shorthand (KEY=VALUE,KEY=VALUE).

// paramFile loads a file:// value; other values are returned as they are.
func paramFile(flag, value string) (string, error) {
	path, ok := strings.CutPrefix(value, "file://")
	if !ok {
		return value, nil
	}
	data, err := readfile.Read(path, paramFileLimit)
	if err != nil {
		return "", fmt.Errorf("Error parsing parameter '--%s': Unable to load paramfile %s: %w", flag, value, err)
	}
	return string(data), nil
}

// structField is one member of a structure the CLI reads.
type structField struct {
	name     string
	kind     string // "string" or "bool"
	required bool
}

var parameterFields = []structField{
	{"ParameterKey", "string", false}, {"ParameterValue", "string", false},
	{"UsePreviousValue", "bool", false}, {"ResolvedValue", "string", false},
}

var tagFields = []structField{{"Key", "string", true}, {"Value", "string", true}}

// parseStructList reads the values of a list-of-structures flag
// (--parameters, --tags): each value one structure in shorthand, or one
// value holding a JSON list (or file://PATH holding one).
func parseStructList(flag, apiName string, values []string, fields []structField) ([]map[string]any, error) {
	var items []map[string]any
	for _, raw := range values {
		v, err := paramFile(flag, raw)
		if err != nil {
			return nil, err
		}
		trimmed := strings.TrimSpace(v)
		if strings.HasPrefix(trimmed, "[") || strings.HasPrefix(trimmed, "{") {
			if err := checkJSONArg("--"+flag, v); err != nil {
				return nil, err
			}
			var list []map[string]any
			dec := json.NewDecoder(strings.NewReader(trimmed))
			if strings.HasPrefix(trimmed, "{") {
				var one map[string]any
				if err := dec.Decode(&one); err != nil {
					return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(trimmed))
				}
				list = []map[string]any{one}
			} else if err := dec.Decode(&list); err != nil {
				return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(trimmed))
			}
			items = append(items, list...)
			continue
		}
		m, _, err := parseShorthand(v)
		if err != nil {
			return nil, fmt.Errorf("Error parsing parameter '--%s': %w", flag, err)
		}
		// Shorthand booleans are "true" or "false" (any case).
		for _, f := range fields {
			if s, ok := m[f.name].(string); ok && f.kind == "bool" {
				switch strings.ToLower(s) {
				case "true":
					m[f.name] = true
				case "false":
					m[f.name] = false
				}
			}
		}
		items = append(items, m)
	}
	var problems []string
	for i, item := range items {
		problems = append(problems, checkStruct(fmt.Sprintf("%s[%d]", apiName, i), item, fields)...)
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return items, nil
}

// checkStruct checks a structure as botocore's parameter validation does,
// in its words.
func checkStruct(path string, item map[string]any, fields []structField) []string {
	var problems []string
	known := map[string]structField{}
	var names []string
	for _, f := range fields {
		known[f.name] = f
		names = append(names, f.name)
		if _, ok := item[f.name]; f.required && !ok {
			problems = append(problems, fmt.Sprintf("Missing required parameter in %s: %q", path, f.name))
		}
	}
	keys := make([]string, 0, len(item))
	for k := range item {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := known[k]
		if !ok {
			problems = append(problems, fmt.Sprintf("Unknown parameter in %s: %s, must be one of: %s", path, readfile.Quote(k), strings.Join(names, ", ")))
			continue
		}
		v := item[k]
		switch f.kind {
		case "string":
			if _, ok := v.(string); !ok {
				problems = append(problems, fmt.Sprintf("Invalid type for parameter %s.%s, value: %s, type: %s, valid types: <class 'str'>", path, k, readfile.Excerpt(pyRepr(v)), pyType(v)))
			}
		case "bool":
			if _, ok := v.(bool); !ok {
				problems = append(problems, fmt.Sprintf("Invalid type for parameter %s.%s, value: %s, type: %s, valid types: <class 'bool'>", path, k, readfile.Excerpt(pyRepr(v)), pyType(v)))
			}
		}
	}
	return problems
}

// pyRepr and pyType write a value as botocore's messages do.
func pyRepr(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			if s, ok := x.(string); ok {
				parts[i] = "'" + s + "'"
			} else {
				parts[i] = pyRepr(x)
			}
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case bool:
		return pyStr(t)
	case nil:
		return "None"
	}
	return fmt.Sprint(v)
}

func pyType(v any) string {
	switch v.(type) {
	case string:
		return "<class 'str'>"
	case []any:
		return "<class 'list'>"
	case map[string]any:
		return "<class 'dict'>"
	case bool:
		return "<class 'bool'>"
	case float64, json.Number:
		return "<class 'float'>"
	case nil:
		return "<class 'NoneType'>"
	}
	return fmt.Sprintf("%T", v)
}

// parseParameters reads --parameters.
func parseParameters(values []string) ([]engine.Parameter, error) {
	items, err := parseStructList("parameters", "Parameters", values, parameterFields)
	if err != nil {
		return nil, err
	}
	var out []engine.Parameter
	for _, it := range items {
		p := engine.Parameter{}
		p.ParameterKey, _ = it["ParameterKey"].(string)
		p.ParameterValue, _ = it["ParameterValue"].(string)
		p.UsePreviousValue, _ = it["UsePreviousValue"].(bool)
		p.ResolvedValue, _ = it["ResolvedValue"].(string)
		out = append(out, p)
	}
	return out, nil
}

// parseTags reads --tags.
func parseTags(values []string) ([]engine.Tag, error) {
	items, err := parseStructList("tags", "Tags", values, tagFields)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Tag, 0, len(items))
	for _, it := range items {
		k, _ := it["Key"].(string)
		v, _ := it["Value"].(string)
		out = append(out, engine.Tag{Key: k, Value: v})
	}
	return out, nil
}

// parseStringList reads a list-of-strings flag (--capabilities,
// --retain-resources, --resources-to-skip): several values, or one JSON
// list, or file://PATH holding one.
func parseStringList(flag string, values []string) ([]string, error) {
	var out []string
	for _, raw := range values {
		v, err := paramFile(flag, raw)
		if err != nil {
			return nil, err
		}
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "[") {
			if err := checkJSONArg("--"+flag, v); err != nil {
				return nil, err
			}
			var list []string
			if err := json.Unmarshal([]byte(t), &list); err != nil {
				return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
			}
			out = append(out, list...)
			continue
		}
		out = append(out, v)
	}
	return out, nil
}

// parseResourcesToImport reads --resources-to-import: a JSON list of
// {"ResourceType", "LogicalResourceId", "ResourceIdentifier": {...}}, or
// file://PATH holding one (the AWS CLI's shorthand syntax is not read).
func parseResourcesToImport(value string) ([]engine.ResourceToImport, error) {
	const flag = "resources-to-import"
	v, err := paramFile(flag, value)
	if err != nil {
		return nil, err
	}
	t := strings.TrimSpace(v)
	if !strings.HasPrefix(t, "[") {
		return nil, fmt.Errorf("Error parsing parameter '--%s': give a JSON list, for example "+
			`'[{"ResourceType":"AWS::S3::Bucket","LogicalResourceId":"Bucket","ResourceIdentifier":{"BucketName":"my-bucket"}}]'`+
			" or file://resources.json (stacksim does not read the shorthand syntax here)", flag)
	}
	if err := checkJSONArg("--"+flag, v); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.DisallowUnknownFields()
	var out []engine.ResourceToImport
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
	}
	return out, nil
}
