package plan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// benchTemplate makes a stack of n resources with 2n dependency edges: each
// resource refers to two earlier ones (a Ref in a plain property and a
// Fn::GetAtt), within a window, as large templates do. Resources whose index
// is in replaced get a new createOnly Name.
func benchTemplate(n int, replaced map[int]bool) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	res := make(map[string]any, n)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("r%05d", i)
		if replaced[i] {
			name += "-v2"
		}
		props := map[string]any{"Name": name, "Size": "10"}
		if i > 0 {
			a := i - 1 - r.IntN(min(i, 40))
			b := i - 1 - r.IntN(min(i, 40))
			props["Peer"] = map[string]any{"Ref": fmt.Sprintf("R%05d", a)}
			props["PeerArn"] = map[string]any{"Fn::GetAtt": []any{fmt.Sprintf("R%05d", b), "Arn"}}
		}
		res[fmt.Sprintf("R%05d", i)] = map[string]any{"Type": "Test::Bench::Thing", "Properties": props}
	}
	body, _ := json.Marshal(map[string]any{"Resources": res})
	return body
}

var benchSchemas = Schemas(func(string) Schema { return benchSchema })

var benchSchema = &resources.Schema{TypeName: "Test::Bench::Thing", CreateOnlyProperties: []string{"/properties/Name"}}

// fakeBound is a bound template built in Go, for stacks larger than the
// template quotas allow (500 resources, 1 MB): property values are literals
// or benchRefs, resolved by Properties against the resolver.
type fakeBound struct {
	resources []*template.Resource
	enabled   map[string]bool
	deps      map[string][]string
	props     map[string]map[string]any
}

type benchRef struct{ id, attr string }

// benchStack is benchTemplate as a fakeBound: n resources, 2n edges.
func benchStack(n int, replaced map[int]bool) *fakeBound {
	var doc struct {
		Resources map[string]struct {
			Type       string
			Properties map[string]any
		}
	}
	if err := json.Unmarshal(benchTemplate(n, replaced), &doc); err != nil {
		panic(err)
	}
	f := &fakeBound{enabled: map[string]bool{}, deps: map[string][]string{}, props: map[string]map[string]any{}}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("R%05d", i)
		r := doc.Resources[id]
		f.resources = append(f.resources, &template.Resource{LogicalID: id, Type: r.Type})
		f.enabled[id] = true
		props := map[string]any{}
		for k, v := range r.Properties {
			switch t := v.(type) {
			case map[string]any:
				if ref, ok := t["Ref"].(string); ok {
					v = benchRef{id: ref}
				} else {
					ga := t["Fn::GetAtt"].([]any)
					v = benchRef{id: ga[0].(string), attr: ga[1].(string)}
				}
				target := v.(benchRef).id
				if !slices.Contains(f.deps[id], target) {
					f.deps[id] = append(f.deps[id], target)
				}
			}
			props[k] = v
		}
		f.props[id] = props
	}
	return f
}

func (f *fakeBound) Resources() []*template.Resource       { return f.resources }
func (f *fakeBound) Enabled(id string) bool                { return f.enabled[id] }
func (f *fakeBound) DependsOn(id string) []string          { return f.deps[id] }
func (f *fakeBound) DeletionPolicy(string) string          { return "Delete" }
func (f *fakeBound) UpdateReplacePolicy(string) string     { return "Delete" }
func (f *fakeBound) Parameters() []template.BoundParameter { return nil }
func (f *fakeBound) Template() *template.Template          { return nil }
func (f *fakeBound) ResourceAttribute(string, string, template.Resolver) (any, error) {
	return nil, nil
}

func (f *fakeBound) Properties(id string, r template.Resolver) (map[string]any, error) {
	src := f.props[id]
	out := make(map[string]any, len(src))
	for k, v := range src {
		if ref, ok := v.(benchRef); ok {
			var err error
			if ref.attr == "" {
				v, err = r.Ref(ref.id)
			} else {
				v, err = r.GetAtt(ref.id, ref.attr)
			}
			if err != nil {
				return nil, err
			}
		}
		out[k] = v
	}
	return out, nil
}

var benchSizes = []int{500, 1000, 10000}

// replacedTenth picks a tenth of n resources to replace.
func replacedTenth(n int) map[int]bool {
	replaced := map[int]bool{}
	r := rand.New(rand.NewPCG(7, 7))
	for len(replaced) < n/10 {
		replaced[r.IntN(n)] = true
	}
	return replaced
}

