package main

import (
	"errors"
	"fmt"
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
	kind     string // "string", "bool" or "stringmap" (a map of strings)
	required bool
}

var parameterFields = []structField{
	{"ParameterKey", "string", false}, {"ParameterValue", "string", false},
	{"UsePreviousValue", "bool", false}, {"ResolvedValue", "string", false},
}

var tagFields = []structField{{"Key", "string", true}, {"Value", "string", true}}

// parseStructList reads the values of a list-of-structures flag
// (--parameters, --tags): each value one structure in shorthand, or one
// value holding a JSON list or one JSON structure (or file://PATH holding
// either), checked as botocore checks them, in its words.
func parseStructList(flag, apiName string, values []string, fields []structField) ([]*pyDict, error) {
	var items []any
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
			val, err := decodePyJSON(trimmed)
			if err != nil {
				return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(trimmed))
			}
			if list, ok := val.([]any); ok {
				items = append(items, list...)
			} else {
				items = append(items, val)
			}
			continue
		}
		m, keys, err := parseShorthand(v)
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
		items = append(items, &pyDict{keys: keys, vals: m})
	}
	var problems []string
	out := make([]*pyDict, 0, len(items))
	for i, item := range items {
		path := fmt.Sprintf("%s[%d]", apiName, i)
		d, ok := item.(*pyDict)
		if !ok {
			problems = append(problems, invalidType(path, item, "<class 'dict'>"))
			continue
		}
		problems = append(problems, checkStruct(path, d, fields)...)
		out = append(out, d)
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return out, nil
}

// checkStruct checks a structure as botocore's parameter validation does,
// in its words and its order: the required members missing, then the
// unknown members, then the type of each known one, as given.
func checkStruct(path string, d *pyDict, fields []structField) []string {
	var problems []string
	known := map[string]structField{}
	var names []string
	for _, f := range fields {
		known[f.name] = f
		names = append(names, f.name)
		if _, ok := d.vals[f.name]; f.required && !ok {
			problems = append(problems, fmt.Sprintf("Missing required parameter in %s: %q", path, f.name))
		}
	}
	for _, k := range d.keys {
		if _, ok := known[k]; !ok {
			problems = append(problems, fmt.Sprintf("Unknown parameter in %s: %s, must be one of: %s", path, readfile.Quote(k), strings.Join(names, ", ")))
		}
	}
	for _, k := range d.keys {
		f, ok := known[k]
		if !ok {
			continue
		}
		v := d.vals[k]
		switch f.kind {
		case "string":
			if _, ok := v.(string); !ok {
				problems = append(problems, readfile.Excerpt(invalidType(path+"."+k, v, "<class 'str'>")))
			}
		case "bool":
			if _, ok := v.(bool); !ok {
				problems = append(problems, readfile.Excerpt(invalidType(path+"."+k, v, "<class 'bool'>")))
			}
		case "stringmap":
			m, ok := v.(*pyDict)
			if !ok {
				problems = append(problems, readfile.Excerpt(invalidType(path+"."+k, v, "<class 'dict'>")))
				continue
			}
			for _, mk := range m.keys {
				if _, ok := m.vals[mk].(string); !ok {
					problems = append(problems, readfile.Excerpt(invalidType(path+"."+k+"."+mk, m.vals[mk], "<class 'str'>")))
				}
			}
		}
	}
	return problems
}

// parseParameters reads --parameters.
func parseParameters(values []string) ([]engine.Parameter, error) {
	items, err := parseStructList("parameters", "Parameters", values, parameterFields)
	if err != nil {
		return nil, err
	}
	var out []engine.Parameter
	for _, d := range items {
		it := d.vals
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
	for _, d := range items {
		k, _ := d.vals["Key"].(string)
		v, _ := d.vals["Value"].(string)
		out = append(out, engine.Tag{Key: k, Value: v})
	}
	return out, nil
}

// parseStringList reads a list-of-strings flag (--capabilities,
// --retain-resources, --resources-to-skip): several values, or one JSON
// list, or file://PATH holding one; an item that is not a string is
// refused as botocore refuses it, under the API's name of the list.
func parseStringList(flag string, values []string) ([]string, error) {
	var out []string
	var problems []string
	for _, raw := range values {
		v, err := paramFile(flag, raw)
		if err != nil {
			return nil, err
		}
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "[") {
			if err := checkJSONArg("--"+flag, v); err != nil {
				return nil, err
			}
			val, err := decodePyJSON(t)
			if err != nil {
				return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
			}
			for _, item := range val.([]any) {
				if s, ok := item.(string); ok {
					out = append(out, s)
				} else {
					problems = append(problems, readfile.Excerpt(invalidType(fmt.Sprintf("%s[%d]", listAPIName(flag), len(out)+len(problems)), item, "<class 'str'>")))
				}
			}
			continue
		}
		out = append(out, v)
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return out, nil
}

// listAPIName is the API's name of a list flag's member (--notification-arns
// is NotificationARNs), as botocore's messages name it.
func listAPIName(flag string) string {
	switch flag {
	case "notification-arns":
		return "NotificationARNs"
	}
	var b strings.Builder
	for _, w := range strings.Split(flag, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
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
	val, err := decodePyJSON(t)
	if err != nil {
		return nil, fmt.Errorf("Error parsing parameter '--%s': Invalid JSON: %v\nJSON received: %s", flag, err, readfile.Excerpt(t))
	}
	var problems []string
	var out []engine.ResourceToImport
	for i, item := range val.([]any) {
		path := fmt.Sprintf("ResourcesToImport[%d]", i)
		d, ok := item.(*pyDict)
		if !ok {
			problems = append(problems, readfile.Excerpt(invalidType(path, item, "<class 'dict'>")))
			continue
		}
		if p := checkStruct(path, d, resourceToImportFields); len(p) > 0 {
			problems = append(problems, p...)
			continue
		}
		r := engine.ResourceToImport{ResourceType: d.vals["ResourceType"].(string), LogicalResourceId: d.vals["LogicalResourceId"].(string),
			ResourceIdentifier: map[string]string{}}
		id := d.vals["ResourceIdentifier"].(*pyDict)
		for _, k := range id.keys {
			r.ResourceIdentifier[k] = id.vals[k].(string)
		}
		out = append(out, r)
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return out, nil
}

var resourceToImportFields = []structField{{"ResourceType", "string", true}, {"LogicalResourceId", "string", true}, {"ResourceIdentifier", "stringmap", true}}
