package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// Benchmarks of whole operations, in process, with a simulated handler
// (the schema-driven generic provider, which stabilises in IN_PROGRESS
// callbacks) behind the contract checker: create, update (10% of the
// resources replaced) and delete of stacks of 500 to 10,000 resources.
//
// Templates cannot hold more than 500 resources (template.MaxResources),
// so the stacks are described by bigStack, a bound template built in Go
// that the engine binds through its bindHook (the template body is only a
// name: "bench N vK").
//
//	go test ./engine -run '^$' -bench 'Create|Update|Delete|Lifecycle' -benchmem

const benchType = "Bench::Sim::Thing"

var benchSchemaDoc = `{"typeName": "Bench::Sim::Thing", "description": "a simulated thing for benchmarks",
 "properties": {"Name": {"type": "string"}, "Size": {"type": "string"}, "Peer": {"type": "string"},
  "PeerArn": {"type": "string"}, "Arn": {"type": "string"}},
 "primaryIdentifier": ["/properties/Name"], "createOnlyProperties": ["/properties/Name"],
 "readOnlyProperties": ["/properties/Arn"], "additionalProperties": false,
 "x-stacksim": {"values": [{"path": "/properties/Arn", "value": "arn:{$Partition}:bench:{$Region}:{$AccountId}:thing/{Name}"}],
  "durations": {"create": 2, "update": 1, "delete": 1}}}`

// bigStack is a stack of n resources with 2n dependency edges: each
// resource refers to two earlier ones (Ref and Fn::GetAtt) within a window,
// as large templates do. Version v > 0 renames (replaces) a tenth of them.
type bigStack struct {
	resources []*template.Resource
	ids       []string
	deps      map[string][]string
	props     map[string]map[string]any
}

type benchRef struct{ id, attr string }

func newBigStack(n, v, set int) *bigStack {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	s := &bigStack{deps: make(map[string][]string, n), props: make(map[string]map[string]any, n)}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("R%05d", i)
		name := fmt.Sprintf("thing-%05d", i)
		if set > 0 {
			name = fmt.Sprintf("set%02d-%s", set, name)
		}
		if v > 0 && i%10 == v%10 {
			name += "-v" + strconv.Itoa(v)
		}
		props := map[string]any{"Name": name, "Size": "10"}
		if i > 0 {
			a := i - 1 - r.IntN(min(i, 40))
			b := i - 1 - r.IntN(min(i, 40))
			props["Peer"] = benchRef{id: fmt.Sprintf("R%05d", a)}
			props["PeerArn"] = benchRef{id: fmt.Sprintf("R%05d", b), attr: "Arn"}
			s.deps[id] = []string{fmt.Sprintf("R%05d", a)}
			if b != a {
				s.deps[id] = append(s.deps[id], fmt.Sprintf("R%05d", b))
			}
		}
		s.resources = append(s.resources, &template.Resource{LogicalID: id, Type: benchType})
		s.ids = append(s.ids, id)
		s.props[id] = props
	}
	return s
}

func (s *bigStack) Resources() []*template.Resource                    { return s.resources }
func (s *bigStack) LogicalIDs() []string                               { return slices.Clip(s.ids) }
func (s *bigStack) Enabled(id string) bool                             { _, ok := s.props[id]; return ok }
func (s *bigStack) DependsOn(id string) []string                       { return s.deps[id] }
func (s *bigStack) DeletionPolicy(string) string                       { return "Delete" }
func (s *bigStack) UpdateReplacePolicy(string) string                  { return "Delete" }
func (s *bigStack) Parameters() []template.BoundParameter              { return nil }
func (s *bigStack) Template() *template.Template                       { return nil }
func (s *bigStack) Outputs() []*template.Output                        { return nil }
func (s *bigStack) Capabilities() template.Requirement                 { return template.Requirement{} }
func (s *bigStack) OutputValue(string, template.Resolver) (any, error) { return nil, nil }
func (s *bigStack) ExportName(string, template.Resolver) (any, bool, error) {
	return nil, false, nil
}
func (s *bigStack) Resolve(*template.Node, template.Resolver) (any, error) { return nil, nil }
func (s *bigStack) ResourceAttribute(string, string, template.Resolver) (any, error) {
	return nil, nil
}

