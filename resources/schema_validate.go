package resources

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Two validators are compiled from a schema, lazily, on first use:
//
//   - the input validator, which checks template properties as
//     CloudFormation does before it calls a handler (required keys,
//     types, lengths, patterns, extraneous keys, and the boolean
//     subschemas allOf/anyOf/oneOf/not: AWS refuses a Bedrock knowledge
//     base's S3VectorsConfiguration that matches both of its oneOf's
//     alternatives, "2 subschemas matched instead of one"; the
//     conditionals if/then/else and dependencies, which the registry's
//     validator applies as everit's draft 7 does);
//   - the contract validator, which checks handler models as the contract
//     tests do: every keyword for any instance, numbers, strings, arrays and
//     objects, except required, dependencies and propertyNames, and no
//     conditional (if/then/else) or boolean (allOf/anyOf/oneOf/not)
//     subschemas.
//
// Neither asserts "format" (the contract tests do not). A pattern is a Java
// expression, run on Go's regexp or, where that cannot compile it (one
// pattern in eleven of the registry's: lookarounds, \uXXXX), on regexp2
// (internal/javapattern); one that neither compiles fails the schema
// (Schema.Check says where).

var (
	// dependentRequired and dependentSchemas are draft 2019-09's: the
	// registry's draft 7 validator (everit) does not know them, and AWS
	// does not apply them (seven registry schemas have them).
	inputDrop    = []string{"dependentRequired", "dependentSchemas", "format"}
	contractDrop = append([]string{"required", "propertyNames", "allOf", "anyOf", "oneOf", "not", "dependencies", "if", "then", "else"}, inputDrop...)
)

// ValidationError lists what is wrong with a model, one problem a line, each
// as "#/Path: message" (the form CloudFormation's own validation uses).
type ValidationError struct {
	TypeName string
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("Properties validation failed for resource type %s with message: %s", e.TypeName, strings.Join(e.Problems, "; "))
}

// ValidationMessage is CloudFormation's reason for a resource whose
// properties fail its schema's validation, before any handler runs:
// "Properties validation failed for resource MyParameter with message:
// [#: required key [Type] not found]" — the problems as a list, each
// worded as the everit validator CloudFormation uses words it (recorded
// from AWS: "[#/Content: expected type: String, found: JSONObject]", a
// 2024 console paste; "[#/SamplingRule/RuleName: expected maxLength: 32,
// actual: 33]"; "[#/MethodResponses/0: extraneous key [ResponseHeaders]
// is not permitted]"). AWS's older wording ("Property validation failure:
// [The property {/Type} is required]") is no longer what it writes.
func ValidationMessage(logicalID string, problems []string) string {
	return fmt.Sprintf("Properties validation failed for resource %s with message: [%s]", logicalID, strings.Join(problems, ", "))
}

// ValidationMessagePrefix begins every ValidationMessage.
const ValidationMessagePrefix = "Properties validation failed for resource "

// validator is one compiled variant: the quick check, made at once, and
// the full validator, compiled only when the quick check cannot say a
// model is valid (valid models never need it).
//
// The validator does not keep the decoded document it was built from: a
// registry schema decodes to tens or hundreds of kilobytes of maps, twice
// (one document per variant), which every collection of the process would
// mark for as long as the type is known. The full validator decodes the
// schema's bytes again when it is first needed.
type validator struct {
	fast *fastNode
	// raw and drop are what the stripped document is made from again
	// (strippedDoc) when the full validator is compiled.
	raw  []byte
	drop []string
	src  string
	once sync.Once
	full *fullNode
	err  error
}

// fullSchema is the full validator, compiled on first use.
func (v *validator) fullSchema() (*fullNode, error) {
	v.once.Do(func() {
		var root map[string]any
		if root, v.err = strippedDoc(v.raw, v.drop, v.src); v.err == nil {
			v.full, v.err = compileFull(root)
		}
		if v.err != nil {
			v.err = fmt.Errorf("%s: compile schema: %w", v.src, v.err)
		}
	})
	return v.full, v.err
}

