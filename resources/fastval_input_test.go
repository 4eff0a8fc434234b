package resources

import (
	"encoding/json"
	"math/rand"
	"testing"
)

// holeMark stands, in the models of TestInputCertainlyValidFuncIsSound,
// for a value not known yet.
type holeMark struct{}

func markHoles(v any, rng *rand.Rand) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for _, k := range sortedKeys(t) { // in order: the same holes every run
			out[k] = markHoles(t[k], rng)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = markHoles(e, rng)
		}
		return out
	}
	if rng.Intn(9) == 0 {
		return holeMark{}
	}
	return v
}

func withPending(v any) any {
	switch t := v.(type) {
	case holeMark:
		return Pending{}
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = withPending(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withPending(e)
		}
		return out
	}
	return v
}

// The no-copy input check answers as InputCertainlyValid over the
// stringified model, holes as Pending: never "certainly valid" where that
// is not (sound), and the same answer for nearly every model.
func TestInputCertainlyValidFuncIsSound(t *testing.T) {
	types := RegistryTypes()
	every := 3
	if raceEnabled || testing.Short() {
		every = 20
	}
	rng := rand.New(rand.NewSource(3))
	pending := func(v any) bool { _, ok := v.(holeMark); return ok }
	models, certain, agree := 0, 0, 0
	for i, typ := range types {
		if i%every != 0 {
			continue
		}
		s, _, err := RegistrySchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		g := &modelGen{rng: rng, defs: s.Definitions()}
		for m := 0; m < 20; m++ {
			model, _ := g.object(map[string]any{"properties": s.Properties()}, 0, m%3 == 0).(map[string]any)
			if model == nil {
				continue
			}
			if m%4 == 0 {
				model["Count"] = json.Number("3")
				model["Flag"] = true
			}
			model = markHoles(model, rng).(map[string]any)
			models++
			quick := s.InputCertainlyValidFunc(model, pending)
			old := s.InputCertainlyValid(StringifyModel(withPending(model).(map[string]any)))
			if quick && !old {
				b, _ := json.Marshal(withPending(model))
				t.Fatalf("%s: certainly valid by the walk, not by InputCertainlyValid: %s", typ, b)
			}
			if quick == old {
				agree++
			}
			if quick {
				certain++
			}
		}
	}
	t.Logf("%d models: %d certainly valid, %d answered alike", models, certain, agree)
	if certain == 0 || certain == models || agree < models*9/10 {
		t.Fatalf("%d models, %d certainly valid, %d alike: the walk answers too differently", models, certain, agree)
	}
}
