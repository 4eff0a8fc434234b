package resources

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"unicode/utf8"
)

// ExampleModel is a minimal model of a type: its required properties that
// are not read-only (those its first alternative requires too, when the
// schema's top level has some), with values that fit the schema (types, enums,
// patterns, formats, lengths, bounds; nested objects with their own
// required members), made from seed. It is what the registry-wide test
// creates every type from, and a starting point for a template.
func (s *Schema) ExampleModel(seed int64) map[string]any {
	req := &Request{StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/example/00000000-0000-4000-8000-000000000000",
		LogicalResourceIdentifier: "Example", ClientRequestToken: "example"}
	e := newEnv(req, seed, Epoch, map[string]any{})
	vg := newValueGen(s)
	// the top level's required names and those of its first oneOf or
	// anyOf alternative and every allOf part, as a nested object's
	doc := vg.withAlternative(s.document())
	props, _ := doc["properties"].(map[string]any) // the alternative's constraints on members too
	names := stringList(doc["required"])
	sort.Strings(names)
	for _, n := range names {
		p := "/properties/" + n
		ps, ok := props[n].(map[string]any)
		if !ok || s.IsReadOnly(p) {
			continue
		}
		if v, ok := vg.value(e, ps, genRequest{path: p, name: n, own: vg.isOwn(n) || vg.primary[p]}, 0); ok {
			e.model[n] = v
		}
	}
	return e.model
}

// ExampleModelWith is ExampleModel with the objects on the way to each of
// pointers made too (each with its own required members): a read-only
// attribute under an optional property (MasterUserSecret.SecretArn)
// exists only where its parent does. Pointers into arrays are skipped, and
// so is a pointer whose objects would make a valid model invalid (a
// member of a oneOf's other alternative).
func (s *Schema) ExampleModelWith(seed int64, pointers []string) map[string]any {
	m := s.ExampleModel(seed)
	req := &Request{StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/example/00000000-0000-4000-8000-000000000000",
		LogicalResourceIdentifier: "Example", ClientRequestToken: "example"}
	e := newEnv(req, seed, Epoch, m)
	vg := newValueGen(s)
	valid := s.ValidateInput(m) == nil
	for _, p := range pointers {
		segs := SplitPointer(p)
		if len(segs) < 2 || contains(segs, "*") {
			continue
		}
		before := maps.Clone(e.model) // setCopying sets the top level in place
		for i := 1; i < len(segs); i++ {
			anc := segs[:i]
			if hasSegs(e.model, anc) || s.IsReadOnly(JoinPointer(anc)) {
				continue
			}
			ps := propertySchema(s, anc)
			if ps == nil || schemaType(ps) != "object" {
				break
			}
			v, ok := vg.value(e, ps, genRequest{path: JoinPointer(anc), name: anc[len(anc)-1]}, 0)
			if !ok {
				break
			}
			e.model = setCopying(e.model, anc, v)
		}
		if valid && s.ValidateInput(e.model) != nil {
			// the way to p leaves the schema (a second alternative of
			// a oneOf): the attribute is not the model's to have
			e.model = before
		}
	}
	return e.model
}

// ExampleValue is a value for one property of the type, made as
// ExampleModel makes its values: path names the property from the top
// ("SubnetId"; "ManagedPolicyArns", "*" for a member of an array), and key
// varies the value (two keys give two values where the schema allows
// more than one). ok is false when the schema does not describe the
// property.
func (s *Schema) ExampleValue(seed int64, path []string, key string) (any, bool) {
	if len(path) == 0 {
		return nil, false
	}
	ps := propertySchema(s, path)
	if ps == nil {
		return nil, false
	}
	name := path[len(path)-1]
	for i := len(path) - 1; i >= 0 && (name == "*" || isIndex(name)); i-- {
		name = path[i]
	}
	req := &Request{StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/example/00000000-0000-4000-8000-000000000000",
		LogicalResourceIdentifier: "Example", ClientRequestToken: "example"}
	e := newEnv(req, seed, Epoch, map[string]any{})
	vg := newValueGen(s)
	return vg.value(e, ps, genRequest{path: JoinPointer(path) + "#" + key, name: name}, 0)
}

// document is the decoded schema (nil when it does not decode).
func (s *Schema) document() map[string]any {
	if s.decode() != nil {
		return nil
	}
	return s.doc
}

// AttributeSchema is the schema of what Fn::GetAtt answers for an
// attribute ("Arn", "Endpoint.Address"), $ref resolved; nil when the
// schema does not describe it.
func (s *Schema) AttributeSchema(attribute string) map[string]any {
	return propertySchema(s, strings.Split(attribute, "."))
}

// AttributeType is the JSON type of an attribute's values as its schema
// gives it (its type, or what its keywords and first alternative imply):
// object, array, string, integer, number or boolean; "" when the schema
// does not describe the attribute.
func (s *Schema) AttributeType(attribute string) string {
	ps := s.AttributeSchema(attribute)
	if ps == nil {
		return ""
	}
	return schemaType(ps)
}

// CheckAttribute checks a value Fn::GetAtt answered against the
// attribute's schema: its JSON type, enum, pattern (one Go can compile)
// and lengths, and the same for array items and object members it
// describes. nil when it fits, or when the schema says nothing.
func (s *Schema) CheckAttribute(attribute string, v any) error {
	ps := s.AttributeSchema(attribute)
	if ps == nil {
		return nil
	}
	return s.checkValue(ps, v, attribute, 0)
}

func (s *Schema) checkValue(ps map[string]any, v any, where string, depth int) error {
	ps = resolveRef(s, ps)
	if ps == nil || depth > maxGenDepth {
		return nil
	}
	if !typeAllows(ps, v) {
		return fmt.Errorf("%s: %s, the schema wants %v", where, jsonTypeOf(v), ps["type"])
	}
	if enum, ok := ps["enum"].([]any); ok {
		found := false
		for _, x := range enum {
			if LooseEqual(x, v) {
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s: %v is not one of %v", where, v, enum)
		}
	}
	switch t := v.(type) {
	case string:
		n := utf8.RuneCountInString(t)
		if m, ok := schemaInt(ps, "minLength"); ok && n < m {
			return fmt.Errorf("%s: %q is shorter than %d", where, t, m)
		}
		if m, ok := schemaInt(ps, "maxLength"); ok && n > m {
			return fmt.Errorf("%s: %q is longer than %d", where, t, m)
		}
		if p, ok := ps["pattern"].(string); ok && !compilePattern(p).matches(t) {
			return fmt.Errorf("%s: %q does not match %q", where, t, p)
		}
	case []any:
		items, _ := ps["items"].(map[string]any)
		for i, x := range t {
			if err := s.checkValue(items, x, fmt.Sprintf("%s[%d]", where, i), depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		props, _ := ps["properties"].(map[string]any)
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sub, ok := props[k].(map[string]any); ok {
				if err := s.checkValue(sub, t[k], where+"."+k, depth+1); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// typeAllows tells whether v has one of the JSON types ps allows (any, when
// it names none).
func typeAllows(ps map[string]any, v any) bool {
	var types []string
	switch t := ps["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		types = stringList(t)
	default:
		return true
	}
	got := jsonTypeOf(v)
	for _, w := range types {
		if w == got || (w == "number" && got == "integer") {
			return true
		}
	}
	return false
}

// jsonTypeOf is kindOf with whole numbers told apart: integer.
func jsonTypeOf(v any) string {
	k := kindOf(v)
	if k == "number" {
		if n, _ := numberOf(v); n != "" {
			if _, err := n.Int64(); err == nil {
				return "integer"
			}
		}
	}
	return k
}