// compileInput compiles the input validator (once); its error is the
// schema's.
func (s *Schema) compileInput() error {
	s.inputOnce.Do(func() { s.input, s.inputErr = s.compileVariant(inputDrop) })
	return s.inputErr
}

// compile compiles both validators (once each).
func (s *Schema) compile() {
	if err := s.compileInput(); err != nil {
		s.contractOnce.Do(func() { s.valErr = err })
		return
	}
	s.contractOnce.Do(func() {
		s.contract, s.valErr = s.compileVariant(contractDrop)
		if s.valErr == nil {
			s.modelCheck = compileCheck(s.contract.fast, s.shapeTree(), map[checkKey]*checkNode{})
		}
	})
}

func (s *Schema) compileVariant(drop []string) (*validator, error) {
	root, err := strippedDoc(s.raw, drop, s.Source)
	if err != nil {
		return nil, err
	}
	return &validator{fast: buildFast(root), raw: s.raw, drop: drop, src: s.Source}, nil
}

// strippedDoc decodes a schema's bytes and takes off what validation does
// not read (its name, handlers, stacksim's section) and the keywords of
// drop.
func strippedDoc(raw []byte, drop []string, src string) (map[string]any, error) {
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: a schema is a JSON object", src)
	}
	for _, k := range []string{"$schema", "$id", "id", "x-stacksim", "handlers", "propertyTransform", "typeName", "description", "sourceUrl", "documentationUrl"} {
		delete(root, k)
	}
	stripKeywords(root, drop)
	return root, nil
}

// stripKeywords removes keywords from a schema object and its subschemas.
func stripKeywords(sch map[string]any, drop []string) {
	for _, k := range drop {
		delete(sch, k)
	}
	for k, v := range sch {
		switch k {
		case "properties", "patternProperties", "definitions", "$defs":
			if m, ok := v.(map[string]any); ok {
				for _, sub := range m {
					if subm, ok := sub.(map[string]any); ok {
						stripKeywords(subm, drop)
					}
				}
			}
		case "allOf", "anyOf", "oneOf":
			if list, ok := v.([]any); ok {
				for _, e := range list {
					if m, ok := e.(map[string]any); ok {
						stripKeywords(m, drop)
					}
				}
			}
		case "additionalProperties", "items", "additionalItems", "contains", "not", "unevaluatedProperties", "unevaluatedItems":
			switch t := v.(type) {
			case map[string]any:
				stripKeywords(t, drop)
			case []any:
				for _, e := range t {
					if m, ok := e.(map[string]any); ok {
						stripKeywords(m, drop)
					}
				}
			}
		}
	}
}

// ValidateInput checks template properties (stringified or not) as
// CloudFormation does before calling a handler: the model is coerced to the
// schema's types first. A nil error means valid.
func (s *Schema) ValidateInput(model map[string]any) error {
	if err := s.compileInput(); err != nil {
		return err
	}
	return s.validate(s.input, s.coerced(model), true)
}

// Pending stands, in a model given to InputCertainlyValid, for a value
// not known yet (an attribute of a resource not made yet): it passes every
// check where it is.
type Pending struct{}

// InputCertainlyValid is ValidateInput's quick path: true means that the
// model (coerced) passes every check, each Pending taken as passing its
// own; false means "not certain" (the caller asks ValidateInput, with
// something the full validator reads in place of each Pending).
func (s *Schema) InputCertainlyValid(model map[string]any) bool {
	if s.compileInput() != nil {
		return false
	}
	if model == nil {
		model = map[string]any{}
	}
	return s.input.fast.valid(s.coerced(model))
}

// ValidateModel checks a handler's model against the schema as the contract
// tests do (no required, dependencies, propertyNames, conditional or boolean
// subschemas), after coercing stringified scalars as the plugins do.
func (s *Schema) ValidateModel(model map[string]any) error {
	s.compile()
	if s.valErr != nil {
		return s.valErr
	}
	return s.validate(s.contract, s.coerced(model), false)
}

