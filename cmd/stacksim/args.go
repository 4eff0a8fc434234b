package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/api"
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

// parseStructList reads the values of a list-of-structures flag
// (--parameters, --tags): each value one structure in shorthand, or one
// value holding a JSON list or one JSON structure (or file://PATH holding
// either), checked against the model's shape of the items (Parameter, Tag)
// as botocore checks them, in its words.
func parseStructList(flag, apiName string, values []string, itemShape string) ([]*pyDict, error) {
	shape, _ := api.ShapeNamed(itemShape)
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
		items = append(items, shorthandBooleans(&pyDict{keys: keys, vals: m}, shape))
	}
	var problems []string
	out := make([]*pyDict, 0, len(items))
	for i, item := range items {
		path := fmt.Sprintf("%s[%d]", apiName, i)
		checkShapeValue(item, itemShape, path, &problems)
		if d, ok := item.(*pyDict); ok {
			out = append(out, d)
		}
	}
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	return out, nil
}

// parseParameters reads --parameters.
func parseParameters(values []string) ([]engine.Parameter, error) {
	items, err := parseStructList("parameters", "Parameters", values, "Parameter")
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
	items, err := parseStructList("tags", "Tags", values, "Tag")
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
					problems = append(problems, invalidType(fmt.Sprintf("%s[%d]", apiName(flag), len(out)+len(problems)), item, "<class 'str'>"))
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
	checkShapeValue(val, "ResourcesToImport", "ResourcesToImport", &problems)
	if len(problems) > 0 {
		return nil, errors.New("Parameter validation failed:\n" + strings.Join(problems, "\n"))
	}
	var out []engine.ResourceToImport
	for _, item := range val.([]any) {
		d := item.(*pyDict)
		r := engine.ResourceToImport{ResourceType: d.vals["ResourceType"].(string), LogicalResourceId: d.vals["LogicalResourceId"].(string),
			ResourceIdentifier: map[string]string{}}
		id := d.vals["ResourceIdentifier"].(*pyDict)
		for _, k := range id.keys {
			r.ResourceIdentifier[k] = id.vals[k].(string)
		}
		out = append(out, r)
	}
	return out, nil
}