func (s *bigStack) Properties(id string, r template.Resolver) (map[string]any, error) {
	src := s.props[id]
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

// benchEngine is an engine that binds "bench N vK" bodies to benchStacks,
// serves benchType with the simulated provider, and checks the contract.
func opsEngine(tb testing.TB) *Engine { return opsEngineWith(tb, true, ContractReport) }

// opsEngineWith makes the benchmarks' engine with the simulated provider
// (sim), or with a Go handler that answers SUCCESS at once with the model
// it is given (the engine's own cost, handlers aside), and a contract mode.
// In a benchmark the engine is the loop's to close (benchOps does): an
// engine kept for tb.Cleanup would stay live until the benchmark ends, so
// every iteration's collections would scan all the engines made before it.
func opsEngineWith(tb testing.TB, sim bool, mode ContractMode) *Engine {
	tb.Helper()
	var e *Engine
	if b, loop := tb.(*testing.B); loop {
		e = loopEngine(b, Options{Contract: mode})
	} else {
		e = newTestEngine(tb, Options{Contract: mode})
	}
	benchSetUp(tb, e, sim)
	return e
}

// benchSetUp registers the benchmarks' type on e and the binding of their
// big stacks.
func benchSetUp(tb testing.TB, e *Engine, sim bool) {
	tb.Helper()
	s, err := resources.ParseSchema("bench", []byte(benchSchemaDoc))
	if err != nil {
		tb.Fatal(err)
	}
	var p resources.Handler = resources.NewGeneric(s, resources.GenericOptions{Cloud: e.Registry().Cloud(), Now: e.now})
	if !sim {
		ok := func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
			if req.Action == resources.ActionDelete {
				return resources.Success(nil), nil
			}
			m := req.DesiredResourceState
			if _, has := m["Arn"]; !has {
				m = mergeModels(m, map[string]any{"Arn": "arn:aws:bench:::" + fmt.Sprint(m["Name"])})
			}
			return resources.Success(m), nil
		}
		p = resources.HandlerFuncs{CreateFunc: ok, ReadFunc: ok, UpdateFunc: ok, DeleteFunc: ok, ListFunc: ok}
	}
	if err := e.Registry().Register(benchType, s, p); err != nil {
		tb.Fatal(err)
	}
	e.bindHook = func(body string) (boundTemplate, bool) {
		if s, ok := bigStackOfBody(body); ok {
			return s, true
		}
		return nil, false
	}
}

// bigStackOfBody is the stack a body names ("bench N vK [setS]"), parsed
// once per body: the engine binds the stack's template for every step (a
// real template's binding is cached, bindIdentity), so the benchmarks must
// not time a parse per step the engine does not make.
func bigStackOfBody(body string) (*bigStack, bool) {
	bigStacksMu.Lock()
	s, ok := bigBodies[body]
	bigStacksMu.Unlock()
	if ok {
		return s, true
	}
	var n, v, set int
	spec, sets, _ := strings.Cut(body, " set")
	if _, err := fmt.Sscanf(spec, "bench %d v%d", &n, &v); err != nil {
		return nil, false
	}
	if sets != "" {
		if _, err := fmt.Sscanf(sets, "%d", &set); err != nil {
			return nil, false
		}
	}
	s = bigStackOf(n, v, set)
	bigStacksMu.Lock()
	bigBodies[body] = s
	bigStacksMu.Unlock()
	return s, true
}

var (
	bigStacksMu sync.Mutex
	bigStacks   = map[[3]int]*bigStack{}
	bigBodies   = map[string]*bigStack{} // bigStackOfBody's
)

// keepOnly makes the stacks of n resources (both versions) the only ones
// built, before a size's benchmark starts its timer: a benchmark of 1,000
// resources runs with the templates of 1,000 resources live, as a process
// that works on such a stack has, not with those of every size (23,000
// resources, 18 MB, that every collection would scan and that would make
// the small sizes' collections rarer than a real process's).
func keepOnly(n int) {
	bigStacksMu.Lock()
	for k := range bigStacks {
		if k[0] != n {
			delete(bigStacks, k)
		}
	}
	for body, s := range bigBodies {
		if len(s.resources) != n {
			delete(bigBodies, body)
		}
	}
	bigStacksMu.Unlock()
	bigStackOf(n, 0, 0)
	bigStackOf(n, 1, 0)
}

// bigStackOf builds each stack once (keepOnly builds a size's outside the
// timed parts). Set numbers the stacks of one account whose resources must
// not share names (set 0: the stack the benchmarks time).
func bigStackOf(n, v, set int) *bigStack {
	bigStacksMu.Lock()
	defer bigStacksMu.Unlock()
	if s, ok := bigStacks[[3]int{n, v, set}]; ok {
		return s
	}
	s := newBigStack(n, v, set)
	bigStacks[[3]int{n, v, set}] = s
	return s
}

func benchBody(n, v int) string { return benchSetBody(n, v, 0) }

// benchSetBody is the body of stack set of an account of several (set > 0:
// its resources' names are its own).
func benchSetBody(n, v, set int) string {
	if set == 0 {
		return fmt.Sprintf("bench %d v%d", n, v)
	}
	return fmt.Sprintf("bench %d v%d set%d", n, v, set)
}

