package resources

// nameIndex is a read-only map from names to values, built once, for the
// lookups of a hot loop: property names of a schema looked up for every
// member of every model checked. Open addressing on a cheap hash (length
// and three bytes), a table at most a quarter full, equality decides; it
// answers as a map would, several times faster for a few dozen short names.
type nameIndex[V any] struct {
	names []string
	vals  []V
	slots []int32 // 1 + an index into names; 0 is empty
	mask  uint32
}

func newNameIndex[V any](m map[string]V) *nameIndex[V] {
	size := 4
	for size < 4*len(m) {
		size <<= 1
	}
	x := &nameIndex[V]{slots: make([]int32, size), mask: uint32(size - 1)}
	for _, name := range sortedNames(m) {
		x.names = append(x.names, name)
		x.vals = append(x.vals, m[name])
		j := nameHash(name) & x.mask
		for x.slots[j] != 0 {
			j = (j + 1) & x.mask
		}
		x.slots[j] = int32(len(x.names))
	}
	return x
}

func nameHash(s string) uint32 {
	n := len(s)
	if n == 0 {
		return 0
	}
	h := uint32(n)*0x9E3779B1 ^ uint32(s[0])<<8 ^ uint32(s[n-1])<<16 ^ uint32(s[n/2])
	return h * 0x85EBCA6B >> 7
}

func (x *nameIndex[V]) get(name string) (v V, ok bool) {
	if x == nil {
		return v, false
	}
	j := nameHash(name) & x.mask
	for {
		s := x.slots[j]
		if s == 0 {
			return v, false
		}
		if x.names[s-1] == name {
			return x.vals[s-1], true
		}
		j = (j + 1) & x.mask
	}
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
