package graph

import (
	"errors"
	"reflect"
	"testing"
)

func build(n int, edges ...[2]int) *Graph {
	g := New(n)
	for _, e := range edges {
		g.AddEdge(e[0], e[1])
	}
	return g
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges [][2]int
		want  []int
	}{
		{"empty", 0, nil, []int{}},
		{"no edges keeps vertex order", 3, nil, []int{0, 1, 2}},
		{"chain against vertex order", 3, [][2]int{{2, 1}, {1, 0}}, []int{2, 1, 0}},
		{"smallest ready first", 4, [][2]int{{3, 0}, {2, 1}}, []int{2, 1, 3, 0}},
		{"diamond", 4, [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 3}}, []int{0, 1, 2, 3}},
		{"duplicate edges", 2, [][2]int{{1, 0}, {1, 0}}, []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := build(tt.n, tt.edges...).Order()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Order() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestLevels(t *testing.T) {
	g := build(6, [2]int{0, 2}, [2]int{1, 2}, [2]int{2, 3}, [2]int{0, 3}, [2]int{5, 4})
	got, err := g.Levels()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{0, 1, 5}, {2, 4}, {3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Levels() = %v, want %v", got, want)
	}
}

func TestCycles(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges [][2]int
		want  [][]int
	}{
		{"acyclic", 3, [][2]int{{0, 1}, {1, 2}}, nil},
		{"two-cycle", 3, [][2]int{{2, 1}, {1, 2}, {0, 1}}, [][]int{{1, 2}}},
		{"self loop", 2, [][2]int{{1, 1}}, [][]int{{1}}},
		{"two components", 6, [][2]int{{5, 4}, {4, 5}, {0, 3}, {3, 2}, {2, 0}, {1, 0}}, [][]int{{0, 2, 3}, {4, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(tt.n, tt.edges...)
			if got := g.Cycles(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Cycles() = %v, want %v", got, tt.want)
			}
			_, err := g.Order()
			var ce *CycleError
			if (tt.want != nil) != errors.As(err, &ce) {
				t.Fatalf("Order() error = %v", err)
			}
			if ce != nil && !reflect.DeepEqual(ce.Cycles, tt.want) {
				t.Errorf("CycleError.Cycles = %v, want %v", ce.Cycles, tt.want)
			}
			if _, err := g.Levels(); (err != nil) != (tt.want != nil) {
				t.Errorf("Levels() error = %v", err)
			}
		})
	}
	if got := (&CycleError{Cycles: [][]int{{1, 2}, {4}}}).Error(); got != "graph: cycle between vertices [1 2], [4]" {
		t.Errorf("Error() = %q", got)
	}
}

func TestSuccessorsPredecessors(t *testing.T) {
	g := build(4, [2]int{0, 3}, [2]int{0, 1}, [2]int{2, 1}, [2]int{0, 1})
	if got := g.Successors(0); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Errorf("Successors(0) = %v", got)
	}
	if got := g.Predecessors(1); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("Predecessors(1) = %v", got)
	}
	if g.EdgeCount() != 3 || !g.HasEdge(2, 1) || g.HasEdge(1, 2) {
		t.Errorf("EdgeCount() = %d, HasEdge wrong", g.EdgeCount())
	}
	g.AddEdge(3, 2) // adding after a query indexes again
	if got := g.Predecessors(2); !reflect.DeepEqual(got, []int{3}) {
		t.Errorf("Predecessors(2) after AddEdge = %v", got)
	}
	r := g.Reverse()
	if !r.HasEdge(3, 0) || r.HasEdge(0, 3) || r.EdgeCount() != g.EdgeCount() {
		t.Errorf("Reverse() wrong")
	}
}

func TestInduce(t *testing.T) {
	// 0 → 1 → 2 → 3, 0 → 4, 4 kept; 1 and 2 dropped.
	g := build(5, [2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{0, 4}, [2]int{2, 4})
	got, err := g.Induce([]bool{true, false, false, true, true})
	if err != nil {
		t.Fatal(err)
	}
	if got.EdgeCount() != 2 || !got.HasEdge(0, 3) || !got.HasEdge(0, 4) {
		t.Errorf("Induce: %d edges, want 0→3 and 0→4", got.EdgeCount())
	}
	if _, err := build(2, [2]int{0, 1}, [2]int{1, 0}).Induce([]bool{true, true}); err == nil {
		t.Error("Induce of a cyclic graph: no error")
	}
}

func TestAddEdgeOutOfRange(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("AddEdge out of range did not panic")
		}
	}()
	New(2).AddEdge(0, 2)
}

func TestRestrict(t *testing.T) {
	g := build(4, [2]int{0, 1}, [2]int{1, 2}, [2]int{0, 2}, [2]int{2, 3})
	r := g.Restrict([]bool{true, false, true, true})
	if r.EdgeCount() != 2 || !r.HasEdge(0, 2) || !r.HasEdge(2, 3) {
		t.Errorf("Restrict: %d edges", r.EdgeCount())
	}
}
