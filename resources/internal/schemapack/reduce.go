package schemapack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNotResource marks a registry document that is not a resource type's
// schema (a module's, "Org::Service::Name::MODULE").
var ErrNotResource = errors.New("not a resource type schema")

// topKeys are the top-level keys a fact document keeps.
var topKeys = map[string]bool{
	"typeName": true, "properties": true, "definitions": true, "required": true,
	"additionalProperties": true, "patternProperties": true,
	"primaryIdentifier": true, "additionalIdentifiers": true,
	"createOnlyProperties": true, "conditionalCreateOnlyProperties": true,
	"readOnlyProperties": true, "writeOnlyProperties": true, "deprecatedProperties": true,
	"replacementStrategy": true, "tagging": true, "handlers": true,
	"oneOf": true, "anyOf": true, "allOf": true, "not": true,
	"if": true, "then": true, "else": true, "dependencies": true,
}

// valueKeys are the keywords a subschema keeps.
var valueKeys = map[string]bool{
	"type": true, "$ref": true, "properties": true, "additionalProperties": true,
	"patternProperties": true, "items": true, "required": true, "enum": true, "const": true,
	"pattern": true, "format": true, "minLength": true, "maxLength": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true, "insertionOrder": true,
	// the input validator applies them (and the value generator takes
	// the members of their first alternative); the conditionals and
	// dependencies it applies too
	"oneOf": true, "anyOf": true, "allOf": true, "not": true,
	"if": true, "then": true, "else": true, "dependencies": true,
}

// Entry is one type's fact document.
type Entry struct {
	Name string
	Doc  []byte
}

// Reduce returns the fact document of one registry schema. A document that
// is not a resource's (a module's) is ErrNotResource.
func Reduce(raw []byte) (Entry, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc map[string]any
	if err := d.Decode(&doc); err != nil {
		return Entry{}, err
	}
	name, _ := doc["typeName"].(string)
	if name == "" {
		return Entry{}, fmt.Errorf("no typeName")
	}
	if strings.Count(name, "::") != 2 || strings.HasSuffix(name, "::MODULE") {
		return Entry{}, fmt.Errorf("%s: %w", name, ErrNotResource)
	}
	out := map[string]any{}
	for k, v := range doc {
		if !topKeys[k] {
			continue
		}
		switch k {
		case "properties", "definitions", "patternProperties", "dependencies":
			v = reduceMembers(v)
		case "additionalProperties", "not", "if", "then", "else":
			if m, ok := v.(map[string]any); ok {
				v = reduceValue(m)
			}
		case "oneOf", "anyOf", "allOf":
			v = reduceAlternatives(v)
		case "handlers":
			v = reduceHandlers(v)
			if v == nil {
				continue
			}
		}
		out[k] = v
	}
	b, err := canonical(out)
	if err != nil {
		return Entry{}, fmt.Errorf("%s: %w", name, err)
	}
	return Entry{Name: name, Doc: b}, nil
}

// reduceMembers reduces each member schema of a map of names to schemas
// (properties, definitions, patternProperties, and dependencies, whose
// members may also be lists of names: kept as they are).
func reduceMembers(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, sub := range m {
		if s, ok := sub.(map[string]any); ok {
			out[k] = reduceValue(s)
		} else {
			out[k] = sub
		}
	}
	return out
}

func reduceValue(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		if !valueKeys[k] {
			continue
		}
		switch k {
		case "properties", "patternProperties", "dependencies":
			v = reduceMembers(v)
		case "items", "additionalProperties", "not", "if", "then", "else":
			if m, ok := v.(map[string]any); ok {
				v = reduceValue(m)
			}
		case "oneOf", "anyOf", "allOf":
			v = reduceAlternatives(v)
		}
		out[k] = v
	}
	return out
}

// reduceAlternatives reduces each alternative of a oneOf, anyOf or allOf.
// An alternative reduced to nothing (only a relationshipRef, say) stays,
// as {}: it still counts, and matches every value, as it does in the
// registry's schema.
func reduceAlternatives(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	subs := make([]any, 0, len(list))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			subs = append(subs, reduceValue(m))
		} else {
			subs = append(subs, x)
		}
	}
	return subs
}

// reduceHandlers keeps each action's timeoutInMinutes.
func reduceHandlers(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	out := map[string]any{}
	for action, h := range m {
		hm, ok := h.(map[string]any)
		if !ok {
			continue
		}
		if t, ok := hm["timeoutInMinutes"]; ok {
			out[action] = map[string]any{"timeoutInMinutes": t}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// canonical is compact JSON with sorted keys and no HTML escaping.
func canonical(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// FromDir reduces every *.json file of a directory (module schemas
// skipped), sorted by type name. Two files of one type are an error.
func FromDir(dir string) ([]Entry, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no *.json schema files", dir)
	}
	seen := map[string]string{}
	var out []Entry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		e, err := Reduce(raw)
		if errors.Is(err, ErrNotResource) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if prev, ok := seen[e.Name]; ok {
			return nil, fmt.Errorf("%s: type %s is already defined by %s", f, e.Name, prev)
		}
		seen[e.Name] = f
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
