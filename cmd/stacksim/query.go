package main

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	jmespath "github.com/jmespath-community/go-jmespath"
	"github.com/jmespath-community/go-jmespath/pkg/parsing"
)

// --query, as the AWS CLI applies it: a JMESPath expression over the
// response, before --output renders what it selects (the AWS CLI uses the
// reference implementation; this is the JMESPath Community's, which follows
// the same specification and adds to it).
//
// JMESPath works on JSON values without an order of keys; the AWS CLI's
// objects keep theirs (Python's dicts are ordered). So the objects of the
// result get their keys back in the order the response had them, and the
// keys a multiselect hash ({Name: StackName}) makes in the order the
// expression writes them.

// query is a compiled --query.
type query struct {
	expr jmespath.JMESPath
	// order ranks the keys the expression writes (multiselect hashes).
	order map[string]int
}

// compileQuery compiles --query; an error is worded as the AWS CLI's.
func compileQuery(expr string) (*query, error) {
	src := legacyLiterals(expr)
	jp, err := jmespath.Compile(src)
	if err != nil {
		return nil, badInput(fmt.Errorf("Bad value for --query %s: %v", expr, err))
	}
	q := &query{expr: jp, order: map[string]int{}}
	if ast, err := parsing.NewParser().Parse(src); err == nil {
		q.hashKeys(ast)
	}
	return q, nil
}

func (q *query) hashKeys(n parsing.ASTNode) {
	if n.NodeType == parsing.ASTKeyValPair {
		if k, ok := n.Value.(string); ok {
			if _, seen := q.order[k]; !seen {
				q.order[k] = len(q.order)
			}
		}
	}
	for _, c := range n.Children {
		q.hashKeys(c)
	}
}

// apply searches a response and returns what it selects, in the
// renderers' values (object, []any, string, json.Number, bool, nil).
func (q *query) apply(resp object) (any, error) {
	ranks := map[string]int{}
	rankKeys(resp, ranks)
	base := len(ranks)
	for k, i := range q.order {
		if _, ok := ranks[k]; !ok {
			ranks[k] = base + i
		}
	}
	out, err := q.expr.Search(toPlain(resp))
	if err != nil {
		return nil, badInput(fmt.Errorf("--query: %v", err))
	}
	return fromPlain(out, ranks), nil
}

// rankKeys numbers the keys of a response in the order they first appear.
func rankKeys(v any, ranks map[string]int) {
	switch t := v.(type) {
	case object:
		for _, m := range t {
			if _, ok := ranks[m.key]; !ok {
				ranks[m.key] = len(ranks)
			}
			rankKeys(m.value, ranks)
		}
	case []any:
		for _, x := range t {
			rankKeys(x, ranks)
		}
	}
}

// toPlain makes the JSON values JMESPath searches: maps, slices, float64.
func toPlain(v any) any {
	switch t := v.(type) {
	case object:
		m := make(map[string]any, len(t))
		for _, x := range t {
			if x.value != nil {
				m[x.key] = toPlain(x.value)
			}
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = toPlain(x)
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = x
		}
		return out
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return string(t)
		}
		return f
	case int:
		return float64(t)
	}
	return v
}

// fromPlain makes a search's result the renderers' values again.
func fromPlain(v any, ranks map[string]int) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			ri, iok := ranks[keys[i]]
			rj, jok := ranks[keys[j]]
			switch {
			case iok && jok:
				return ri < rj
			case iok != jok:
				return iok
			}
			return keys[i] < keys[j]
		})
		o := make(object, 0, len(keys))
		for _, k := range keys {
			o = append(o, member{k, fromPlainValue(t[k], ranks)})
		}
		return o
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = fromPlainValue(x, ranks)
		}
		return out
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(t), 10))
		}
		return json.Number(strconv.FormatFloat(t, 'g', -1, 64))
	}
	return v
}

// fromPlainValue is fromPlain for a member or an item: a JSON null there
// is kept as a value (the renderers leave out members whose value is nil,
// so null becomes jsonNull).
func fromPlainValue(v any, ranks map[string]int) any {
	if v == nil {
		return jsonNull{}
	}
	return fromPlain(v, ranks)
}

// jsonNull is a null the response holds (a --query result), printed as
// the AWS CLI prints None: null in JSON, "None" in text and tables.
type jsonNull struct{}