// benchRun runs the loop to rest and fails on anything but want.
func benchRun(tb testing.TB, e *Engine, want string) {
	tb.Helper()
	if _, err := e.Run(ctx()); err != nil {
		tb.Fatal(err)
	}
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "big"})
	if err != nil {
		if want == "DELETE_COMPLETE" && strings.Contains(err.Error(), "does not exist") {
			return
		}
		tb.Fatal(err)
	}
	if got := out.Stacks[0].StackStatus; got != want {
		tb.Fatalf("the stack is %s (%s), not %s", got, out.Stacks[0].StackStatusReason, want)
	}
}

func benchCreate(tb testing.TB, e *Engine, n int) {
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: benchBody(n, 0)}); err != nil {
		tb.Fatal(err)
	}
	benchRun(tb, e, "CREATE_COMPLETE")
}

func benchUpdate(tb testing.TB, e *Engine, n int) {
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "big", TemplateBody: benchBody(n, 1)}); err != nil {
		tb.Fatal(err)
	}
	benchRun(tb, e, "UPDATE_COMPLETE")
}

func benchDelete(tb testing.TB, e *Engine) {
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "big"}); err != nil {
		tb.Fatal(err)
	}
	benchRun(tb, e, "DELETE_COMPLETE")
}

var benchSizes = []int{500, 1000, 10000}

// loopEngine is an engine for one iteration of a benchmark's loop, which
// closes it (closeLoopEngine) before the next: an engine kept for
// tb.Cleanup (newTestEngine) would stay live until the benchmark ends, and
// each iteration's collections would scan every engine made before it.
func loopEngine(b *testing.B, opts Options) *Engine {
	b.Helper()
	e, err := New(opts)
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// closeLoopEngine closes the engine of an iteration, outside the timer.
func closeLoopEngine(b *testing.B, e *Engine) {
	b.Helper()
	b.StopTimer()
	if err := e.Close(); err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
}

// settle collects the garbage of the set-up (the engine of the previous
// iteration, the stack created before an update or a delete) before the
// timer starts, so that an operation is not charged for another's garbage.
// What the operation keeps live is still scanned by the collections it
// causes itself.
func settle() { runtime.GC() }

// perResource reports the wall time and the CPU time (every thread: the
// collector's work counts; a machine shared with other work inflates the
// wall time, not this) per resource of an operation.
func perResource(b *testing.B, n int, d, cpu time.Duration) {
	b.ReportMetric(float64(d.Nanoseconds())/float64(b.N)/float64(n), "ns/resource")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/resource")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
}

// benchOps times op on an engine that setUp made, for every size: the
// set-up and its garbage are outside the timer (settle), the op's wall and
// CPU time are reported per resource.
func benchOps(b *testing.B, setUp func(b *testing.B, n int) *Engine, op func(b *testing.B, e *Engine, n int)) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) { timeOp(b, n, setUp, op) })
	}
}

// timeOp times op on engines of n-resource stacks that setUp makes: the
// set-up and its garbage are outside the timer (settle).
func timeOp(b *testing.B, n int, setUp func(b *testing.B, n int) *Engine, op func(b *testing.B, e *Engine, n int)) {
	keepOnly(n)
	b.ReportAllocs()
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := setUp(b, n)
		settle()
		b.StartTimer()
		start, c0 := time.Now(), cpuTime()
		op(b, e, n)
		total += time.Since(start)
		cpu += cpuTime() - c0
		closeLoopEngine(b, e)
	}
	perResource(b, n, total, cpu)
}

// emptyEngine and createdEngine are the set-ups: a world with no stack, a
// world with the n-resource stack created.
func emptyEngine(b *testing.B, _ int) *Engine { return opsEngine(b) }

func createdEngine(b *testing.B, n int) *Engine {
	e := opsEngine(b)
	benchCreate(b, e, n)
	return e
}

// lifecycle is create, update (10% replaced) and delete of one stack.
func lifecycle(b *testing.B, e *Engine, n int) {
	benchCreate(b, e, n)
	benchUpdate(b, e, n)
	benchDelete(b, e)
}

func BenchmarkCreate(b *testing.B) {
	benchOps(b, emptyEngine, func(b *testing.B, e *Engine, n int) { benchCreate(b, e, n) })
}

func BenchmarkUpdate(b *testing.B) {
	benchOps(b, createdEngine, func(b *testing.B, e *Engine, n int) { benchUpdate(b, e, n) })
}

func BenchmarkDelete(b *testing.B) {
	benchOps(b, createdEngine, func(b *testing.B, e *Engine, _ int) { benchDelete(b, e) })
}

