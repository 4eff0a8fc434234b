package resources

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The full validator replaced github.com/santhosh-tekuri/jsonschema/v6,
// which stays as this test's oracle: for every registry schema, both
// variants (the input and the contract validator), random models — most
// of them near the schema, with wrong types, bad lengths and patterns,
// missing and extraneous keys — must get the same problems from both,
// worded as stacksim words them.

// v6Problems is what stacksim reported with v6: its validation of the
// stripped document, each leaf error worded as problemTexts or
// contractText did.
func v6Problems(t testing.TB, root map[string]any, model any, aws bool) []string {
	t.Helper()
	return v6Validate(t, v6Compile(t, root), model, aws)
}

func v6Compile(t testing.TB, root map[string]any) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := cachedRegexp(s)
		if err != nil {
			return anyMatch(s), nil
		}
		return re, nil
	})
	if err := c.AddResource("mem:///schema.json", root); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("mem:///schema.json")
	if err != nil {
		t.Fatalf("v6 does not compile it: %v", err)
	}
	return sch
}

func v6Validate(t testing.TB, sch *jsonschema.Schema, model any, aws bool) []string {
	t.Helper()
	err := sch.Validate(model)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatal(err)
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if underConditional(e.SchemaURL) {
			// then's or else's own problems: one violation at the
			// value (conditionalToken)
			out = append(out, conditionalToken)
			return
		}
		if token, ok := v6Combined(e.ErrorKind); ok {
			// one violation, not its alternatives' (combinedText)
			loc := "#"
			if len(e.InstanceLocation) > 0 {
				loc = "#/" + strings.Join(e.InstanceLocation, "/")
			}
			out = append(out, loc+": "+token)
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		loc := "#"
		if len(e.InstanceLocation) > 0 {
			loc = "#/" + strings.Join(e.InstanceLocation, "/")
		}
		for _, text := range v6Texts(e.ErrorKind, aws) {
			out = append(out, loc+": "+text)
		}
	}
	walk(ve)
	sort.Strings(out)
	return dedupe(out)
}

// v6Combined is the token a failed combinator compares as (v6 counts
// neither the alternatives nor, past two, the matches: combinedToken
// reduces stacksim's messages to the same).
func v6Combined(k jsonschema.ErrorKind) (string, bool) {
	switch t := k.(type) {
	case *kind.AllOf:
		return "allOf", true
	case *kind.AnyOf:
		return "anyOf", true
	case *kind.OneOf:
		if t.Subschemas == nil {
			return "oneOf 0", true
		}
		return "oneOf 2+", true
	case *kind.Not:
		return "not", true
	}
	return "", false
}

// conditionalToken is what a failed then or else compares as: v6 reports
// the problems the value has against then (or else), at their own
// locations, stacksim one violation at the value; the test compares that
// a conditional failed, not where.
const conditionalToken = "?: conditional"

// underConditional tells whether a v6 error comes of a then or else
// subschema (its schema's pointer passes through one).
func underConditional(schemaURL string) bool {
	_, frag, _ := strings.Cut(schemaURL, "#")
	segs := strings.Split(frag, "/")
	for i, s := range segs {
		if (s == "then" || s == "else") && (i == 0 || !memberKeyword[segs[i-1]]) {
			return true
		}
	}
	return false
}

// memberKeyword are the keywords whose keys are names, not keywords.
var memberKeyword = map[string]bool{"properties": true, "patternProperties": true, "definitions": true, "dependencies": true}

// combinedForms are stacksim's combinator messages, in AWS's words
// (combinedText) and the contract checker's (violation.text), with the
// token each compares as.
var combinedForms = []struct {
	re    *regexp.Regexp
	token string
}{
	{regexp.MustCompile(`^(#: )?only \d+ subschema matches out of \d+$`), "allOf"},
	{regexp.MustCompile(`^allOf failed: \d+ of \d+ subschemas matched$`), "allOf"},
	{regexp.MustCompile(`^(#: )?no subschema matched out of the total \d+ subschemas$`), "anyOf"},
	{regexp.MustCompile(`^anyOf failed: none of \d+ subschemas matched$`), "anyOf"},
	{regexp.MustCompile(`^(#: )?0 subschemas matched instead of one$`), "oneOf 0"},
	{regexp.MustCompile(`^oneOf failed: none of \d+ subschemas matched$`), "oneOf 0"},
	{regexp.MustCompile(`^(#: )?\d+ subschemas matched instead of one$`), "oneOf 2+"},
	{regexp.MustCompile(`^oneOf failed: \d+ subschemas matched$`), "oneOf 2+"},
	{regexp.MustCompile(`^failed validation constraint for keyword \[not\]$|^'not' failed$`), "not"},
	{regexp.MustCompile(`^failed validation constraint for keyword \[(then|else)\]$|^'(then|else)' failed$`), conditionalToken},
}

