package resources

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Schema is a resource type's schema in the registry format
// (provider.definition.schema.v1): what the planner needs (identifiers,
// createOnly, readOnly, writeOnly, replacement strategy, timeouts, the
// attributes of Fn::GetAtt) and, compiled lazily, a validator for models.
type Schema struct {
	TypeName                        string
	Description                     string
	PrimaryIdentifier               []string
	AdditionalIdentifiers           [][]string
	CreateOnlyProperties            []string
	ConditionalCreateOnlyProperties []string
	ReadOnlyProperties              []string
	WriteOnlyProperties             []string
	DeprecatedProperties            []string
	// Timeouts holds handlers.ACTION.timeoutInMinutes where the schema
	// declares it.
	Timeouts map[Action]time.Duration
	Tagging  *Tagging
	// Replacement is replacementStrategy as written ("" when absent).
	Replacement string
	// Source names where the schema came from (a file, "embedded").
	Source string

	raw []byte
	sim *simulation
	// overlaid: sim is an overlay of stacksim's (resources/overlays) laid
	// on a registry schema; the rules it does not give are inferred.
	overlaid   bool
	rawProps   json.RawMessage
	rawDefs    json.RawMessage
	decodeOnce sync.Once
	props      map[string]any
	defs       map[string]any
	doc        map[string]any
	decodeErr  error

	// The input validator and the contract's compile apart, each on first
	// use: a run without the contract checker never compiles the latter.
	inputOnce    sync.Once
	inputErr     error
	contractOnce sync.Once
	input        *validator
	contract     *validator
	// modelCheck is the contract validator's fast node paired with the
	// coercion shapes (ModelCertainlyValid).
	modelCheck *checkNode
	valErr     error
	shapeOnce  sync.Once
	shape      *shape
	attrOnce   sync.Once
	attrs      []string
	ptrOnce    sync.Once
	ptrs       pointerLists
	// simOnce compiles, on first use, what the simulated provider derives
	// from the schema alone (compiledSim): every provider of the type in
	// the process shares it.
	simOnce sync.Once
	simC    *compiledSim
	// checkOnce makes Check's answer once.
	checkOnce sync.Once
	checkErr  error
	// segs caches the split form of every pointer the schema lists
	// (filled at parse time, read-only after).
	segs map[string][]string
}

// pointer is a pointer the schema lists, split once.
type pointer struct {
	text string
	segs []string
}

// pointerLists are the schema's property classes, split, and the writeOnly
// pointers as a tree (for copying only what stripping them changes).
type pointerLists struct {
	primary, createOnly, readOnly, writeOnly []pointer
	writeOnlyTrie                            segTrie
	// topLevel are the names that a readOnly or writeOnly pointer of one
	// segment removes from a model; nestedTop those that longer ones start
	// at.
	topLevel, nestedTop *nameIndex[struct{}]
}

// lists compiles the property classes on first use. A Schema is read-only
// once made (ParseSchema, or a literal in tests): these, like the
// validators, are never recompiled.
func (s *Schema) lists() *pointerLists {
	s.ptrOnce.Do(func() {
		split := func(list []string) []pointer {
			out := make([]pointer, len(list))
			for i, p := range list {
				out[i] = pointer{text: p, segs: s.split(p)}
			}
			return out
		}
		s.ptrs = pointerLists{primary: split(s.PrimaryIdentifier), createOnly: split(s.CreateOnlyProperties),
			readOnly: split(s.ReadOnlyProperties), writeOnly: split(s.WriteOnlyProperties)}
		t := segTrie{}
		for _, p := range s.ptrs.writeOnly {
			n := t
			for _, seg := range p.segs {
				c, ok := n[seg]
				if !ok {
					c = segTrie{}
					n[seg] = c
				}
				n = c
			}
		}
		s.ptrs.writeOnlyTrie = t
		top, nested := map[string]struct{}{}, map[string]struct{}{}
		for _, list := range [2][]pointer{s.ptrs.readOnly, s.ptrs.writeOnly} {
			for _, p := range list {
				switch {
				case len(p.segs) == 1:
					top[p.segs[0]] = struct{}{}
				case len(p.segs) > 1:
					nested[p.segs[0]] = struct{}{}
				}
			}
		}
		s.ptrs.topLevel, s.ptrs.nestedTop = newNameIndex(top), newNameIndex(nested)
	})
	return &s.ptrs
}

