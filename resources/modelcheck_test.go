package resources

import (
	"encoding/json"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestModelCertainlyValidIsSound checks the contract checker's quick path
// against the exact checks on models made from the schemas themselves,
// right and wrong (stringified scalars, nulls, wrong types, extra keys,
// values out of bounds): whenever it says "certainly valid", the model has
// no null and ValidateModel accepts it; and the compiled check answers as
// the walk it compiles.
func TestModelCertainlyValidIsSound(t *testing.T) {
	schemas := map[string]*Schema{}
	for _, typ := range EmbeddedTypes() {
		s, _, err := EmbeddedSchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		schemas[typ] = s
	}
	if !testing.Short() {
		if dir := sharedDirOrEmpty(t, "schemas/us-east-1"); dir != "" {
			all, err := LoadSchemaDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i, name := range sortedTypes(all) {
				if i%7 == 0 { // a spread of the registry, to keep the test quick
					schemas[name] = all[name]
				}
			}
		}
	}
	rng := rand.New(rand.NewSource(1))
	certain, models := 0, 0
	for _, name := range sortedTypes(schemas) {
		s := schemas[name]
		if s.CompileError() != nil {
			continue
		}
		g := &modelGen{rng: rng, defs: s.Definitions()}
		for i := 0; i < 40; i++ {
			m, _ := g.object(map[string]any{"properties": s.Properties()}, 0, i%4 == 0).(map[string]any)
			if m == nil {
				continue
			}
			models++
			quick := s.ModelCertainlyValid(m)
			if walk := s.contract.fast.validShaped(s.shapeTree(), m); walk != quick {
				t.Fatalf("%s: compiled check %v, walk %v, for %s", name, quick, walk, show(m))
			}
			if !quick {
				continue
			}
			certain++
			if !noNull(m) {
				t.Fatalf("%s: certainly valid, but holds a null: %s", name, show(m))
			}
			if err := s.ValidateModel(m); err != nil {
				t.Fatalf("%s: certainly valid, but ValidateModel says %v: %s", name, err, show(m))
			}
		}
	}
	t.Logf("%d schemas, %d models, %d certainly valid", len(schemas), models, certain)
	if certain == 0 || certain == models {
		t.Fatalf("the generator makes no variety: %d of %d certainly valid", certain, models)
	}
}

func sharedDirOrEmpty(t *testing.T, sub string) (dir string) {
	t.Helper()
	ok := t.Run("shared", func(t *testing.T) { dir = sharedDir(t, sub) })
	if !ok {
		return ""
	}
	return dir
}

// show is v as compact JSON, map keys sorted.
func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// modelGen makes a value for a property schema, mostly right, sometimes
// wrong in one of the ways handlers get models wrong.
type modelGen struct {
	rng  *rand.Rand
	defs map[string]any
}

func (g *modelGen) chance(n int) bool { return g.rng.Intn(n) == 0 }

func (g *modelGen) value(ps any, depth int, wrong bool) any {
	m, ok := ps.(map[string]any)
	if !ok || depth > 6 {
		return "x"
	}
	if ref, ok := m["$ref"].(string); ok {
		return g.value(g.defs[strings.TrimPrefix(ref, "#/definitions/")], depth+1, wrong)
	}
	if wrong && g.chance(8) {
		switch g.rng.Intn(5) {
		case 0:
			return nil
		case 1:
			return json.Number("-1")
		case 2:
			return "not-a-number"
		case 3:
			return []any{"x"}
		default:
			return map[string]any{"Extra": "e"}
		}
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[g.rng.Intn(len(e))]
	}
	if alts, ok := m["oneOf"].([]any); ok && len(alts) > 0 {
		return g.value(alts[g.rng.Intn(len(alts))], depth+1, wrong)
	}
	var typ string
	switch t := m["type"].(type) {
	case string:
		typ = t
	case []any:
		if len(t) > 0 {
			typ, _ = t[g.rng.Intn(len(t))].(string)
		}
	}
	if typ == "" {
		if _, ok := m["properties"]; ok {
			typ = "object"
		} else {
			typ = "string"
		}
	}
	switch typ {
	case "object":
		return g.object(m, depth, wrong)
	case "array":
		n := g.rng.Intn(3)
		out := make([]any, n)
		for i := range out {
			out[i] = g.value(m["items"], depth+1, wrong)
		}
		return out
	case "integer", "number":
		n := g.rng.Intn(100)
		if lo, ok := m["minimum"].(json.Number); ok {
			if v, err := lo.Int64(); err == nil {
				n += int(v)
			}
		}
		if typ == "number" && g.chance(3) {
			return json.Number(strconv.Itoa(n) + ".5")
		}
		if g.chance(2) {
			return strconv.Itoa(n) // stringified, as CloudFormation sends it
		}
		return json.Number(strconv.Itoa(n))
	case "boolean":
		if g.chance(2) {
			return "true"
		}
		return g.chance(2)
	default:
		if p, ok := m["pattern"].(string); ok && g.chance(2) {
			return p // rarely matches itself: a pattern problem
		}
		n := 1 + g.rng.Intn(12)
		return strings.Repeat("a", n)
	}
}

func (g *modelGen) object(m map[string]any, depth int, wrong bool) any {
	props, _ := m["properties"].(map[string]any)
	out := map[string]any{}
	for _, k := range sortedKeys(props) {
		if g.chance(2) {
			out[k] = g.value(props[k], depth+1, wrong)
		}
	}
	if wrong && g.chance(10) {
		out["NoSuchProperty"] = "x"
	}
	return out
}

// TestInputViewMatchesTheWholePath checks InputView, which works a
// property at a time, against its definition: Coerce, every readOnly
// pointer deleted, stripWriteOnly.
func TestInputViewMatchesTheWholePath(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, typ := range EmbeddedTypes() {
		s, _, err := EmbeddedSchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		g := &modelGen{rng: rng, defs: s.Definitions()}
		props := s.Properties()
		for i := 0; i < 40; i++ {
			m := g.object(map[string]any{"properties": props}, 0, i%3 == 0).(map[string]any)
			for _, p := range append(append([]string{}, s.ReadOnlyProperties...), s.WriteOnlyProperties...) {
				if g.chance(2) {
					_ = Set(m, p, "set") // a readOnly or writeOnly value the view drops
				}
			}
			quick := s.InputView(m)
			whole := s.Coerce(m)
			for _, p := range s.ReadOnlyProperties {
				Delete(whole, p)
			}
			stripWriteOnly(s, whole)
			if !Equal(quick, whole) || len(quick) != len(whole) {
				t.Fatalf("%s: InputView %s, whole path %s, of %s", typ, show(quick), show(whole), show(m))
			}
		}
	}
	if v := (&Schema{}).InputView(nil); v != nil {
		t.Fatalf("InputView(nil) = %v", v)
	}
}
