package resources

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// fastNode is a quick check for the keywords resource schemas use
// (type, enum, const, lengths, pattern, bounds, items, properties,
// additionalProperties, patternProperties, required, property and item
// counts, uniqueItems), compiled from the same stripped document as the
// full validator (fullNode). It only ever answers "certainly valid": when
// it finds a problem, or meets a keyword it does not implement, the full
// validator decides and words the errors. Models are checked on every
// handler event, so this keeps the contract checker cheap.
type fastNode struct {
	unsupported bool
	types       uint8
	enum        []any
	enumStrings *nameIndex[struct{}] // the strings of enum (set with enum)
	constV      any
	hasConst    bool

	minLen, maxLen int
	pattern        matcher
	// matched remembers strings that matched pattern lately (models
	// repeat the same names and ARNs event after event); made on first use.
	matched atomic.Pointer[patternMemo]

	// numeric bounds; math.Inf when absent (float64 is exact for the
	// integers and decimals schemas use; a value beyond 2^53 goes to the full validator)
	min, max, exMin, exMax float64

	minItems, maxItems int
	unique             bool
	items              *fastNode

	props      map[string]*fastNode
	patterns   []patternNode
	additional *fastNode
	noExtra    bool
	required   []string
	minProps   int
	maxProps   int
}

type patternNode struct {
	re   matcher
	node *fastNode
}

const (
	tObject uint8 = 1 << iota
	tArray
	tString
	tNumber
	tInteger
	tBoolean
	tNull
)

var typeBits = map[string]uint8{"object": tObject, "array": tArray, "string": tString, "number": tNumber, "integer": tInteger, "boolean": tBoolean, "null": tNull}