// perResource reports the wall time per resource, and the CPU time per
// operation measured since start (cpu-ms/op: steadier than the wall time on
// a busy machine).
func perResource(b *testing.B, n int, start time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/resource")
	if start > 0 {
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkPlanCreate plans the creation of n resources with 2n edges.
func BenchmarkPlanCreate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			bound := benchStack(n, nil)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := ForCreate(bound); err != nil {
					b.Fatal(err)
				}
			}
			perResource(b, n, start)
		})
	}
}

// BenchmarkPlanUpdate plans an update of n resources with 2n edges in which
// a tenth of the resources are replaced; the properties of the others refer
// to them, so most of the stack changes (Dynamic).
func BenchmarkPlanUpdate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			before, after := benchStack(n, nil), benchStack(n, replacedTenth(n))
			w := newWorld(benchSchemas)
			in := UpdateInput{Deployed: w.deploy(b, before, nil), Desired: after, Live: w, Schemas: benchSchemas}
			b.ReportAllocs()
			start := cpuTime()
			var p *Plan
			for b.Loop() {
				var err error
				if p, err = ForUpdate(in); err != nil {
					b.Fatal(err)
				}
			}
			perResource(b, n, start)
			logCounts(b, n, p)
		})
	}
}

// BenchmarkPlanUpdateTemplate is BenchmarkPlanUpdate on a real bound
// template, within the template quotas: the cost with the template
// package's property resolution and references.
func BenchmarkPlanUpdateTemplate(b *testing.B) {
	n := 500
	b.Run(fmt.Sprint(n), func(b *testing.B) {
		before := bindTemplate(b, "before.json", benchTemplate(n, nil), nil)
		after := bindTemplate(b, "after.json", benchTemplate(n, replacedTenth(n)), nil)
		w := newWorld(benchSchemas)
		in := UpdateInput{Deployed: w.deploy(b, before, nil), Desired: after, Live: w, Schemas: benchSchemas}
		b.ReportAllocs()
		start := cpuTime()
		var p *Plan
		for b.Loop() {
			var err error
			if p, err = ForUpdate(in); err != nil {
				b.Fatal(err)
			}
		}
		perResource(b, n, start)
		logCounts(b, n, p)
	})
}

func logCounts(b *testing.B, n int, p *Plan) {
	counts := map[Action]int{}
	for _, s := range p.Steps {
		counts[s.Action]++
	}
	b.Logf("%d resources: %d replaced, %d updated, %d unchanged, %d cleanup steps", n,
		counts[CreateThenDelete], counts[Update], counts[NoOp], counts[Delete])
}

// BenchmarkPropertiesOnly measures what the update planner spends in the
// template package: resolving every resource's properties once.
func BenchmarkPropertiesOnly(b *testing.B) {
	for _, n := range []int{500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			bound := bindTemplate(b, "bench.json", benchTemplate(n, nil), nil)
			w := newWorld(benchSchemas)
			w.deploy(b, bound, nil)
			resources := bound.Resources()
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				for _, r := range resources {
					if _, err := bound.Properties(r.LogicalID, w); err != nil {
						b.Fatal(err)
					}
				}
			}
			perResource(b, n, start)
		})
	}
}

func BenchmarkRollback(b *testing.B) {
	for _, n := range []int{500, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			before, after := benchStack(n, nil), benchStack(n, replacedTenth(n))
			w := newWorld(benchSchemas)
			p, err := ForUpdate(UpdateInput{Deployed: w.deploy(b, before, nil), Desired: after, Live: w, Schemas: benchSchemas})
			if err != nil {
				b.Fatal(err)
			}
			// Everything done but the last step, which failed.
			var j Journal
			fwd := p.In(PhaseUpdate)
			for k, s := range fwd {
				e := Entry{Step: s.ID, LogicalID: s.LogicalID, Outcome: Done, OldPhysicalID: s.PhysicalID}
				if s.Action == CreateThenDelete {
					e.NewPhysicalID = s.LogicalID + "-2"
				}
				if k == len(fwd)-1 {
					e.Outcome = Failed
				}
				j = append(j, e)
			}
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				if _, err := Rollback(p, j, RollbackOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			perResource(b, n, start)
		})
	}
}

// BenchmarkPlanDelete plans the deletion of n resources with 2n edges.
func BenchmarkPlanDelete(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			w := newWorld(benchSchemas)
			d := w.deploy(b, benchStack(n, nil), nil)
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				ForDelete(d, nil)
			}
			perResource(b, n, start)
		})
	}
}
