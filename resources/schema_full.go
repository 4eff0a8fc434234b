package resources

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// fullNode is the complete validator of a stripped resource schema: JSON
// Schema draft 7 (the draft registry schemas are written in), every
// keyword that stripKeywords leaves, each violation reported with where it
// is. The quick check (fastNode) answers most models; this one runs only
// when the quick check cannot say a model is valid, and words what is
// wrong.
//
// stacksim used github.com/santhosh-tekuri/jsonschema/v6 here; that
// package compiles the meta-schemas of five drafts in its init, 4–6 ms
// that every command paid before its first line. This validator does the
// part of its work stacksim needs, with its semantics (TestFullMatchesV6
// checks every registry schema against it, v6 kept as a test dependency):
//
//   - draft 7 keywords: type, const, enum, $ref (which replaces its
//     siblings), the string, number, array and object keywords, items in
//     both forms with additionalItems, contains, propertyNames;
//   - a violation of type, const or enum stops the checks of that node;
//     the rest are each checked and reported;
//   - a pattern Go's regexp cannot compile (lookarounds, Java's escapes)
//     runs on regexp2 (internal/javapattern); one neither compiles, in
//     pattern or patternProperties, is the schema's error;
//   - numbers compare exactly (big.Rat);
//   - allOf, anyOf, oneOf and not: each alternative is checked on its own,
//     and a failure is one violation at the value (how many alternatives
//     matched), not the alternatives' own problems;
//   - if/then/else: a failure of then (or else) is one violation at the
//     value, as the combinators' are;
//   - dependencies: a missing name is one violation at the object, a
//     dependent schema's problems are the object's own;
//   - "format" and the keywords stripped before (in the contract variant
//     the combinators, the conditionals and dependencies) are not
//     asserted.
type fullNode struct {
	// boolean is a true or false schema (only when isBool).
	isBool, boolean bool
	// ref is the node a $ref names (draft 7: its siblings are ignored).
	ref *fullNode

	types      uint8
	hasConst   bool
	constV     any
	hasEnum    bool
	enum       []any
	minLen     int
	maxLen     int
	pattern    matcher
	patternSrc string

	minimum, maximum, exMin, exMax, multipleOf *big.Rat

	minItems, maxItems int
	unique             bool
	items              *fullNode   // items as one schema
	tuple              []*fullNode // items as an array of schemas
	hasTuple           bool
	additionalItems    *fullNode // with tuple only
	contains           *fullNode

	props         map[string]*fullNode
	patterns      []fullPattern
	additional    *fullNode
	required      []string
	minProps      int
	maxProps      int
	propertyNames *fullNode

	// The combinators: allOf, anyOf and oneOf's alternatives; not's
	// schema.
	allOf, anyOf, oneOf []*fullNode
	not                 *fullNode

	// The conditionals: if's schema decides whether then's or else's
	// applies (then and else without if are ignored, as draft 7 says).
	ifN, thenN, elseN *fullNode
	// dependencies, by the property whose presence needs them.
	deps []fullDependency
}

// fullDependency is one entry of "dependencies": when prop is present, the
// object must hold every name of needs (the array form) or pass schema.
type fullDependency struct {
	prop   string
	needs  []string
	schema *fullNode
}

type fullPattern struct {
	re   matcher
	src  string
	node *fullNode
}

func (p fullPattern) matches(name string) bool { return p.re.MatchString(name) }

// badPattern says why a schema's pattern cannot be used: neither Go's
// regexp nor regexp2 compiles it (every registry pattern compiles with one
// of them: TestRegistryPatternsCompile), so it is the schema's mistake, as
// the registry's meta-schema (pattern's format is regex) would say.
func badPattern(p string, err error) string {
	return fmt.Sprintf("pattern %q is not a regular expression (%v); write it as a Java regular expression", p, err)
}

// fullCompiler compiles a schema document; nodes are memoised by JSON
// pointer so that recursive definitions share one node.
type fullCompiler struct {
	root any
	memo map[string]*fullNode
	// resolving marks the $ref chains being followed (a cycle of pure
	// references is refused).
	resolving map[string]bool
}

