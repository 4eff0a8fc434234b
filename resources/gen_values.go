package resources

import (
	"encoding/json"
	"maps"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// valueGen makes values that follow a type's schema: the read-only
// attributes of a new resource (an array attribute is an array, an integer
// an integer; a string fits the property's pattern, format, enum and
// lengths), a writable primary identifier the template left out, and the
// minimal models of ExampleModel. Strings are first tried in the shape AWS
// gives them, from the property's name and the type (an Id is vpc-...,
// fs-...; an Arn is the type's ARN; a CreationTime is the virtual clock),
// and kept only when they fit the schema; otherwise they are generated from
// the pattern. Every random choice comes from the request's key (env), so
// the same request gives the same values.
type valueGen struct {
	// plans are the properties' candidate plans (plan), made on first use.
	plans    sync.Map
	s        *Schema
	typeName string
	resource string // FileSystem of AWS::EFS::FileSystem
	service  string // the ARN service: elasticfilesystem
	primary  map[string]bool
}

func newValueGen(s *Schema) *valueGen {
	vg := &valueGen{s: s, typeName: s.TypeName, resource: resourceOf(s.TypeName), service: arnServiceOf(s.TypeName), primary: map[string]bool{}}
	if name, ok := strings.CutPrefix(s.TypeName, "Custom::"); ok {
		// a custom resource answers for whatever it stands for
		vg.resource, vg.service = name, strings.ToLower(name)
	}
	for _, p := range s.PrimaryIdentifier {
		vg.primary[p] = true
	}
	return vg
}

// genRequest is one value to make: where it goes (path, for the
// randomness), the name of the property, and whether it is a read-only
// attribute (objects get every member, arrays two items) or an input
// (only what is required, arrays their minimum).
type genRequest struct {
	path      string
	name      string
	attribute bool
	own       bool // the property identifies the resource itself (its Id, Arn, Name)
	// gen is "gen:" + path, made once for the requests compiled with the
	// type (compileGens); "" for the others (purpose makes it).
	gen string
}

// purpose is what keys the randomness of the value's templates.
func (r genRequest) purpose() string {
	if r.gen != "" {
		return r.gen
	}
	return "gen:" + r.path
}

const maxGenDepth = 8

// plainString is the schema of a string the schema says nothing more of
// (a custom resource's Data, a nested stack's output): one map, so that
// its candidate plans are made once (plans are keyed by the schema's
// identity).
var plainString = map[string]any{"type": "string"}

// value makes a value for a property schema; ok is false when it cannot
// (a recursion too deep).
func (vg *valueGen) value(e *env, ps map[string]any, r genRequest, depth int) (any, bool) {
	if depth > maxGenDepth {
		return nil, false
	}
	ps = resolveRef(vg.s, ps)
	if ps == nil {
		ps = map[string]any{}
	}
	if c, ok := ps["const"]; ok {
		return c, true
	}
	if enum, ok := ps["enum"].([]any); ok && len(enum) > 0 {
		return enum[0], true
	}
	switch schemaType(ps) {
	case "object":
		return vg.object(e, ps, r, depth), true
	case "array":
		return vg.array(e, ps, r, depth)
	case "integer":
		return vg.number(ps, r, true), true
	case "number":
		return vg.number(ps, r, false), true
	case "boolean":
		return false, true
	}
	return vg.str(e, ps, r), true
}

// schemaType is the JSON type a value of ps takes: its type (the first of a
// list), else what its keywords imply.
func schemaType(ps map[string]any) string {
	switch t := ps["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && s != "null" {
				return s
			}
		}
	}
	switch {
	case ps["properties"] != nil || ps["patternProperties"] != nil:
		return "object"
	case ps["items"] != nil:
		return "array"
	}
	for _, k := range [...]string{"allOf", "oneOf", "anyOf"} {
		if list, _ := ps[k].([]any); len(list) > 0 {
			if alt := asMap(list[0]); alt != nil && (alt["type"] != nil || alt["properties"] != nil || alt["items"] != nil) {
				return schemaType(alt)
			}
		}
	}
	return "string"
}

