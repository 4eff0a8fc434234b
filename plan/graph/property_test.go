package graph

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"testing/quick"
)

// randomDAG makes a DAG of n vertices: a random hidden order, and edges that
// follow it with probability p. Vertex numbers are not the hidden order, so
// that ties and edges disagree.
func randomDAG(r *rand.Rand, n int, p float64) *Graph {
	hidden := r.Perm(n)
	g := New(n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if r.Float64() < p {
				g.AddEdge(hidden[i], hidden[j])
			}
		}
	}
	return g
}

// reachable is the transitive closure by Floyd–Warshall, for small graphs.
func reachable(g *Graph) [][]bool {
	n := g.Len()
	r := make([][]bool, n)
	for u := range r {
		r[u] = make([]bool, n)
		for _, v := range g.Successors(u) {
			r[u][v] = true
		}
	}
	for k := 0; k < n; k++ {
		for i := 0; i < n; i++ {
			if !r[i][k] {
				continue
			}
			for j := 0; j < n; j++ {
				if r[k][j] {
					r[i][j] = true
				}
			}
		}
	}
	return r
}

const propertyIterations = 2000

func TestPropertyOrderRespectsEdgesAndIsSmallest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < propertyIterations; it++ {
		n := r.IntN(40)
		g := randomDAG(r, n, r.Float64()*0.3)
		order, err := g.Order()
		if err != nil {
			t.Fatalf("iteration %d: %v", it, err)
		}
		pos := make([]int, n)
		seen := make([]bool, n)
		for i, v := range order {
			if seen[v] {
				t.Fatalf("iteration %d: vertex %d twice", it, v)
			}
			seen[v], pos[v] = true, i
		}
		if len(order) != n {
			t.Fatalf("iteration %d: %d of %d vertices", it, len(order), n)
		}
		placed := make([]bool, n)
		for i, v := range order {
			for _, u := range g.Predecessors(v) {
				if pos[u] >= pos[v] {
					t.Fatalf("iteration %d: edge %d→%d against the order", it, u, v)
				}
			}
			// Smallest ready: no smaller unplaced vertex was ready here.
			for w := 0; w < v; w++ {
				if placed[w] {
					continue
				}
				ready := true
				for _, u := range g.Predecessors(w) {
					if !placed[u] {
						ready = false
						break
					}
				}
				if ready {
					t.Fatalf("iteration %d: at %d took %d while %d was ready", it, i, v, w)
				}
			}
			placed[v] = true
		}
	}
}

func TestPropertyLevelsAreTight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for it := 0; it < propertyIterations; it++ {
		n := r.IntN(60)
		g := randomDAG(r, n, r.Float64()*0.2)
		levels, err := g.Levels()
		if err != nil {
			t.Fatal(err)
		}
		level := make([]int, n)
		count := 0
		for l, vs := range levels {
			if len(vs) == 0 || !slices.IsSorted(vs) {
				t.Fatalf("iteration %d: level %d = %v", it, l, vs)
			}
			for _, v := range vs {
				level[v] = l
				count++
			}
		}
		if count != n {
			t.Fatalf("iteration %d: %d of %d vertices in levels", it, count, n)
		}
		for v := 0; v < n; v++ {
			tight := level[v] == 0
			for _, u := range g.Predecessors(v) {
				if level[u] >= level[v] {
					t.Fatalf("iteration %d: edge %d→%d not across levels", it, u, v)
				}
				if level[u] == level[v]-1 {
					tight = true
				}
			}
			if !tight {
				t.Fatalf("iteration %d: vertex %d could run earlier than level %d", it, v, level[v])
			}
		}
	}
}

func TestPropertyCyclesAreTheCyclicComponents(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < propertyIterations; it++ {
		n := 1 + r.IntN(25)
		g := New(n)
		for e := r.IntN(2 * n); e > 0; e-- {
			g.AddEdge(r.IntN(n), r.IntN(n))
		}
		reach := reachable(g)
		var want [][]int
		done := make([]bool, n)
		for u := 0; u < n; u++ {
			if done[u] {
				continue
			}
			comp := []int{u}
			for v := u + 1; v < n; v++ {
				if reach[u][v] && reach[v][u] {
					comp = append(comp, v)
					done[v] = true
				}
			}
			if len(comp) > 1 || reach[u][u] {
				want = append(want, comp)
			}
		}
		if got := g.Cycles(); !reflect.DeepEqual(got, want) {
			t.Fatalf("iteration %d: Cycles() = %v, want %v", it, got, want)
		}
		_, err := g.Order()
		if (err != nil) != (want != nil) {
			t.Fatalf("iteration %d: Order() error = %v with cycles %v", it, err, want)
		}
	}
}

func TestPropertyInduceKeepsOrderThroughDroppedVertices(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for it := 0; it < propertyIterations/4; it++ {
		n := r.IntN(30)
		g := randomDAG(r, n, r.Float64()*0.25)
		keep := make([]bool, n)
		for i := range keep {
			keep[i] = r.IntN(2) == 0
		}
		got, err := g.Induce(keep)
		if err != nil {
			t.Fatal(err)
		}
		// Brute force: a path from kept u to kept v through dropped vertices.
		for u := 0; u < n; u++ {
			if !keep[u] {
				continue
			}
			via := make([]bool, n)
			stack := []int{u}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, y := range g.Successors(x) {
					if via[y] {
						continue
					}
					via[y] = true
					if !keep[y] {
						stack = append(stack, y)
					}
				}
			}
			for v := 0; v < n; v++ {
				want := keep[v] && via[v]
				if got.HasEdge(u, v) != want {
					t.Fatalf("iteration %d: induced edge %d→%d = %v, want %v", it, u, v, !want, want)
				}
			}
		}
	}
}

func TestQuickOrderIsATopologicalOrder(t *testing.T) {
	f := func(n uint8, raw []uint16) bool {
		size := int(n%50) + 1
		g := New(size)
		for i := 0; i+1 < len(raw); i += 2 {
			u, v := int(raw[i])%size, int(raw[i+1])%size
			if u < v { // keep it acyclic: edges from smaller to larger
				g.AddEdge(v, u) // ...then turn them against vertex order
			}
		}
		order, err := g.Order()
		if err != nil || len(order) != size {
			return false
		}
		pos := make([]int, size)
		for i, v := range order {
			pos[v] = i
		}
		for u := 0; u < size; u++ {
			for _, v := range g.Successors(u) {
				if pos[u] >= pos[v] {
					return false
				}
			}
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 1000}); err != nil {
		t.Error(err)
	}
}