// compileFull compiles root, the stripped document of a schema.
func compileFull(root map[string]any) (*fullNode, error) {
	c := &fullCompiler{root: root, memo: map[string]*fullNode{}, resolving: map[string]bool{}}
	n, err := c.node(root, "")
	if err != nil {
		return nil, err
	}
	for _, ptr := range slices.Sorted(maps.Keys(c.memo)) {
		seen := map[*fullNode]bool{}
		for m := c.memo[ptr]; m.ref != nil; m = m.ref {
			if seen[m] {
				return nil, &schemaError{ptr, "a cycle of $refs that never reaches a schema"}
			}
			seen[m] = true
		}
	}
	return n, nil
}

// schemaError is a schema that does not compile: where (a JSON pointer
// into the schema) and what.
type schemaError struct {
	ptr, msg string
}

func (e *schemaError) Error() string {
	ptr := e.ptr
	if ptr == "" {
		ptr = "the root"
	}
	return fmt.Sprintf("at %s: %s", ptr, e.msg)
}

func (c *fullCompiler) node(v any, ptr string) (*fullNode, error) {
	if n, ok := c.memo[ptr]; ok {
		return n, nil
	}
	switch t := v.(type) {
	case bool:
		n := &fullNode{isBool: true, boolean: t}
		c.memo[ptr] = n
		return n, nil
	case map[string]any:
		n := &fullNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
		c.memo[ptr] = n
		if err := c.object(n, t, ptr); err != nil {
			return nil, err
		}
		return n, nil
	}
	return nil, &schemaError{ptr, fmt.Sprintf("a schema is an object or a boolean, not %s", jsonKind(v))}
}

func (c *fullCompiler) object(n *fullNode, m map[string]any, ptr string) error {
	if r, ok := m["$ref"]; ok {
		ref, isStr := r.(string)
		if !isStr {
			return &schemaError{ptr + "/$ref", "$ref is a string"}
		}
		target, err := c.resolve(ref, ptr)
		if err != nil {
			return err
		}
		n.ref = target
		return nil
	}
	if err := c.validation(n, m, ptr); err != nil {
		return err
	}
	return c.applicators(n, m, ptr)
}

