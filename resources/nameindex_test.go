package resources

import (
	"strconv"
	"testing"
)

func TestNameIndexAnswersAsAMap(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 40, 300} {
		m := map[string]int{}
		for i := 0; i < n; i++ {
			m["P"+strconv.Itoa(i*7)+"x"] = i
		}
		m[""] = -1 // the empty name too
		x := newNameIndex(m)
		for k, v := range m {
			if got, ok := x.get(k); !ok || got != v {
				t.Fatalf("n=%d: get(%q) = %d %v, want %d", n, k, got, ok, v)
			}
		}
		for _, k := range []string{"P", "Px", "P1", "p0x", "P0xx", "zzz"} {
			if _, inMap := m[k]; inMap {
				continue
			}
			if _, ok := x.get(k); ok {
				t.Fatalf("n=%d: get(%q) found a name that is not there", n, k)
			}
		}
	}
	var nilIndex *nameIndex[int]
	if _, ok := nilIndex.get("a"); ok {
		t.Fatal("a nil index found a name")
	}
}