// combinedTokens rewrites stacksim's combinator messages as v6Combined's
// tokens.
func combinedTokens(problems []string) []string {
	if problems == nil {
		return nil
	}
	out := make([]string, len(problems))
	for i, p := range problems {
		out[i] = p
		loc, msg, _ := strings.Cut(p, ": ")
		for _, f := range combinedForms {
			if f.re.MatchString(msg) {
				out[i] = loc + ": " + f.token
				if f.token == conditionalToken {
					out[i] = f.token
				}
				break
			}
		}
	}
	sort.Strings(out)
	return dedupe(out)
}

type anyMatch string

func (r anyMatch) MatchString(string) bool { return true }
func (r anyMatch) String() string          { return string(r) }

// v6Texts is how stacksim worded v6's kinds (problemTexts and contractText
// before the change).
func v6Texts(k jsonschema.ErrorKind, aws bool) []string {
	switch t := k.(type) {
	case *kind.AdditionalProperties:
		if !aws {
			return []string{fmt.Sprintf("extraneous key [%s] is not permitted", strings.Join(sorted(t.Properties), ", "))}
		}
		var out []string
		for _, p := range sorted(t.Properties) {
			out = append(out, fmt.Sprintf("extraneous key [%s] is not permitted", p))
		}
		return out
	case *kind.Required:
		if !aws {
			return []string{fmt.Sprintf("required key [%s] not found", strings.Join(sorted(t.Missing), ", "))}
		}
		var out []string
		for _, p := range sorted(t.Missing) {
			out = append(out, fmt.Sprintf("required key [%s] not found", p))
		}
		return out
	case *kind.Dependency:
		if !aws {
			return []string{t.LocalizedString(englishPrinter)}
		}
		var out []string
		for _, p := range sorted(t.Missing) {
			out = append(out, fmt.Sprintf("property [%s] is required", p))
		}
		return out
	case *kind.Type:
		want := make([]string, len(t.Want))
		for i, w := range t.Want {
			if aws {
				want[i] = everitType(w)
			} else {
				want[i] = titleCase(w)
			}
		}
		got := titleCase(t.Got)
		if aws {
			got = everitType(t.Got)
		}
		return []string{fmt.Sprintf("expected type: %s, found: %s", strings.Join(want, " or "), got)}
	}
	if aws {
		switch t := k.(type) {
		case *kind.Pattern:
			return []string{"failed validation constraint for keyword [pattern]"}
		case *kind.Enum:
			return []string{"failed validation constraint for keyword [enum]"}
		case *kind.MaxLength:
			return []string{fmt.Sprintf("expected maxLength: %d, actual: %d", t.Want, t.Got)}
		case *kind.MinLength:
			return []string{fmt.Sprintf("expected minLength: %d, actual: %d", t.Want, t.Got)}
		case *kind.Const:
			return []string{"failed validation constraint for keyword [const]"}
		case *kind.Minimum:
			return []string{"failed validation constraint for keyword [minimum]"}
		case *kind.Maximum:
			return []string{"failed validation constraint for keyword [maximum]"}
		case *kind.ExclusiveMinimum:
			return []string{"failed validation constraint for keyword [exclusiveMinimum]"}
		case *kind.ExclusiveMaximum:
			return []string{"failed validation constraint for keyword [exclusiveMaximum]"}
		case *kind.MultipleOf:
			return []string{"failed validation constraint for keyword [multipleOf]"}
		case *kind.MaxItems:
			return []string{fmt.Sprintf("expected maximum item count: %d, found: %d", t.Want, t.Got)}
		case *kind.MinItems:
			return []string{fmt.Sprintf("expected minimum item count: %d, found: %d", t.Want, t.Got)}
		case *kind.UniqueItems:
			return []string{"array items are not unique"}
		case *kind.Contains:
			return []string{"expected at least one array item to match 'contains' schema"}
		case *kind.MaxProperties:
			return []string{fmt.Sprintf("maximum size: [%d], found: [%d]", t.Want, t.Got)}
		case *kind.MinProperties:
			return []string{fmt.Sprintf("minimum size: [%d], found: [%d]", t.Want, t.Got)}
		}
	}
	return []string{k.LocalizedString(englishPrinter)}
}