func (vg *valueGen) object(e *env, ps map[string]any, r genRequest, depth int) map[string]any {
	out := map[string]any{}
	ps = vg.withAlternative(ps)
	props, _ := ps["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	if r.attribute && depth < 5 {
		for n := range props {
			names = append(names, n)
		}
	} else {
		for _, n := range stringList(ps["required"]) {
			if _, ok := props[n]; ok {
				names = append(names, n)
			}
		}
	}
	sort.Strings(names)
	minProps, _ := schemaInt(ps, "minProperties")
	if len(names) < minProps {
		// not enough required members: the others, in order, until there are
		extra := make([]string, 0, len(props))
		for n := range props {
			if !contains(names, n) {
				extra = append(extra, n)
			}
		}
		sort.Strings(extra)
		names = append(names, extra[:min(len(extra), minProps-len(names))]...)
	}
	for _, n := range names {
		sub, _ := props[n].(map[string]any)
		if v, ok := vg.value(e, sub, genRequest{path: r.path + "/" + n, name: n, attribute: r.attribute}, depth+1); ok {
			out[n] = v
		}
	}
	if len(props) == 0 {
		if min, ok := schemaInt(ps, "minProperties"); ok && min > 0 {
			if pp, ok := ps["patternProperties"].(map[string]any); ok {
				for pat, sub := range pp {
					key := "key1"
					if k, ok := compilePattern(pat).generate(e.entropy().stream2("gen-key:", r.path), 1, 64); ok {
						key = k
					}
					sm, _ := sub.(map[string]any)
					if v, ok := vg.value(e, sm, genRequest{path: r.path + "/" + key, name: key, attribute: r.attribute}, depth+1); ok {
						out[key] = v
					}
					break
				}
			}
		}
	}
	return out
}

func (vg *valueGen) array(e *env, ps map[string]any, r genRequest, depth int) (any, bool) {
	items, _ := ps["items"].(map[string]any)
	n := 1
	if r.attribute {
		n = 2
	}
	if min, ok := schemaInt(ps, "minItems"); ok && min > n {
		n = min
	}
	if max, ok := schemaInt(ps, "maxItems"); ok && n > max {
		n = max
	}
	unique, _ := ps["uniqueItems"].(bool)
	out := make([]any, 0, n)
	name := singular(r.name)
next:
	for i := 0; i < n; i++ {
		v, ok := vg.value(e, items, genRequest{path: r.path + "/" + strconv.Itoa(i), name: name, attribute: r.attribute}, depth+1)
		if !ok {
			return nil, false
		}
		if unique {
			for _, o := range out {
				if Equal(o, v) {
					continue next
				}
			}
		}
		out = append(out, v)
	}
	return out, true
}

// withAlternative merges into an object schema the members and required
// names of every allOf part and of its first oneOf or anyOf alternative,
// so that a generated object is one the schema describes. A oneOf's first
// alternative that requires nothing has its first member (by name)
// required: an empty object would match every such alternative, and a
// oneOf wants exactly one.
func (vg *valueGen) withAlternative(ps map[string]any) map[string]any {
	var parts []map[string]any
	for _, k := range [...]string{"allOf", "oneOf", "anyOf"} {
		list, _ := ps[k].([]any)
		for i, x := range list {
			if k != "allOf" && i > 0 {
				break
			}
			alt := resolveRef(vg.s, asMap(x))
			if alt == nil {
				continue
			}
			alt = vg.withAlternative(alt)
			if props, _ := alt["properties"].(map[string]any); k == "oneOf" && len(props) > 0 && len(stringList(alt["required"])) == 0 {
				alt = maps.Clone(alt)
				alt["required"] = []any{slices.Sorted(maps.Keys(props))[0]}
			}
			parts = append(parts, alt)
		}
	}
	if len(parts) == 0 {
		return ps
	}
	props := map[string]any{}
	var required []any
	for _, src := range append([]map[string]any{ps}, parts...) {
		if p, ok := src["properties"].(map[string]any); ok {
			for k, v := range p {
				have, ok := props[k]
				switch {
				case !ok:
					props[k] = v
				case asMap(have) != nil && asMap(v) != nil:
					// an alternative that constrains a member the object
					// describes (BillingGroup's AccountGrouping requires
					// LinkedAccountIds in one): the member with both
					props[k] = vg.constrained(asMap(have), asMap(v))
				}
			}
		}
		if req, ok := src["required"].([]any); ok {
			required = append(required, req...)
		}
	}
	out := make(map[string]any, len(ps)+2)
	for k, v := range ps {
		out[k] = v
	}
	out["properties"], out["required"] = props, required
	return out
}