// BenchmarkEngineOnly is BenchmarkLifecycle with a Go handler that answers
// at once and no contract checker: the engine's own share.
func BenchmarkEngineOnly(b *testing.B) {
	benchOps(b, func(b *testing.B, _ int) *Engine { return opsEngineWith(b, false, ContractOff) }, lifecycle)
}

// BenchmarkLifecycle is create, update (10% replaced) and delete in one.
func BenchmarkLifecycle(b *testing.B) {
	benchOps(b, emptyEngine, lifecycle)
}

// BenchmarkStoredResource reports the heap a created stack keeps per
// resource: its record, its cloud object, its events, its share of the
// operation's summary.
func BenchmarkStoredResource(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			keepOnly(n) // the templates are not the stored resources
			var per float64
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				e := opsEngine(b)
				benchCreate(b, e, n)
				clear(e.bounds)
				clear(e.plans)
				clear(e.parsed)
				e.bindHook = nil
				runtime.GC()
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				per = float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
				if err := e.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(per, "B/resource")
		})
	}
}

// The benchmarks' stack must work as a stack: a quick run under test.
func TestBenchStack(t *testing.T) {
	e := opsEngine(t)
	benchCreate(t, e, 200)
	benchUpdate(t, e, 200)
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
	benchDelete(t, e)
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkCreateTemplate500 creates a stack from a real template of 500
// resources (the quota): embedded simulated SSM parameters, each referring
// to an earlier one, behind the contract checker — the template package's
// parsing, binding and evaluation included.
func BenchmarkCreateTemplate500(b *testing.B) {
	var body strings.Builder
	body.WriteString("Resources:\n")
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&body, "  P%03d:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n", i)
		if i == 0 {
			body.WriteString("      Value: first\n")
		} else {
			fmt.Fprintf(&body, "      Value: !Ref P%03d\n", (i*7)%i)
		}
	}
	tpl := body.String()
	b.ReportAllocs()
	var total, cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := loopEngine(b, Options{Contract: ContractReport})
		settle()
		b.StartTimer()
		start, c0 := time.Now(), cpuTime()
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: tpl}); err != nil {
			b.Fatal(err)
		}
		benchRun(b, e, "CREATE_COMPLETE")
		total += time.Since(start)
		cpu += cpuTime() - c0
		closeLoopEngine(b, e)
	}
	perResource(b, 500, total, cpu)
}

// BenchmarkCreateInAccount creates a stack of 500 resources in an account
// that is empty and in one that already holds 10,000 resources (20 other
// stacks of 500): what one create costs must not grow with the rest of the
// account (the in-process half of make bench-scale's create figure).
func BenchmarkCreateInAccount(b *testing.B) {
	for _, others := range []int{0, 20} {
		b.Run(fmt.Sprintf("others=%d", others*500), func(b *testing.B) {
			inAccount := func(b *testing.B, n int) *Engine {
				e := opsEngine(b)
				for j := 0; j < others; j++ {
					if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: fmt.Sprintf("other%02d", j), TemplateBody: benchSetBody(n, 0, j+1)}); err != nil {
						b.Fatal(err)
					}
					if _, err := e.Run(ctx()); err != nil {
						b.Fatal(err)
					}
				}
				return e
			}
			timeOp(b, 500, inAccount, func(b *testing.B, e *Engine, n int) { benchCreate(b, e, n) })
		})
	}
}

// BenchmarkStackCycleAfter creates and deletes a one-resource stack in an
// account that made and deleted no stack before, and 10,000 before: a
// deleted stack's rows stay (DescribeStacks finds it by its ARN), and the
// cost of a call must not grow with them. It did: the lookups by name and
// by stack scanned every stack's row, and the stack quota counted every
// stack once 2,000 had been made. With -benchtime 500x, 2026-12-03:
// before, 0.94 ms and 75 ms per cycle (0 and 10,000 deleted before; the
// first grows within its own 500 cycles); with the buffer's index and
// the quota counted from the live stacks, 0.14 and 0.12 ms.
func BenchmarkStackCycleAfter(b *testing.B) {
	const body = "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	cycle := func(b *testing.B, e *Engine, name string) {
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: name, TemplateBody: body}); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Run(ctx()); err != nil {
			b.Fatal(err)
		}
		if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: name}); err != nil {
			b.Fatal(err)
		}
		if _, err := e.Run(ctx()); err != nil {
			b.Fatal(err)
		}
	}
	for _, before := range []int{0, 10000} {
		b.Run(fmt.Sprintf("deleted=%d", before), func(b *testing.B) {
			e, err := New(Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = e.Close() }()
			for i := 0; i < before; i++ {
				cycle(b, e, fmt.Sprintf("old%d", i))
			}
			settle()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cycle(b, e, fmt.Sprintf("s%d", i))
			}
		})
	}
}