// split returns the segments of a pointer, from the cache when the schema
// lists it.
func (s *Schema) split(p string) []string {
	if segs, ok := s.segs[p]; ok {
		return segs
	}
	return SplitPointer(p)
}

// Tagging is the schema's tagging section.
type Tagging struct {
	Taggable                 *bool  `json:"taggable,omitempty"`
	TagOnCreate              *bool  `json:"tagOnCreate,omitempty"`
	TagUpdatable             *bool  `json:"tagUpdatable,omitempty"`
	CloudFormationSystemTags *bool  `json:"cloudFormationSystemTags,omitempty"`
	TagProperty              string `json:"tagProperty,omitempty"`
}

// Replacement strategies.
const (
	CreateThenDelete = "create_then_delete"
	DeleteThenCreate = "delete_then_create"
)

// ErrNotResourceSchema marks a document that is not a resource type's
// schema (a module, a hook); LoadSchemaDir skips such files.
var ErrNotResourceSchema = errors.New("not a resource type schema")

type schemaFile struct {
	TypeName                        string                 `json:"typeName"`
	Description                     string                 `json:"description"`
	Properties                      json.RawMessage        `json:"properties"`
	Definitions                     json.RawMessage        `json:"definitions"`
	PrimaryIdentifier               []string               `json:"primaryIdentifier"`
	AdditionalIdentifiers           [][]string             `json:"additionalIdentifiers"`
	CreateOnlyProperties            []string               `json:"createOnlyProperties"`
	ConditionalCreateOnlyProperties []string               `json:"conditionalCreateOnlyProperties"`
	ReadOnlyProperties              []string               `json:"readOnlyProperties"`
	WriteOnlyProperties             []string               `json:"writeOnlyProperties"`
	DeprecatedProperties            []string               `json:"deprecatedProperties"`
	Handlers                        map[string]handlerSpec `json:"handlers"`
	Tagging                         *Tagging               `json:"tagging"`
	ReplacementStrategy             string                 `json:"replacementStrategy"`
	Sim                             *simulation            `json:"x-stacksim"`
}

type handlerSpec struct {
	TimeoutInMinutes any `json:"timeoutInMinutes"`
}