// ModelCertainlyValid is the contract checker's quick path: true means
// that model holds no null value anywhere and that ValidateModel accepts
// it, found in one walk that neither copies nor allocates; false means "not
// certain" (the caller asks ValidateModel, and looks for nulls, itself).
func (s *Schema) ModelCertainlyValid(model map[string]any) bool {
	s.compile()
	if s.valErr != nil || model == nil {
		return false
	}
	return s.modelCheck.valid(model)
}

// validateInputCoerced is ValidateInput for a model Coerce made (coercing
// again would change nothing).
func (s *Schema) validateInputCoerced(model map[string]any) error {
	if err := s.compileInput(); err != nil {
		return err
	}
	return s.validate(s.input, model, true)
}

// CompileError reports whether the schema's validators compile (both, in
// full: a validation compiles them only when it needs them).
func (s *Schema) CompileError() error {
	s.compile()
	if s.valErr != nil {
		return s.valErr
	}
	if _, err := s.input.fullSchema(); err != nil {
		return err
	}
	_, err := s.contract.fullSchema()
	return err
}

var englishPrinter = message.NewPrinter(language.English)

// validate checks a model; aws words the problems as CloudFormation's
// validation does (problemTexts), else as the contract checker does (the
// values named, for the handler's author).
func (s *Schema) validate(v *validator, model map[string]any, aws bool) error {
	if model == nil {
		model = map[string]any{}
	}
	if v.fast.valid(model) {
		return nil
	}
	full, err := v.fullSchema()
	if err != nil {
		return err
	}
	var found []violation
	full.check(any(model), nil, &found)
	if len(found) == 0 {
		return nil
	}
	var problems []string
	for _, f := range found {
		loc := "#"
		if len(f.loc) > 0 {
			loc = "#/" + strings.Join(f.loc, "/")
		}
		if !aws {
			problems = append(problems, loc+": "+contractText(f))
			continue
		}
		for _, text := range problemTexts(f) {
			problems = append(problems, loc+": "+text)
		}
	}
	sort.Strings(problems)
	problems = dedupe(problems)
	return &ValidationError{TypeName: s.TypeName, Problems: problems}
}

// problemTexts words a violation as CloudFormation's validator does (the
// everit validator behind the registry's resource-schema library, whose
// ValidatorTest spells every message): one problem per missing or
// extraneous key ("#: required key [Name] not found"), JSON types by their
// Java names (JSONObject, JSONArray), counts and lengths as everit words
// them, and the keywords whose message would show the value scrubbed to
// "failed validation constraint for keyword [KEYWORD]" (every keyword but
// the resource-schema library's SAFE_KEYWORDS — required, minProperties,
// maxProperties, dependencies, additionalProperties, minLength,
// maxLength, minItems, maxItems, uniqueItems, contains, type, allOf,
// anyOf, oneOf — so pattern, enum, const, the bounds, multipleOf, not,
// then and else: recorded from AWS for pattern, "#/SourceArn: failed
// validation constraint for keyword [pattern]"); a missing dependency is
// everit's "property [KmsKeyId] is required", one per name.
func problemTexts(f violation) []string {
	switch f.kind {
	case vAdditionalProperties:
		var out []string
		for _, p := range sorted(f.keys) {
			out = append(out, fmt.Sprintf("extraneous key [%s] is not permitted", p))
		}
		return out
	case vRequired:
		var out []string
		for _, p := range sorted(f.keys) {
			out = append(out, fmt.Sprintf("required key [%s] not found", p))
		}
		return out
	case vPattern, vEnum, vConst, vMinimum, vMaximum, vExclusiveMinimum, vExclusiveMaximum, vMultipleOf, vNot, vThen, vElse:
		return []string{fmt.Sprintf("failed validation constraint for keyword [%s]", scrubbedKeyword[f.kind])}
	case vDependency:
		var out []string
		for _, p := range sorted(f.keys) {
			out = append(out, fmt.Sprintf("property [%s] is required", p))
		}
		return out
	case vMaxLength:
		// Recorded: "#/SamplingRule/RuleName: expected maxLength: 32,
		// actual: 33".
		return []string{fmt.Sprintf("expected maxLength: %d, actual: %d", f.want, f.got)}
	case vMinLength:
		return []string{fmt.Sprintf("expected minLength: %d, actual: %d", f.want, f.got)}
	case vMaxItems:
		return []string{fmt.Sprintf("expected maximum item count: %d, found: %d", f.want, f.got)}
	case vMinItems:
		return []string{fmt.Sprintf("expected minimum item count: %d, found: %d", f.want, f.got)}
	case vUniqueItems:
		return []string{"array items are not unique"}
	case vContains:
		return []string{"expected at least one array item to match 'contains' schema"}
	case vMaxProperties:
		return []string{fmt.Sprintf("maximum size: [%d], found: [%d]", f.want, f.got)}
	case vMinProperties:
		return []string{fmt.Sprintf("minimum size: [%d], found: [%d]", f.want, f.got)}
	case vType:
		want := make([]string, len(f.wantTypes))
		for i, w := range f.wantTypes {
			want[i] = everitType(w)
		}
		return []string{fmt.Sprintf("expected type: %s, found: %s", strings.Join(want, " or "), everitType(f.gotType))}
	case vAllOf, vAnyOf, vOneOf:
		return []string{combinedText(f)}
	}
	return []string{f.text()}
}