func newProblems(t testing.TB, s *Schema, v *validator, model map[string]any, aws bool) []string {
	t.Helper()
	err := s.validate(v, model, aws)
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: %v", s.TypeName, err)
	}
	return ve.Problems
}

func TestFullMatchesV6(t *testing.T) {
	types := RegistryTypes()
	every, models := 1, 24
	if raceEnabled || testing.Short() {
		every = 15
	}
	compared, invalid := 0, 0
	for i, typ := range types {
		if i%every != 0 {
			continue
		}
		s, _, err := RegistrySchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		for _, variant := range []struct {
			aws  bool
			drop []string
		}{{true, inputDrop}, {false, contractDrop}} {
			v, err := s.compileVariant(variant.drop)
			if err != nil {
				t.Fatal(err)
			}
			root, err := strippedDoc(v.raw, v.drop, v.src)
			if err != nil {
				t.Fatal(err)
			}
			defs, _ := root["definitions"].(map[string]any)
			g := &modelGen{rng: rand.New(rand.NewSource(int64(i))), defs: defs}
			oracle := v6Compile(t, deepCopy(root).(map[string]any))
			for m := 0; m < models; m++ {
				model, _ := g.object(root, 0, m%2 == 0).(map[string]any)
				if model == nil {
					model = map[string]any{}
				}
				// the oracle compiles a copy: v6 must not see the same maps
				want := v6Validate(t, oracle, deepCopy(model), variant.aws)
				got := combinedTokens(newProblems(t, s, v, model, variant.aws))
				compared++
				if len(want) > 0 {
					invalid++
				}
				if !reflect.DeepEqual(got, want) {
					js, _ := json.Marshal(model)
					t.Fatalf("%s (aws=%v): model %s\n got %q\nwant %q", typ, variant.aws, js, got, want)
				}
			}
		}
	}
	t.Logf("%d models compared (%d invalid), every %d-th type of %d", compared, invalid, every, len(types))
	if invalid < compared/4 || invalid == compared {
		t.Fatalf("%d of %d models are invalid: the generator must make both", invalid, compared)
	}
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// The wordings of the kinds the registry's schemas seldom produce, and
// the keywords they do not use, in a table: each against v6 too.
func TestFullKeywordsMatchV6(t *testing.T) {
	cases := []struct {
		name   string
		schema string
		model  string
	}{
		{"multipleOf", `{"properties":{"A":{"type":"number","multipleOf":0.5}}}`, `{"A":1.3}`},
		{"bounds", `{"properties":{"A":{"minimum":2,"maximum":5},"B":{"exclusiveMinimum":2},"C":{"exclusiveMaximum":5}}}`, `{"A":1234567,"B":2,"C":5}`},
		{"const", `{"properties":{"A":{"const":"x"},"B":{"const":[1]}}}`, `{"A":"y","B":[2]}`},
		{"enum", `{"properties":{"A":{"enum":["a","b"]},"B":{"enum":[1]},"C":{"enum":[{"a":1}]}}}`, `{"A":"c","B":2,"C":3}`},
		{"items counts", `{"properties":{"A":{"minItems":2,"maxItems":3,"uniqueItems":true}}}`, `{"A":[1,1.0]}`},
		{"too many items", `{"properties":{"A":{"maxItems":1}}}`, `{"A":[1,2,3]}`},
		{"tuple", `{"properties":{"A":{"items":[{"type":"string"},{"type":"integer"}],"additionalItems":false}}}`, `{"A":[1,"x",3,4]}`},
		{"tuple schema", `{"properties":{"A":{"items":[{"type":"string"}],"additionalItems":{"type":"boolean"}}}}`, `{"A":["x",1,true]}`},
		{"contains", `{"properties":{"A":{"contains":{"type":"string"}},"B":{"contains":{"type":"string"}}}}`, `{"A":[1,2],"B":[]}`},
		{"propertyNames", `{"propertyNames":{"maxLength":3}}`, `{"Long":1,"Ok":2}`},
		{"property counts", `{"properties":{"A":{"minProperties":2},"B":{"maxProperties":1}}}`, `{"A":{"x":1},"B":{"x":1,"y":2}}`},
		{"required", `{"required":["A","B","C"]}`, `{"B":1}`},
		{"false schema", `{"properties":{"A":false}}`, `{"A":1}`},
		{"ref to false", `{"additionalProperties":{"$ref":"#/definitions/No"},"definitions":{"No":false}}`, `{"A":1}`},
		{"ref to properties", `{"properties":{"A":{"type":"string","maxLength":2},"B":{"$ref":"#/properties/A"}}}`, `{"B":"long"}`},
		{"ref to root", `{"properties":{"A":{"$ref":"#"}},"required":["X"]}`, `{"X":1,"A":{"A":{}}}`},
		{"ref ignores siblings", `{"properties":{"A":{"$ref":"#/definitions/S","type":"integer"}},"definitions":{"S":{"type":"string"}}}`, `{"A":1}`},
		{"lookahead pattern", `{"properties":{"A":{"pattern":"^(?!x).*$"}},"patternProperties":{"^(?=y)":{"type":"integer"}}}`, `{"A":"x","B":"z"}`},
		{"pattern quoted", `{"properties":{"A":{"pattern":"^[a-z]+$"}}}`, `{"A":"it's \"Q\""}`},
		{"integer", `{"properties":{"A":{"type":"integer"},"B":{"type":["integer","null"]},"C":{"type":"integer"}}}`, `{"A":2.0,"B":2.5,"C":"3"}`},
		{"lengths", `{"properties":{"A":{"minLength":3},"B":{"maxLength":1}}}`, `{"A":"é","B":"ab"}`},
		{"additional schema", `{"properties":{"A":{}},"additionalProperties":{"type":"string"}}`, `{"A":1,"B":2}`},
		{"pattern properties", `{"patternProperties":{"^x":{"type":"string"},"^xy":{"maxLength":1}},"additionalProperties":false}`, `{"xyz":"ab","z":1}`},
		{"dependencies", `{"properties":{"A":{"dependencies":{"x":["y","z"],"w":["y"],"q":["r"]}}}}`, `{"A":{"x":1,"w":2}}`},
		{"dependent schema", `{"dependencies":{"x":{"required":["y"],"properties":{"x":{"type":"string"}}}}}`, `{"x":1}`},
		{"if then", `{"properties":{"A":{"if":{"required":["x"]},"then":{"required":["y"]}}}}`, `{"A":{"x":1}}`},
		{"if else", `{"if":{"required":["x"]},"then":{"required":["y"]},"else":{"properties":{"z":{"maxLength":1},"w":{"minLength":3}}}}`, `{"z":"ab","w":"a"}`},
	}
	for _, aws := range []bool{true, false} {
		for _, c := range cases {
			var root map[string]any
			if err := json.Unmarshal([]byte(c.schema), &root); err != nil {
				t.Fatal(err)
			}
			root = mustNumbers(t, c.schema).(map[string]any)
			model := mustNumbers(t, c.model).(map[string]any)
			want := v6Problems(t, deepCopy(root).(map[string]any), deepCopy(model), aws)
			s := &Schema{TypeName: "Test::" + c.name}
			v := testValidator(t, root, c.name)
			got := combinedTokens(newProblems(t, s, v, model, aws))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (aws=%v):\n got %q\nwant %q", c.name, aws, got, want)
			}
			if len(want) == 0 {
				t.Errorf("%s: the model is valid; the case checks nothing", c.name)
			}
		}
	}
}