// ParseSchema reads one schema in the registry format. source names it in
// errors ("schemas/aws-s3-bucket.json").
func ParseSchema(source string, data []byte) (*Schema, error) {
	var f schemaFile
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // x-stacksim values are model values: numbers are json.Number
	if err := d.Decode(&f); err != nil {
		var v any
		if serr := json.Unmarshal(data, &v); serr != nil {
			err = serr // a *json.SyntaxError, with the offset
		}
		return nil, fmt.Errorf("%s: not a resource schema: %w", source, describeJSONError(data, err))
	}
	if f.TypeName == "" {
		return nil, fmt.Errorf("%s: the schema has no typeName; a registry schema names its type as \"typeName\": \"Org::Service::Resource\"", source)
	}
	if strings.Count(f.TypeName, "::") != 2 && !strings.HasPrefix(f.TypeName, "Custom::") {
		return nil, fmt.Errorf("%s: %w: typeName %q is not Org::Service::Resource", source, ErrNotResourceSchema, f.TypeName)
	}
	if len(f.PrimaryIdentifier) == 0 {
		return nil, fmt.Errorf("%s: %s has no primaryIdentifier; every registry schema names one", source, f.TypeName)
	}
	s := &Schema{
		TypeName:                        f.TypeName,
		Description:                     f.Description,
		PrimaryIdentifier:               f.PrimaryIdentifier,
		AdditionalIdentifiers:           f.AdditionalIdentifiers,
		CreateOnlyProperties:            f.CreateOnlyProperties,
		ConditionalCreateOnlyProperties: f.ConditionalCreateOnlyProperties,
		ReadOnlyProperties:              f.ReadOnlyProperties,
		WriteOnlyProperties:             f.WriteOnlyProperties,
		DeprecatedProperties:            f.DeprecatedProperties,
		Tagging:                         f.Tagging,
		Replacement:                     f.ReplacementStrategy,
		Source:                          source,
		raw:                             data,
		sim:                             f.Sim,
		rawProps:                        f.Properties,
		rawDefs:                         f.Definitions,
	}
	for name, h := range f.Handlers {
		a, err := ParseAction(name)
		if err != nil || h.TimeoutInMinutes == nil {
			continue
		}
		num, ok := h.TimeoutInMinutes.(json.Number)
		m, err := num.Int64()
		if !ok || err != nil || m <= 0 {
			return nil, fmt.Errorf("%s: handlers.%s.timeoutInMinutes is %v; it must be a whole number of minutes (2 to 2160)", source, name, h.TimeoutInMinutes)
		}
		if s.Timeouts == nil {
			s.Timeouts = map[Action]time.Duration{}
		}
		s.Timeouts[a] = time.Duration(m) * time.Minute
	}
	s.segs = map[string][]string{}
	lists := [][]string{s.PrimaryIdentifier, s.CreateOnlyProperties, s.ConditionalCreateOnlyProperties, s.ReadOnlyProperties, s.WriteOnlyProperties, s.DeprecatedProperties}
	lists = append(lists, s.AdditionalIdentifiers...)
	for _, list := range lists {
		s.addPointers(list)
	}
	if s.sim != nil {
		s.addSegs(s.sim)
		if err := s.sim.check(s); err != nil {
			return nil, fmt.Errorf("%s: x-stacksim: %w", source, err)
		}
	}
	return s, nil
}

// addPointers caches the split form of pointers (at parse time only).
func (s *Schema) addPointers(list []string) {
	for _, p := range list {
		if p != "" {
			s.segs[p] = SplitPointer(p)
		}
	}
}

// addSegs caches the pointers a simulation names.
func (s *Schema) addSegs(sim *simulation) {
	for _, v := range append(append([]valueSpec{}, sim.Values...), sim.Defaults...) {
		ptr, _, _ := splitWhen(v.When)
		s.addPointers([]string{v.Path, ptr})
	}
}

func describeJSONError(data []byte, err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		line := 1 + bytes.Count(data[:se.Offset], []byte("\n"))
		col := int(se.Offset) - bytes.LastIndexByte(data[:se.Offset], '\n') - 1
		return fmt.Errorf("line %d, column %d: %w", line, col, err)
	}
	return err
}

func (s *Schema) decode() error {
	s.decodeOnce.Do(func() {
		doc, err := decodeJSON(s.raw)
		if err != nil {
			s.decodeErr = err
			return
		}
		s.doc, _ = doc.(map[string]any)
		s.props, _ = s.doc["properties"].(map[string]any)
		s.defs, _ = s.doc["definitions"].(map[string]any)
	})
	return s.decodeErr
}

func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Properties is the schema's "properties" object, decoded on first use.
// Callers must not change it.
func (s *Schema) Properties() map[string]any {
	if s.decode() != nil {
		return nil
	}
	return s.props
}

// Definitions is the schema's "definitions" object. Callers must not change it.
func (s *Schema) Definitions() map[string]any {
	if s.decode() != nil {
		return nil
	}
	return s.defs
}

// Raw is the schema document as loaded.
func (s *Schema) Raw() []byte { return s.raw }

// ReplacementStrategy is create_then_delete (the default) or delete_then_create.
func (s *Schema) ReplacementStrategy() string {
	if s.Replacement == DeleteThenCreate {
		return DeleteThenCreate
	}
	return CreateThenDelete
}

// Timeout is the action's handler timeout: handlers.ACTION.timeoutInMinutes,
// 120 minutes when the schema says nothing.
func (s *Schema) Timeout(a Action) time.Duration {
	if d, ok := s.Timeouts[a]; ok {
		return d
	}
	return DefaultTimeout
}