// constrained is a member's schema with an alternative's constraints on
// it (its required names, the members it adds) as one more allOf part,
// which withAlternative merges when the member is generated.
func (vg *valueGen) constrained(member, alt map[string]any) map[string]any {
	out := maps.Clone(resolveRef(vg.s, member))
	if out == nil {
		return member
	}
	parts, _ := out["allOf"].([]any)
	out["allOf"] = append(slices.Clip(parts), alt)
	return out
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// singular is the name of an array's items: SubnetIds → SubnetId,
// DnsIpAddresses → DnsIpAddress.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "Addresses"):
		return strings.TrimSuffix(name, "es")
	case strings.HasSuffix(name, "ies"):
		return strings.TrimSuffix(name, "ies") + "y"
	case strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss"):
		return strings.TrimSuffix(name, "s")
	}
	return name
}

func (vg *valueGen) number(ps map[string]any, r genRequest, integer bool) json.Number {
	want := big.NewRat(1, 1)
	lname := strings.ToLower(r.name)
	switch {
	case strings.HasSuffix(lname, "port"):
		want = big.NewRat(443, 1)
	case strings.HasSuffix(lname, "timeout") || strings.HasSuffix(lname, "seconds"):
		want = big.NewRat(30, 1)
	}
	if lo, ok := ratKeyword(ps, "minimum"); ok && want.Cmp(lo) < 0 {
		want = lo
	}
	if lo, ok := ratKeyword(ps, "exclusiveMinimum"); ok && want.Cmp(lo) <= 0 {
		want = new(big.Rat).Add(lo, big.NewRat(1, 1))
	}
	if hi, ok := ratKeyword(ps, "maximum"); ok && want.Cmp(hi) > 0 {
		want = hi
	}
	if hi, ok := ratKeyword(ps, "exclusiveMaximum"); ok && want.Cmp(hi) >= 0 {
		want = new(big.Rat).Sub(hi, big.NewRat(1, 1))
	}
	if integer || want.IsInt() {
		if !want.IsInt() {
			f, _ := want.Float64()
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return json.Number(want.Num().String())
	}
	return json.Number(want.FloatString(3))
}

func ratKeyword(ps map[string]any, key string) (*big.Rat, bool) {
	n, ok := numberOf(ps[key])
	if !ok {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(string(n))
	return r, ok
}

func schemaInt(ps map[string]any, key string) (int, bool) {
	n, ok := numberOf(ps[key])
	if !ok {
		return 0, false
	}
	v, err := n.Int64()
	if err != nil {
		f, ferr := n.Float64()
		if ferr != nil {
			return 0, false
		}
		v = int64(f)
	}
	return int(v), true
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// str makes a string: the first of the candidates in AWS's shapes that
// fits the schema, else one generated from the pattern, else letters and
// digits of a length within the bounds.
func (vg *valueGen) str(e *env, ps map[string]any, r genRequest) string {
	minLen, _ := schemaInt(ps, "minLength")
	maxLen := -1
	if m, ok := schemaInt(ps, "maxLength"); ok {
		maxLen = m
	}
	pat, _ := ps["pattern"].(string)
	var cp *compiledPattern
	if pat != "" {
		cp = compilePattern(pat)
	}
	fits := func(s string) bool {
		n := utf8.RuneCountInString(s)
		return n >= minLen && (maxLen < 0 || n <= maxLen) && (cp == nil || cp.matches(s))
	}
	first := ""
	try := func(v string) bool {
		if v == "" {
			return false
		}
		if fits(v) {
			return true
		}
		if first == "" {
			first = v
		}
		return false
	}
	for _, c := range vg.plan(ps, r, maxLen) {
		if c.fn == nil {
			// a template: its one value, without a slice for it
			if v, err := c.tpl.fill(e, r.purpose()); err == nil && try(v) {
				return v
			}
			continue
		}
		for _, v := range c.fn(e, r) {
			if try(v) {
				return v
			}
		}
	}
	st := e.entropy().stream2("gen:", r.path)
	if cp != nil {
		if s, ok := cp.generate(st, minLen, maxLen); ok {
			return s
		}
		// a pattern nothing matches (a registry schema's mistake, as a
		// pattern in quotes): AWS's shape, when there is one
		if first != "" {
			return first
		}
	}
	n := max(12, minLen)
	if maxLen >= 0 && n > maxLen {
		n = max(maxLen, minLen)
	}
	if n <= 0 {
		return ""
	}
	return st.pick(alphaLowerNum, n)
}
