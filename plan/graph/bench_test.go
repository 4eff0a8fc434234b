package graph

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// layered makes n vertices with e edges, each from a vertex to a later one
// within a window, as a large template's references tend to be.
func layered(n, e int) *Graph {
	r := rand.New(rand.NewPCG(42, 42))
	g := New(n)
	g.Grow(e)
	for i := 0; i < e; i++ {
		v := 1 + r.IntN(n-1)
		u := v - 1 - r.IntN(min(v, 50))
		g.AddEdge(u, v)
	}
	return g
}

func BenchmarkOrder(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g := layered(n, 2*n)
				if _, err := g.Levels(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
