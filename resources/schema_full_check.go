package resources

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// violation is one problem a fullNode finds: where in the model (the
// property names and item indexes down to the value) and what.
type violation struct {
	loc  []string
	kind violationKind
	// the figures of the violation: counts (got, want), bounds (gotNum,
	// wantNum), names (keys: the missing or extraneous properties),
	// types (wantTypes; gotType), values (value: the const, the enum's
	// members, the string a pattern refused; pattern), indexes (dup).
	got, want       int
	gotNum, wantNum *big.Rat
	keys            []string
	wantTypes       []string
	gotType         string
	value           any
	values          []any
	pattern         string
	dup             [2]int
}

type violationKind int

const (
	vFalseSchema violationKind = iota
	vInvalidValue
	vType
	vConst
	vEnum
	vMinLength
	vMaxLength
	vPattern
	vMinimum
	vMaximum
	vExclusiveMinimum
	vExclusiveMaximum
	vMultipleOf
	vMinItems
	vMaxItems
	vUniqueItems
	vAdditionalItems
	vContains
	vMinProperties
	vMaxProperties
	vRequired
	vAdditionalProperties
	vAllOf
	vAnyOf
	vOneOf
	vNot
	vThen
	vElse
	vDependency
)

// check appends what is wrong with v (at loc) to out.
func (n *fullNode) check(v any, loc []string, out *[]violation) {
	for n.ref != nil {
		n = n.ref
	}
	if n.isBool {
		if !n.boolean {
			*out = append(*out, violation{loc: loc, kind: vFalseSchema})
		}
		return
	}
	t := jsonKind(v)
	if t == "" {
		*out = append(*out, violation{loc: loc, kind: vInvalidValue, value: v})
		return
	}
	if n.types != 0 && !n.typeMatches(t, v) {
		*out = append(*out, violation{loc: loc, kind: vType, gotType: t, wantTypes: typeNames(n.types)})
		return
	}
	if n.hasConst && !Equal(v, n.constV) {
		*out = append(*out, violation{loc: loc, kind: vConst, value: n.constV})
		return
	}
	if n.hasEnum && !n.enumHas(v) {
		*out = append(*out, violation{loc: loc, kind: vEnum, values: n.enum})
		return
	}
	switch x := v.(type) {
	case map[string]any:
		n.checkObject(x, loc, out)
	case []any:
		n.checkArray(x, loc, out)
	case string:
		n.checkString(x, loc, out)
	case nil, bool:
	default:
		n.checkNumber(v, loc, out)
	}
	if n.allOf != nil || n.anyOf != nil || n.oneOf != nil || n.not != nil || n.ifN != nil {
		n.checkCombinators(v, loc, out)
	}
}

// checkCombinators checks v against allOf, anyOf, oneOf, not and
// if/then/else: each alternative on its own, a failure reported as one
// violation at v (got: the alternatives that matched, want: how many there
// are), as everit reports it; the alternatives' own problems are not.
func (n *fullNode) checkCombinators(v any, loc []string, out *[]violation) {
	matches := func(alts []*fullNode) int {
		c := 0
		for _, a := range alts {
			if a.accepts(v) {
				c++
			}
		}
		return c
	}
	if n.allOf != nil {
		if c := matches(n.allOf); c != len(n.allOf) {
			*out = append(*out, violation{loc: loc, kind: vAllOf, got: c, want: len(n.allOf)})
		}
	}
	if n.anyOf != nil && matches(n.anyOf) == 0 {
		*out = append(*out, violation{loc: loc, kind: vAnyOf, want: len(n.anyOf)})
	}
	if n.oneOf != nil {
		if c := matches(n.oneOf); c != 1 {
			*out = append(*out, violation{loc: loc, kind: vOneOf, got: c, want: len(n.oneOf)})
		}
	}
	if n.not != nil && n.not.accepts(v) {
		*out = append(*out, violation{loc: loc, kind: vNot})
	}
	if n.ifN != nil {
		switch {
		case n.ifN.accepts(v):
			if n.thenN != nil && !n.thenN.accepts(v) {
				*out = append(*out, violation{loc: loc, kind: vThen})
			}
		case n.elseN != nil && !n.elseN.accepts(v):
			*out = append(*out, violation{loc: loc, kind: vElse})
		}
	}
}