// resolve compiles the node a $ref names: a JSON pointer into this
// document ("#", "#/definitions/Name", "#/properties/A/items").
func (c *fullCompiler) resolve(ref, at string) (*fullNode, error) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q names another document; only references into the schema itself (#/definitions/Name) are supported", ref)}
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q is not a JSON pointer (#/definitions/Name)", ref)}
	}
	if n, ok := c.memo[frag]; ok {
		return n, nil
	}
	if c.resolving[frag] {
		return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q is a cycle of references", ref)}
	}
	c.resolving[frag] = true
	defer delete(c.resolving, frag)
	v := c.root
	if frag != "" {
		for _, tok := range strings.Split(frag[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch t := v.(type) {
			case map[string]any:
				next, ok := t[tok]
				if !ok {
					return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q names nothing in the schema", ref)}
				}
				v = next
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(t) {
					return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q names nothing in the schema", ref)}
				}
				v = t[i]
			default:
				return nil, &schemaError{at + "/$ref", fmt.Sprintf("$ref %q names nothing in the schema", ref)}
			}
		}
	}
	return c.node(v, frag)
}

func (c *fullCompiler) validation(n *fullNode, m map[string]any, ptr string) error {
	if t, ok := m["type"]; ok {
		bits, err := typeKeyword(t)
		if err != nil {
			return &schemaError{ptr + "/type", err.Error()}
		}
		n.types = bits
	}
	if cv, ok := m["const"]; ok {
		n.hasConst, n.constV = true, cv
	}
	if e, ok := m["enum"]; ok {
		arr, isArr := e.([]any)
		if !isArr {
			return &schemaError{ptr + "/enum", "enum is an array"}
		}
		n.hasEnum, n.enum = true, arr
	}
	for _, k := range []struct {
		name string
		dst  *int
	}{{"minLength", &n.minLen}, {"maxLength", &n.maxLen}, {"minItems", &n.minItems}, {"maxItems", &n.maxItems}, {"minProperties", &n.minProps}, {"maxProperties", &n.maxProps}} {
		if v, ok := m[k.name]; ok {
			i, err := countKeyword(v)
			if err != nil {
				return &schemaError{ptr + "/" + k.name, k.name + " " + err.Error()}
			}
			*k.dst = i
		}
	}
	for _, k := range []struct {
		name string
		dst  **big.Rat
	}{{"minimum", &n.minimum}, {"maximum", &n.maximum}, {"exclusiveMinimum", &n.exMin}, {"exclusiveMaximum", &n.exMax}, {"multipleOf", &n.multipleOf}} {
		if v, ok := m[k.name]; ok {
			r, ok := ratOf(v)
			if !ok {
				return &schemaError{ptr + "/" + k.name, k.name + " is a number"}
			}
			if k.name == "multipleOf" && r.Sign() <= 0 {
				return &schemaError{ptr + "/multipleOf", "multipleOf is greater than 0"}
			}
			*k.dst = r
		}
	}
	if p, ok := m["pattern"]; ok {
		s, isStr := p.(string)
		if !isStr {
			return &schemaError{ptr + "/pattern", "pattern is a string"}
		}
		re, err := cachedRegexp(s)
		if err != nil {
			return &schemaError{ptr + "/pattern", badPattern(s, err)}
		}
		n.pattern, n.patternSrc = re, s
	}
	if u, ok := m["uniqueItems"]; ok {
		b, isBool := u.(bool)
		if !isBool {
			return &schemaError{ptr + "/uniqueItems", "uniqueItems is a boolean"}
		}
		n.unique = b
	}
	if r, ok := m["required"]; ok {
		arr, isArr := r.([]any)
		if !isArr {
			return &schemaError{ptr + "/required", "required is an array of names"}
		}
		for i, e := range arr {
			s, isStr := e.(string)
			if !isStr {
				return &schemaError{ptr + "/required/" + strconv.Itoa(i), "required is an array of names"}
			}
			n.required = append(n.required, s)
		}
	}
	return nil
}

func (c *fullCompiler) applicators(n *fullNode, m map[string]any, ptr string) error {
	var err error
	sub := func(k string) (*fullNode, error) {
		v, ok := m[k]
		if !ok {
			return nil, nil
		}
		return c.node(v, ptr+"/"+escapePointer(k))
	}
	switch it := m["items"].(type) {
	case nil:
	case []any:
		n.hasTuple = true
		for i, e := range it {
			s, err := c.node(e, ptr+"/items/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.tuple = append(n.tuple, s)
		}
		if n.additionalItems, err = sub("additionalItems"); err != nil {
			return err
		}
	default:
		if n.items, err = sub("items"); err != nil {
			return err
		}
	}
	if n.contains, err = sub("contains"); err != nil {
		return err
	}
	if n.additional, err = sub("additionalProperties"); err != nil {
		return err
	}
	if n.propertyNames, err = sub("propertyNames"); err != nil {
		return err
	}
	if p, ok := m["properties"]; ok {
		props, isObj := p.(map[string]any)
		if !isObj {
			return &schemaError{ptr + "/properties", "properties is an object of schemas"}
		}
		n.props = make(map[string]*fullNode, len(props))
		for k, v := range props {
			if n.props[k], err = c.node(v, ptr+"/properties/"+escapePointer(k)); err != nil {
				return err
			}
		}
	}
	if p, ok := m["patternProperties"]; ok {
		pp, isObj := p.(map[string]any)
		if !isObj {
			return &schemaError{ptr + "/patternProperties", "patternProperties is an object of schemas"}
		}
		for _, k := range slices.Sorted(maps.Keys(pp)) {
			node, err := c.node(pp[k], ptr+"/patternProperties/"+escapePointer(k))
			if err != nil {
				return err
			}
			re, err := cachedRegexp(k)
			if err != nil {
				return &schemaError{ptr + "/patternProperties", badPattern(k, err)}
			}
			n.patterns = append(n.patterns, fullPattern{re: re, src: k, node: node})
		}
	}
	for _, k := range []struct {
		name string
		dst  *[]*fullNode
	}{{"allOf", &n.allOf}, {"anyOf", &n.anyOf}, {"oneOf", &n.oneOf}} {
		v, ok := m[k.name]
		if !ok {
			continue
		}
		list, isArr := v.([]any)
		if !isArr || len(list) == 0 {
			return &schemaError{ptr + "/" + k.name, k.name + " is a non-empty array of schemas"}
		}
		for i, e := range list {
			alt, err := c.node(e, ptr+"/"+k.name+"/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			*k.dst = append(*k.dst, alt)
		}
	}
	if v, ok := m["not"]; ok {
		if n.not, err = c.node(v, ptr+"/not"); err != nil {
			return err
		}
	}
	if _, ok := m["if"]; ok {
		for _, k := range []struct {
			name string
			dst  **fullNode
		}{{"if", &n.ifN}, {"then", &n.thenN}, {"else", &n.elseN}} {
			if *k.dst, err = sub(k.name); err != nil {
				return err
			}
		}
	}
	if d, ok := m["dependencies"]; ok {
		if err := c.dependencies(n, d, ptr); err != nil {
			return err
		}
	}
	// Definitions are compiled when a $ref names them.
	return nil
}

// dependencies compiles draft 7's "dependencies": each entry an array of
// property names or a schema, in the order of the names.
func (c *fullCompiler) dependencies(n *fullNode, v any, ptr string) error {
	m, ok := v.(map[string]any)
	if !ok {
		return &schemaError{ptr + "/dependencies", "dependencies is an object"}
	}
	for _, prop := range slices.Sorted(maps.Keys(m)) {
		at := ptr + "/dependencies/" + escapePointer(prop)
		d := fullDependency{prop: prop}
		if list, isArr := m[prop].([]any); isArr {
			for _, e := range list {
				name, isStr := e.(string)
				if !isStr {
					return &schemaError{at, "a dependency is a schema or an array of property names"}
				}
				d.needs = append(d.needs, name)
			}
		} else {
			var err error
			if d.schema, err = c.node(m[prop], at); err != nil {
				return err
			}
		}
		n.deps = append(n.deps, d)
	}
	return nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// typeKeyword reads "type": a type name or an array of them.
func typeKeyword(v any) (uint8, error) {
	switch t := v.(type) {
	case string:
		if b := typeBits[t]; b != 0 {
			return b, nil
		}
		return 0, fmt.Errorf("%q is not a JSON type (object, array, string, number, integer, boolean, null)", t)
	case []any:
		var bits uint8
		for _, e := range t {
			s, _ := e.(string)
			b := typeBits[s]
			if b == 0 {
				return 0, fmt.Errorf("%v is not a JSON type (object, array, string, number, integer, boolean, null)", e)
			}
			bits |= b
		}
		return bits, nil
	}
	return 0, fmt.Errorf("type is a type name or an array of them")
}

// countKeyword reads a non-negative integer keyword (2.0 counts as 2).
func countKeyword(v any) (int, error) {
	r, ok := ratOf(v)
	if !ok || !r.IsInt() || r.Sign() < 0 || !r.Num().IsInt64() || r.Num().Int64() > math.MaxInt32 {
		return 0, fmt.Errorf("is a non-negative integer")
	}
	return int(r.Num().Int64()), nil
}

// ratOf is the exact value of a JSON number (or a Go number).
func ratOf(v any) (*big.Rat, bool) {
	switch t := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(t))
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(t, 'g', -1, 64))
	case float32:
		f := float64(t)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 32))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return new(big.Rat).SetString(fmt.Sprint(t))
	}
	return nil, false
}

// jsonKind names a value's JSON type as v6 did ("number" for every number).
func jsonKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return ""
		}
		return "number"
	case float32:
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
			return ""
		}
		return "number"
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "number"
	}
	return ""
}