// IsCreateOnly reports whether a change at path (a pointer into the
// properties, "/properties/A/0/B" or "/A/0/B") requires replacement: path is
// a createOnly property or lies under one.
func (s *Schema) IsCreateOnly(path string) bool { return s.anyUnder(s.CreateOnlyProperties, path) }

// IsConditionalCreateOnly reports whether a change at path may require
// replacement (the handler decides): path is or lies under a
// conditionalCreateOnly property.
func (s *Schema) IsConditionalCreateOnly(path string) bool {
	return s.anyUnder(s.ConditionalCreateOnlyProperties, path)
}

// IsReadOnly reports whether path is or lies under a readOnly property.
func (s *Schema) IsReadOnly(path string) bool { return s.anyUnder(s.ReadOnlyProperties, path) }

// IsWriteOnly reports whether path is or lies under a writeOnly property.
func (s *Schema) IsWriteOnly(path string) bool { return s.anyUnder(s.WriteOnlyProperties, path) }

func (s *Schema) anyUnder(pointers []string, path string) bool {
	segs := SplitPointer(path)
	for _, p := range pointers {
		if segsUnder(segs, s.split(p)) {
			return true
		}
	}
	return false
}

// ChangedCreateOnly compares two property sets (stringified or not) and
// returns the createOnly and the conditionalCreateOnly pointers whose values
// differ. A change of a whole object that holds a createOnly member is found
// through the member's pointer.
func (s *Schema) ChangedCreateOnly(old, new map[string]any) (always, conditional []string) {
	return changedAt(s.CreateOnlyProperties, old, new), changedAt(s.ConditionalCreateOnlyProperties, old, new)
}

func changedAt(pointers []string, old, new map[string]any) []string {
	var out []string
	for _, p := range pointers {
		a, b := GetAll(old, p), GetAll(new, p)
		if !LooseEqual(sliceAny(a), sliceAny(b)) {
			out = append(out, p)
		}
	}
	return out
}

func sliceAny(v []any) any {
	if v == nil {
		return []any{}
	}
	return v
}

// Attributes lists the names Fn::GetAtt accepts: the readOnly properties
// ("Arn"; nested ones as "Endpoint.Address", and the members of a readOnly
// object, "State.Code"; none inside arrays) and, for simulated types, the
// other attributes AWS documents (an SQS queue's QueueName). Sorted.
func (s *Schema) Attributes() []string {
	return append([]string(nil), s.attributes()...)
}

// attributes is Attributes without the copy (the slice is the schema's:
// read it, never change it).
func (s *Schema) attributes() []string {
	s.attrOnce.Do(func() {
		seen := map[string]bool{}
		for _, p := range s.ReadOnlyProperties {
			segs := SplitPointer(p)
			if len(segs) == 0 || contains(segs, "*") {
				continue
			}
			name := strings.Join(segs, ".")
			seen[name] = true
			if ps := s.PropertySchema(p); ps != nil {
				if props, ok := ps["properties"].(map[string]any); ok {
					for member := range props {
						seen[name+"."+member] = true
					}
				}
			}
		}
		if s.sim != nil {
			for _, a := range s.sim.Attributes {
				seen[a] = true
			}
		}
		s.attrs = make([]string, 0, len(seen))
		for a := range seen {
			s.attrs = append(s.attrs, a)
		}
		sort.Strings(s.attrs)
	})
	return s.attrs
}

// HasAttribute reports whether Fn::GetAtt accepts name.
func (s *Schema) HasAttribute(name string) bool {
	attrs := s.attributes()
	i := sort.SearchStrings(attrs, name)
	return (i < len(attrs) && attrs[i] == name) || s.dynamicAttribute(name)
}

// dynamicAttribute tells whether name is one of the attributes the
// simulation answers by prefix (Outputs.NAME of a nested stack).
func (s *Schema) dynamicAttribute(name string) bool {
	if s.sim == nil {
		return false
	}
	for _, p := range s.sim.AttrPrefix {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return true
		}
	}
	return false
}

// identifierSets is the primary identifier followed by the additional ones.
func (s *Schema) identifierSets() [][]string {
	return append([][]string{s.PrimaryIdentifier}, s.AdditionalIdentifiers...)
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