// accepts tells whether v passes every check of n.
func (n *fullNode) accepts(v any) bool {
	var found []violation
	n.check(v, nil, &found)
	return len(found) == 0
}

func (n *fullNode) typeMatches(t string, v any) bool {
	if n.types&typeBits[t] != 0 {
		return true
	}
	if t == "number" && n.types&tInteger != 0 {
		r, ok := ratOf(v)
		return ok && r.IsInt()
	}
	return false
}

// typeNames lists the types of a set in v6's order.
func typeNames(bits uint8) []string {
	var out []string
	for _, t := range []struct {
		name string
		bit  uint8
	}{{"null", tNull}, {"boolean", tBoolean}, {"number", tNumber}, {"integer", tInteger}, {"string", tString}, {"array", tArray}, {"object", tObject}} {
		if bits&t.bit != 0 {
			out = append(out, t.name)
		}
	}
	return out
}

func (n *fullNode) enumHas(v any) bool {
	for _, e := range n.enum {
		if Equal(v, e) {
			return true
		}
	}
	return false
}

func (n *fullNode) checkString(s string, loc []string, out *[]violation) {
	if n.minLen >= 0 || n.maxLen >= 0 {
		c := utf8.RuneCountInString(s)
		if n.minLen >= 0 && c < n.minLen {
			*out = append(*out, violation{loc: loc, kind: vMinLength, got: c, want: n.minLen})
		}
		if n.maxLen >= 0 && c > n.maxLen {
			*out = append(*out, violation{loc: loc, kind: vMaxLength, got: c, want: n.maxLen})
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		*out = append(*out, violation{loc: loc, kind: vPattern, value: s, pattern: n.patternSrc})
	}
}

func (n *fullNode) checkNumber(v any, loc []string, out *[]violation) {
	if n.minimum == nil && n.maximum == nil && n.exMin == nil && n.exMax == nil && n.multipleOf == nil {
		return
	}
	r, ok := ratOf(v)
	if !ok {
		return
	}
	add := func(k violationKind, want *big.Rat) {
		*out = append(*out, violation{loc: loc, kind: k, gotNum: r, wantNum: want})
	}
	if n.minimum != nil && r.Cmp(n.minimum) < 0 {
		add(vMinimum, n.minimum)
	}
	if n.maximum != nil && r.Cmp(n.maximum) > 0 {
		add(vMaximum, n.maximum)
	}
	if n.exMin != nil && r.Cmp(n.exMin) <= 0 {
		add(vExclusiveMinimum, n.exMin)
	}
	if n.exMax != nil && r.Cmp(n.exMax) >= 0 {
		add(vExclusiveMaximum, n.exMax)
	}
	if n.multipleOf != nil && !new(big.Rat).Quo(r, n.multipleOf).IsInt() {
		add(vMultipleOf, n.multipleOf)
	}
}

func (n *fullNode) checkArray(a []any, loc []string, out *[]violation) {
	if n.minItems >= 0 && len(a) < n.minItems {
		*out = append(*out, violation{loc: loc, kind: vMinItems, got: len(a), want: n.minItems})
	}
	if n.maxItems >= 0 && len(a) > n.maxItems {
		*out = append(*out, violation{loc: loc, kind: vMaxItems, got: len(a), want: n.maxItems})
	}
	if n.unique && len(a) > 1 {
	dups:
		for i := 1; i < len(a); i++ {
			for j := 0; j < i; j++ {
				if Equal(a[i], a[j]) {
					*out = append(*out, violation{loc: loc, kind: vUniqueItems, dup: [2]int{j, i}})
					break dups
				}
			}
		}
	}
	switch {
	case n.hasTuple:
		m := min(len(a), len(n.tuple))
		for i := 0; i < m; i++ {
			n.tuple[i].check(a[i], appendLoc(loc, strconv.Itoa(i)), out)
		}
		if n.additionalItems != nil && m < len(a) {
			ai := n.additionalItems
			if ai.isBool { // a boolean here, not a $ref to one (v6 tells them apart)
				if !ai.boolean {
					*out = append(*out, violation{loc: loc, kind: vAdditionalItems, got: len(a) - m})
				}
			} else {
				for i := m; i < len(a); i++ {
					ai.check(a[i], appendLoc(loc, strconv.Itoa(i)), out)
				}
			}
		}
	case n.items != nil:
		for i, e := range a {
			n.items.check(e, appendLoc(loc, strconv.Itoa(i)), out)
		}
	}
	if n.contains != nil {
		var failed []violation
		matched := false
		for i, e := range a {
			before := len(failed)
			n.contains.check(e, appendLoc(loc, strconv.Itoa(i)), &failed)
			if len(failed) == before {
				matched = true
			}
		}
		if !matched {
			if len(failed) == 0 {
				*out = append(*out, violation{loc: loc, kind: vContains})
			} else {
				// v6 reports the items' own violations under contains
				*out = append(*out, failed...)
			}
		}
	}
}

func (n *fullNode) checkObject(m map[string]any, loc []string, out *[]violation) {
	if n.minProps >= 0 && len(m) < n.minProps {
		*out = append(*out, violation{loc: loc, kind: vMinProperties, got: len(m), want: n.minProps})
	}
	if n.maxProps >= 0 && len(m) > n.maxProps {
		*out = append(*out, violation{loc: loc, kind: vMaxProperties, got: len(m), want: n.maxProps})
	}
	var missing []string
	for _, r := range n.required {
		if _, ok := m[r]; !ok {
			missing = append(missing, r)
		}
	}
	if missing != nil {
		*out = append(*out, violation{loc: loc, kind: vRequired, keys: missing})
	}
	var extra []string
	for k, v := range m {
		evaluated := false
		if p, ok := n.props[k]; ok {
			evaluated = true
			p.check(v, appendLoc(loc, k), out)
		}
		for _, pp := range n.patterns {
			if pp.matches(k) {
				evaluated = true
				pp.node.check(v, appendLoc(loc, k), out)
			}
		}
		if evaluated || n.additional == nil {
			continue
		}
		ap := n.additional
		if ap.isBool { // a boolean here, not a $ref to one (v6 tells them apart)
			if !ap.boolean {
				extra = append(extra, k)
			}
			continue
		}
		ap.check(v, appendLoc(loc, k), out)
	}
	if extra != nil {
		*out = append(*out, violation{loc: loc, kind: vAdditionalProperties, keys: extra})
	}
	for _, d := range n.deps {
		if _, ok := m[d.prop]; !ok {
			continue
		}
		if d.schema != nil {
			d.schema.check(m, loc, out)
			continue
		}
		var missing []string
		for _, need := range d.needs {
			if _, ok := m[need]; !ok {
				missing = append(missing, need)
			}
		}
		if missing != nil {
			*out = append(*out, violation{loc: loc, kind: vDependency, keys: missing, value: d.prop})
		}
	}
	if n.propertyNames != nil {
		for k := range m {
			bad := []violation(nil)
			n.propertyNames.check(k, nil, &bad)
			// as v6 reports them: the name's own violations, at the
			// root ("#: maxLength: got 4, want 3")
			*out = append(*out, bad...)
		}
	}
}

// appendLoc is loc and one more step, in a slice of its own (siblings
// share loc's prefix).
func appendLoc(loc []string, step string) []string {
	out := make([]string, len(loc)+1)
	copy(out, loc)
	out[len(loc)] = step
	return out
}

// text words a violation as jsonschema/v6 did in English (the wording
// stacksim's messages and goldens have always had for these), numbers
// grouped by thousands as its printer groups them.
func (f violation) text() string {
	p := englishPrinter
	switch f.kind {
	case vFalseSchema:
		return p.Sprintf("false schema")
	case vInvalidValue:
		return p.Sprintf("invalid jsonType %T", f.value)
	case vType:
		return p.Sprintf("got %s, want %s", f.gotType, strings.Join(f.wantTypes, " or "))
	case vConst:
		switch f.value.(type) {
		case []any, map[string]any:
			return p.Sprintf("'const' failed")
		}
		return p.Sprintf("value must be %s", display(f.value))
	case vEnum:
		for _, e := range f.values {
			switch e.(type) {
			case []any, map[string]any:
				return p.Sprintf("'enum' failed")
			}
		}
		if len(f.values) == 1 {
			return p.Sprintf("value must be %s", display(f.values[0]))
		}
		want := make([]string, len(f.values))
		for i, e := range f.values {
			want[i] = display(e)
		}
		return p.Sprintf("value must be one of %s", strings.Join(want, ", "))
	case vMinLength:
		return p.Sprintf("minLength: got %d, want %d", f.got, f.want)
	case vMaxLength:
		return p.Sprintf("maxLength: got %d, want %d", f.got, f.want)
	case vPattern:
		return p.Sprintf("%s does not match pattern %s", quote(f.value.(string)), quote(f.pattern))
	case vMinimum, vMaximum, vExclusiveMinimum, vExclusiveMaximum, vMultipleOf:
		got, _ := f.gotNum.Float64()
		want, _ := f.wantNum.Float64()
		name := map[violationKind]string{vMinimum: "minimum", vMaximum: "maximum", vExclusiveMinimum: "exclusiveMinimum", vExclusiveMaximum: "exclusiveMaximum", vMultipleOf: "multipleOf"}[f.kind]
		return p.Sprintf(name+": got %v, want %v", got, want)
	case vMinItems:
		return p.Sprintf("minItems: got %d, want %d", f.got, f.want)
	case vMaxItems:
		return p.Sprintf("maxItems: got %d, want %d", f.got, f.want)
	case vUniqueItems:
		return p.Sprintf("items at %d and %d are equal", f.dup[0], f.dup[1])
	case vAdditionalItems:
		return p.Sprintf("last %d additionalItem(s) not allowed", f.got)
	case vContains:
		return p.Sprintf("no items match contains schema")
	case vMinProperties:
		return p.Sprintf("minProperties: got %d, want %d", f.got, f.want)
	case vMaxProperties:
		return p.Sprintf("maxProperties: got %d, want %d", f.got, f.want)
	case vRequired:
		if len(f.keys) == 1 {
			return p.Sprintf("missing property %s", quote(f.keys[0]))
		}
		return p.Sprintf("missing properties %s", joinQuoted(f.keys))
	case vAdditionalProperties:
		return p.Sprintf("additional properties %s not allowed", joinQuoted(f.keys))
	case vAllOf:
		return p.Sprintf("allOf failed: %d of %d subschemas matched", f.got, f.want)
	case vAnyOf:
		return p.Sprintf("anyOf failed: none of %d subschemas matched", f.want)
	case vOneOf:
		if f.got == 0 {
			return p.Sprintf("oneOf failed: none of %d subschemas matched", f.want)
		}
		return p.Sprintf("oneOf failed: %d subschemas matched", f.got)
	case vNot:
		return p.Sprintf("'not' failed")
	case vThen:
		return p.Sprintf("'then' failed")
	case vElse:
		return p.Sprintf("'else' failed")
	case vDependency:
		return p.Sprintf("properties %s required, if %s exists", joinQuoted(f.keys), quote(f.value.(string)))
	}
	return "validation failed"
}

// quote is a name or string in single quotes, Go-escaped.
func quote(s string) string {
	s = fmt.Sprintf("%q", s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

func joinQuoted(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quote(n)
	}
	return strings.Join(out, ", ")
}

// display is a scalar as a message shows it.
func display(v any) string {
	switch t := v.(type) {
	case string:
		return quote(t)
	case []any, map[string]any:
		return "value"
	}
	return fmt.Sprintf("%v", v)
}