func mustNumbers(t testing.TB, s string) any {
	t.Helper()
	v, err := decodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Schemas that do not compile are refused with where and why.
func TestFullCompileErrors(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"strnig"}`, `at /type: "strnig" is not a JSON type`},
		{`{"properties":{"A":{"minLength":-1}}}`, `at /properties/A/minLength: minLength is a non-negative integer`},
		{`{"properties":{"A":{"$ref":"#/definitions/Nope"}}}`, `at /properties/A/$ref: $ref "#/definitions/Nope" names nothing in the schema`},
		{`{"properties":{"A":{"$ref":"other.json#/x"}}}`, `names another document`},
		{`{"properties":{"A":{"$ref":"#/definitions/B"}},"definitions":{"B":{"$ref":"#/definitions/C"},"C":{"$ref":"#/definitions/B"}}}`, `a cycle of $refs`},
		{`{"required":"A"}`, `at /required: required is an array of names`},
		{`{"properties":{"A":5}}`, `at /properties/A: a schema is an object or a boolean, not number`},
		{`{"properties":{"A":{"multipleOf":0}}}`, `multipleOf is greater than 0`},
	} {
		root := mustNumbers(t, c.schema).(map[string]any)
		_, err := compileFull(root)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.schema, err, c.want)
		}
	}
}

// FuzzFullMatchesV6 checks models of any shape against a schema that uses
// every keyword the full validator has: both must find the same problems.
func FuzzFullMatchesV6(f *testing.F) {
	const schema = `{"type":"object","required":["A"],"maxProperties":6,
	"properties":{
		"A":{"type":["string","integer"],"minLength":2,"maxLength":5,"pattern":"^[a-z0-9]+$","minimum":-3,"maximum":900,"multipleOf":3},
		"B":{"type":"array","minItems":1,"maxItems":3,"uniqueItems":true,"items":{"$ref":"#/definitions/Item"}},
		"C":{"items":[{"type":"string"},{"enum":[1,"x",null]}],"additionalItems":false,"contains":{"type":"string"}},
		"D":{"$ref":"#"},
		"E":{"const":{"k":[1,2]}},
		"F":{"exclusiveMinimum":0,"exclusiveMaximum":1.5},
		"G":{"oneOf":[{"type":"string"},{"minLength":3},{"required":["k"]}]},
		"H":{"type":"integer","anyOf":[{"minimum":10},{"multipleOf":2}],"allOf":[{"maximum":100},{"not":{"const":42}}]},
		"I":{"type":"object","dependencies":{"p":["q"],"s":{"required":["t"]}},"if":{"required":["k"]},"then":{"maxProperties":2},"else":{"properties":{"m":{"type":"string"}}}}},
	"patternProperties":{"^x":{"type":"boolean"},"^(?=y)":{"type":"null"}},
	"additionalProperties":{"type":"number"},
	"propertyNames":{"maxLength":4},
	"definitions":{"Item":{"type":"object","properties":{"N":{"type":"string"}},"additionalProperties":false,"minProperties":1}}}`
	for _, seed := range []string{`{"A":"ab"}`, `{"A":9,"B":[{"N":"x"},{"N":"x"}]}`, `{"C":["s",1,2],"D":{"A":"zz"},"E":{"k":[1,2.0]}}`, `{"xa":true,"y":null,"zzzzz":1,"F":1.5}`, `[]`, `{"A":1e400}`, `{"A":"ab","G":"abcd","H":42}`, `{"A":"ab","G":{"k":1},"H":7}`, `{"A":"ab","I":{"p":1,"s":2,"k":3}}`, `{"A":"ab","I":{"m":1}}`} {
		f.Add(seed)
	}
	root := mustNumbers(f, schema).(map[string]any)
	s := &Schema{TypeName: "Fuzz::Full::Schema"}
	v := testValidator(f, root, "fuzz")
	oracle := v6Compile(f, deepCopy(root).(map[string]any))
	f.Fuzz(func(t *testing.T, doc string) {
		val, err := decodeJSON([]byte(doc))
		if err != nil {
			return
		}
		model, ok := val.(map[string]any)
		if !ok {
			return
		}
		for _, aws := range []bool{true, false} {
			want := v6Validate(t, oracle, deepCopy(model), aws)
			got := combinedTokens(newProblems(t, s, v, model, aws))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("aws=%v %s:\n got %q\nwant %q", aws, doc, got, want)
			}
		}
	})
}

// testValidator is the validator of a schema document given as decoded
// JSON (numbers as json.Number): its bytes are what the full validator
// decodes again.
func testValidator(tb testing.TB, root map[string]any, src string) *validator {
	tb.Helper()
	raw, err := json.Marshal(root)
	if err != nil {
		tb.Fatal(err)
	}
	return &validator{fast: buildFast(root), raw: raw, src: src}
}
