package schemapack

import (
	"bytes"
	"encoding/json"
	"sort"
)

// maxDict is DEFLATE's window: a longer dictionary is not used.
const maxDict = 32 << 10

// Dictionary is the preset dictionary of a pack: the subschemas that recur
// across documents, weighed by how many bytes they would save (count ×
// length), the heaviest nearest the end (DEFLATE codes near distances
// shorter). Deterministic: ties are broken by the fragment's text.
func Dictionary(entries []Entry) []byte {
	counts := map[string]int{}
	for _, e := range entries {
		d := json.NewDecoder(bytes.NewReader(e.Doc))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			continue
		}
		countFragments(v, counts)
	}
	type frag struct {
		text  string
		count int
	}
	frags := make([]frag, 0, len(counts))
	for t, c := range counts {
		if c >= 3 {
			frags = append(frags, frag{t, c})
		}
	}
	sort.Slice(frags, func(i, j int) bool {
		wi, wj := frags[i].count*len(frags[i].text), frags[j].count*len(frags[j].text)
		if wi != wj {
			return wi > wj
		}
		return frags[i].text < frags[j].text
	})
	var chosen []string
	size := 0
	for _, f := range frags {
		if size+len(f.text) > maxDict {
			continue
		}
		chosen = append(chosen, f.text)
		size += len(f.text)
	}
	var b []byte
	for i := len(chosen) - 1; i >= 0; i-- {
		b = append(b, chosen[i]...)
	}
	return b
}

// countFragments counts the canonical text of every object under v
// shorter than 400 bytes.
func countFragments(v any, counts map[string]int) {
	switch t := v.(type) {
	case map[string]any:
		if b, err := canonical(t); err == nil && len(b) < 400 {
			counts[string(b)]++
		}
		for _, x := range t {
			countFragments(x, counts)
		}
	case []any:
		for _, x := range t {
			countFragments(x, counts)
		}
	}
}