// combinedText words a failed combinator as everit does: the count of the
// alternatives that matched, not their problems. Below the root everit
// nests the subschema's own "#: " in the message, as recorded from its
// users ("#/predicate: #: 0 subschemas matched instead of one") and from
// AWS ("2 subschemas matched instead of one" for a Bedrock knowledge
// base's S3VectorsConfiguration given both of its alternatives' members).
func combinedText(f violation) string {
	var msg string
	switch f.kind {
	case vAllOf:
		msg = fmt.Sprintf("only %d subschema matches out of %d", f.got, f.want)
	case vAnyOf:
		msg = fmt.Sprintf("no subschema matched out of the total %d subschemas", f.want)
	case vOneOf:
		msg = fmt.Sprintf("%d subschemas matched instead of one", f.got)
	}
	if len(f.loc) > 0 {
		return "#: " + msg
	}
	return msg
}

// scrubbedKeyword names the keywords whose messages CloudFormation scrubs
// of the value.
var scrubbedKeyword = map[violationKind]string{
	vPattern: "pattern", vEnum: "enum", vConst: "const", vMinimum: "minimum", vMaximum: "maximum",
	vExclusiveMinimum: "exclusiveMinimum", vExclusiveMaximum: "exclusiveMaximum", vMultipleOf: "multipleOf",
	vNot: "not", vThen: "then", vElse: "else",
}

// contractText words a violation for the contract checker: the keys
// together, the values named.
func contractText(f violation) string {
	switch f.kind {
	case vAdditionalProperties:
		return fmt.Sprintf("extraneous key [%s] is not permitted", strings.Join(sorted(f.keys), ", "))
	case vRequired:
		return fmt.Sprintf("required key [%s] not found", strings.Join(sorted(f.keys), ", "))
	case vType:
		want := make([]string, len(f.wantTypes))
		for i, w := range f.wantTypes {
			want[i] = titleCase(w)
		}
		return fmt.Sprintf("expected type: %s, found: %s", strings.Join(want, " or "), titleCase(f.gotType))
	}
	return f.text()
}

// everitType names a JSON type as everit's messages do.
func everitType(t string) string {
	switch t {
	case "object":
		return "JSONObject"
	case "array":
		return "JSONArray"
	}
	return titleCase(t)
}

// sorted is a sorted copy of the keys the validator lists (it gathers
// extraneous keys from a map, in no fixed order).
func sorted(keys []string) []string {
	out := append([]string(nil), keys...)
	sort.Strings(out)
	return out
}

func titleCase(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func dedupe(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