// Keywords the fast check does not implement: their presence hands the
// decision to the full validator.
var fastUnsupported = []string{"multipleOf", "contains", "minContains", "maxContains", "additionalItems",
	"propertyNames", "dependencies", "dependentRequired", "dependentSchemas", "if", "then", "else",
	"allOf", "anyOf", "oneOf", "not", "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "format"}

type fastBuilder struct {
	defs map[string]any
	memo map[string]*fastNode
}

func buildFast(root map[string]any) *fastNode {
	defs, _ := root["definitions"].(map[string]any)
	b := &fastBuilder{defs: defs, memo: map[string]*fastNode{}}
	return b.build(root, 0)
}

func (b *fastBuilder) build(v any, depth int) *fastNode {
	switch t := v.(type) {
	case bool:
		if t {
			return &fastNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
		}
		return &fastNode{unsupported: true} // false: let the full validator say so
	case map[string]any:
		return b.object(t, depth)
	}
	return &fastNode{unsupported: true}
}

func (b *fastBuilder) object(m map[string]any, depth int) *fastNode {
	if depth > 64 {
		return &fastNode{unsupported: true}
	}
	if ref, ok := m["$ref"].(string); ok {
		// Draft 7: $ref replaces its siblings.
		if n, ok := b.memo[ref]; ok {
			return n
		}
		name, found := strings.CutPrefix(ref, "#/definitions/")
		n := &fastNode{}
		b.memo[ref] = n
		if def, ok := b.defs[name]; ok && found {
			n.copyFrom(b.build(def, depth+1))
		} else {
			n.unsupported = true
		}
		return n
	}
	n := &fastNode{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	for _, k := range fastUnsupported {
		if _, ok := m[k]; ok {
			n.unsupported = true
			return n
		}
	}
	switch t := m["type"].(type) {
	case string:
		n.types = typeBits[t]
		if n.types == 0 {
			n.unsupported = true
		}
	case []any:
		for _, e := range t {
			s, _ := e.(string)
			if typeBits[s] == 0 {
				n.unsupported = true
			}
			n.types |= typeBits[s]
		}
	case nil:
	default:
		n.unsupported = true
	}
	if e, ok := m["enum"].([]any); ok {
		n.enum = e
		strs := map[string]struct{}{}
		for _, x := range e {
			if str, isStr := x.(string); isStr {
				strs[str] = struct{}{}
			}
		}
		n.enumStrings = newNameIndex(strs)
	}
	if c, ok := m["const"]; ok {
		n.constV, n.hasConst = c, true
	}
	n.minLen, n.maxLen = intKeyword(m, "minLength", n), intKeyword(m, "maxLength", n)
	n.minItems, n.maxItems = intKeyword(m, "minItems", n), intKeyword(m, "maxItems", n)
	n.minProps, n.maxProps = intKeyword(m, "minProperties", n), intKeyword(m, "maxProperties", n)
	if p, ok := m["pattern"].(string); ok {
		re, err := cachedRegexp(p)
		if err != nil {
			n.unsupported = true // neither engine compiles it: the full validator refuses the schema
		} else {
			n.pattern = re
		}
	}
	n.min, n.max = boundKeyword(m, "minimum", n, math.Inf(-1)), boundKeyword(m, "maximum", n, math.Inf(1))
	n.exMin, n.exMax = boundKeyword(m, "exclusiveMinimum", n, math.Inf(-1)), boundKeyword(m, "exclusiveMaximum", n, math.Inf(1))
	if u, ok := m["uniqueItems"].(bool); ok {
		n.unique = u
	}
	switch it := m["items"].(type) {
	case map[string]any, bool:
		n.items = b.build(it, depth+1)
	case nil:
	default:
		n.unsupported = true // tuple items
	}
	if props, ok := m["properties"].(map[string]any); ok {
		n.props = make(map[string]*fastNode, len(props))
		for k, p := range props {
			n.props[k] = b.build(p, depth+1)
		}
	}
	if pp, ok := m["patternProperties"].(map[string]any); ok {
		for pat, p := range pp {
			re, err := cachedRegexp(pat)
			if err != nil {
				n.unsupported = true
				continue
			}
			n.patterns = append(n.patterns, patternNode{re: re, node: b.build(p, depth+1)})
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case bool:
		n.noExtra = !ap
	case map[string]any:
		n.additional = b.build(ap, depth+1)
	}
	if req, ok := m["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				n.required = append(n.required, s)
			}
		}
	}
	return n
}

func intKeyword(m map[string]any, k string, n *fastNode) int {
	v, ok := m[k]
	if !ok {
		return -1
	}
	num, ok := numberOf(v)
	if !ok {
		n.unsupported = true
		return -1
	}
	i, err := num.Int64()
	if err != nil {
		f, ferr := num.Float64()
		if ferr != nil || f != math.Trunc(f) {
			n.unsupported = true
			return -1
		}
		i = int64(f)
	}
	return int(i)
}

func boundKeyword(m map[string]any, k string, n *fastNode, absent float64) float64 {
	v, ok := m[k]
	if !ok {
		return absent
	}
	num, ok := numberOf(v)
	if !ok {
		n.unsupported = true // draft-4 boolean exclusive bounds
		return absent
	}
	f, err := num.Float64()
	if err != nil || math.Abs(f) > 1<<53 {
		n.unsupported = true
	}
	return f
}

// valid reports whether v certainly conforms to the node.
func (n *fastNode) valid(v any) bool {
	if n == nil {
		return true
	}
	if _, ok := v.(Pending); ok {
		return true // not known yet: passes every check (InputCertainlyValid)
	}
	if n.unsupported {
		return false
	}
	if n.hasConst && !Equal(n.constV, v) {
		return false
	}
	if n.enum != nil && !n.inEnum(v) {
		return false
	}
	switch t := v.(type) {
	case map[string]any:
		return n.has(tObject) && n.object(t)
	case []any:
		if !n.has(tArray) {
			return false
		}
		if n.minItems >= 0 && len(t) < n.minItems || n.maxItems >= 0 && len(t) > n.maxItems {
			return false
		}
		for _, e := range t {
			if !n.items.valid(e) {
				return false
			}
		}
		if n.unique {
			for i := range t {
				for j := i + 1; j < len(t); j++ {
					if Equal(t[i], t[j]) {
						return false
					}
				}
			}
		}
		return true
	case string:
		if !n.has(tString) {
			return false
		}
		if n.minLen >= 0 || n.maxLen >= 0 {
			c := utf8.RuneCountInString(t)
			if n.minLen >= 0 && c < n.minLen || n.maxLen >= 0 && c > n.maxLen {
				return false
			}
		}
		return n.pattern == nil || n.matches(t)
	case bool:
		return n.has(tBoolean)
	case nil:
		return n.has(tNull)
	}
	num, ok := numberOf(v)
	if !ok {
		return false
	}
	return n.number(num)
}

const patternMemoSize = 64

// smallInteger parses the common case of a number, a few decimal digits
// with an optional "-", exactly as ParseFloat would (up to 15 digits every
// integer is exact in a float64); ok is false for anything else.
func smallInteger(s string) (float64, bool) {
	neg := false
	if len(s) > 0 && s[0] == '-' {
		neg, s = true, s[1:]
	}
	if len(s) == 0 || len(s) > 15 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		return -float64(v), true
	}
	return float64(v), true
}

// inEnum reports whether v equals a member of enum: a string only a string
// member (Equal), found in the index; anything else member by member.
func (n *fastNode) inEnum(v any) bool {
	if s, ok := v.(string); ok {
		_, found := n.enumStrings.get(s)
		return found
	}
	for _, e := range n.enum {
		if Equal(e, v) {
			return true
		}
	}
	return false
}

// patternMemo is a direct-mapped cache of strings that matched a pattern:
// a slot per hash, the latest string wins. A hit is a string that matched
// before (regexps are deterministic); a miss runs the regexp.
type patternMemo struct {
	slots [patternMemoSize]atomic.Pointer[string]
}

