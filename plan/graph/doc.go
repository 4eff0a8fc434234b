// Package graph is a small directed graph over vertices numbered 0..n-1.
//
// It owns the algorithms the planner needs and nothing else: topological
// order with ties broken by vertex number, levels of maximal parallelism,
// strongly connected components (Tarjan) to name cycles, reversal, and the
// subgraph induced on some vertices that keeps the order the others imposed.
//
// It knows no domain words: a vertex is a number, an edge u→v says that u
// comes before v. Callers number their vertices in the order they want ties
// broken (a template's order), and word errors themselves.
package graph
