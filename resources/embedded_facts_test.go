package resources

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources/internal/schemapack"
)

// checkedKeywords are the keywords the input validator applies: an
// embedded schema, written from the registry's facts, must say what the
// registry's says of each, wherever a model can reach.
var checkedKeywords = []string{
	"type", "const", "enum", "required", "additionalProperties",
	"pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
	"oneOf", "anyOf", "allOf", "not", "if", "then", "else", "dependencies",
}

// TestEmbeddedSchemasKeepRegistryRules walks each embedded type's registry
// schema (its fact document, as the pack keeps it) from the root through
// properties, items and $refs, and requires the embedded schema to hold the
// same value of every keyword the input validator applies, at the same
// place: an embedded schema wins over the registry's, so a rule it lacks
// (an IAM policy's anyOf of Users, Groups and Roles; a DynamoDB table's
// if/then for local secondary indexes) is one AWS applies and stacksim
// would not. A combinator whose alternatives all match every value (only
// relationship references or formats, which are not asserted) says
// nothing and may be left out.
func TestEmbeddedSchemasKeepRegistryRules(t *testing.T) {
	for _, typ := range EmbeddedTypes() {
		reg, ok, err := RegistrySchema(typ)
		if err != nil || !ok {
			continue // stacksim's own types (AWS::CDK::Metadata)
		}
		emb, _, err := EmbeddedSchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		embFacts, err := schemapack.Reduce(emb.Raw())
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		var r, e map[string]any
		if err := json.Unmarshal(reg.Raw(), &r); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(embFacts.Doc, &e); err != nil {
			t.Fatal(err)
		}
		w := &factsWalk{t: t, typ: typ, reg: r, emb: e, seen: map[string]bool{}}
		w.node(r, e, "#")
	}
}

type factsWalk struct {
	t        *testing.T
	typ      string
	reg, emb map[string]any
	seen     map[string]bool
}

func (w *factsWalk) node(rv, ev any, at string) {
	r, _ := rv.(map[string]any)
	e, _ := ev.(map[string]any)
	if r == nil {
		return
	}
	if ref, ok := r["$ref"].(string); ok {
		if w.seen[ref] {
			return
		}
		w.seen[ref] = true
		eref, _ := e["$ref"].(string)
		if eref != ref {
			w.t.Errorf("%s %s: $ref %q in the registry, %q embedded", w.typ, at, ref, eref)
			return
		}
		w.node(definition(w.reg, ref), definition(w.emb, ref), ref)
		return
	}
	if e == nil {
		w.t.Errorf("%s %s: the registry's schema has this node, the embedded one does not", w.typ, at)
		return
	}
	for _, k := range checkedKeywords {
		want, ok := r[k]
		if !ok || vacuous(k, want) {
			continue
		}
		got, has := e[k]
		if !has {
			w.t.Errorf("%s %s: %s %s is missing from the embedded schema", w.typ, at, k, show(want))
			continue
		}
		if show(got) != show(want) {
			w.t.Errorf("%s %s: %s is %s embedded, %s in the registry", w.typ, at, k, show(got), show(want))
		}
	}
	for _, k := range []string{"properties", "patternProperties"} {
		rm, _ := r[k].(map[string]any)
		em, _ := e[k].(map[string]any)
		for _, name := range sortedKeys(rm) {
			w.node(rm[name], em[name], at+"/"+k+"/"+name)
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not", "if", "then", "else"} {
		if sub, ok := r[k].(map[string]any); ok {
			w.node(sub, e[k], at+"/"+k)
		}
	}
	// the alternatives' $refs (their own keywords compared above, whole)
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		rl, _ := r[k].([]any)
		el, _ := e[k].([]any)
		for i := range rl {
			if i < len(el) {
				w.node(rl[i], el[i], fmt.Sprintf("%s/%s/%d", at, k, i))
			}
		}
	}
}

func definition(doc map[string]any, ref string) any {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		return nil
	}
	defs, _ := doc["definitions"].(map[string]any)
	return defs[name]
}

// vacuous tells whether a combinator's alternatives all match every value
// the validator sees: empty, or only a format (not asserted).
func vacuous(keyword string, v any) bool {
	if keyword != "anyOf" && keyword != "allOf" {
		return false
	}
	list, _ := v.([]any)
	for _, alt := range list {
		m, _ := alt.(map[string]any)
		for k := range m {
			if k != "format" {
				return false
			}
		}
	}
	return true
}