func (n *fastNode) matches(s string) bool {
	memo := n.matched.Load()
	slot := nameHash(s) % patternMemoSize
	if memo != nil {
		if p := memo.slots[slot].Load(); p != nil && *p == s {
			return true
		}
	}
	if !n.pattern.MatchString(s) {
		return false
	}
	if memo == nil {
		n.matched.CompareAndSwap(nil, new(patternMemo))
		memo = n.matched.Load()
	}
	kept := s // its own variable: only a miss allocates
	memo.slots[slot].Store(&kept)
	return true
}

func (n *fastNode) has(bit uint8) bool {
	return n.types == 0 || n.types&bit != 0
}

func (n *fastNode) number(num json.Number) bool {
	f, ok := smallInteger(string(num))
	if !ok {
		var err error
		f, err = strconv.ParseFloat(string(num), 64)
		if err != nil || math.Abs(f) > 1<<53 {
			return false // the full validator decides, exactly
		}
	}
	integral := f == math.Trunc(f)
	if !(n.has(tNumber) || integral && n.types&tInteger != 0) {
		return false
	}
	return f >= n.min && f <= n.max && f > n.exMin && f < n.exMax
}

func (n *fastNode) object(m map[string]any) bool {
	if n.minProps >= 0 && len(m) < n.minProps || n.maxProps >= 0 && len(m) > n.maxProps {
		return false
	}
	for _, r := range n.required {
		if _, ok := m[r]; !ok {
			return false
		}
	}
	for k, v := range m {
		matched := false
		if p, ok := n.props[k]; ok {
			matched = true
			if !p.valid(v) {
				return false
			}
		}
		for _, pn := range n.patterns {
			if pn.re.MatchString(k) {
				matched = true
				if !pn.node.valid(v) {
					return false
				}
			}
		}
		if matched {
			continue
		}
		if n.noExtra {
			return false
		}
		if !n.additional.valid(v) {
			return false
		}
	}
	return true
}

// copyFrom fills n (a placeholder for a $ref, already shared by recursive
// references) with what m holds.
func (n *fastNode) copyFrom(m *fastNode) {
	n.unsupported, n.types, n.enum, n.enumStrings, n.constV, n.hasConst = m.unsupported, m.types, m.enum, m.enumStrings, m.constV, m.hasConst
	n.minLen, n.maxLen, n.pattern = m.minLen, m.maxLen, m.pattern
	n.min, n.max, n.exMin, n.exMax = m.min, m.max, m.exMin, m.exMax
	n.minItems, n.maxItems, n.unique, n.items = m.minItems, m.maxItems, m.unique, m.items
	n.props, n.patterns, n.additional, n.noExtra = m.props, m.patterns, m.additional, m.noExtra
	n.required, n.minProps, n.maxProps = m.required, m.minProps, m.maxProps
}

// validShaped is the contract's model checks in one walk: it reports that
// v holds no null and that v, coerced as sh says (Coerce), certainly
// conforms to n — what n.valid(coerceValue(sh, v)) && no null anywhere
// would say, without the copy. False means "not certain": the caller asks
// the exact checks. It is conservative where coercion could change what a
// keyword sees (const, enum or uniqueItems over containers). The walk is
// shapedWalk's (fastval_walk.go), in its contract mode.
func (n *fastNode) validShaped(sh *shape, v any) bool { return n.walk(sh, v, nil) }

// validCoercedString is n.valid(coerceValue(sh, t)) for a string that the
// shape may coerce (v is t, boxed), without boxing the coerced number.
func (n *fastNode) validCoercedString(sh *shape, t string, v any) bool {
	if sh.has("boolean") && (t == "true" || t == "false") {
		return n.valid(t == "true")
	}
	if sh.has("integer") {
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return n.validNumber(json.Number(t))
		}
	}
	if sh.has("number") {
		if _, err := strconv.ParseFloat(t, 64); err == nil && isJSONNumber(t) {
			return n.validNumber(json.Number(t))
		}
	}
	return n.valid(v)
}

// validString is n.valid(v) for v, the string t boxed, straight to the
// string keywords.
func (n *fastNode) validString(t string, v any) bool {
	if n.unsupported {
		return false
	}
	if n.hasConst || n.enum != nil {
		return n.valid(v)
	}
	if !n.has(tString) {
		return false
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		c := utf8.RuneCountInString(t)
		if n.minLen >= 0 && c < n.minLen || n.maxLen >= 0 && c > n.maxLen {
			return false
		}
	}
	return n.pattern == nil || n.matches(t)
}

// validNumber is n.valid(num) without boxing num when no keyword needs it.
func (n *fastNode) validNumber(num json.Number) bool {
	if n.unsupported {
		return false
	}
	if n.hasConst || n.enum != nil {
		return n.valid(num)
	}
	return n.number(num)
}

// noNull reports whether v holds no null anywhere.
func noNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case map[string]any:
		for _, e := range t {
			if !noNull(e) {
				return false
			}
		}
	case []any:
		for _, e := range t {
			if !noNull(e) {
				return false
			}
		}
	}
	return true
}
