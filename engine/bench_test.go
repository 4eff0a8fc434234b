package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/statefile"
	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// Benchmarks of the store's primitives, by size. Run them with
//
//	go test ./engine -run '^$' -bench . -benchmem
//
// BenchmarkWorkload is the store's share of a stack operation: per resource,
// what the operations code will do (tasks, events, resource writes, a cloud
// object), without the planning and the handlers.

var sizes = []int{1000, 10000}

func benchStack(b *testing.B, e *Engine) *store.StackRecord {
	b.Helper()
	return seed(b, e).stack("bench")
}

// benchEngine returns an engine the caller closes: a benchmark that makes
// one per iteration must not keep them all alive until it ends.
func benchEngine(b *testing.B) *Engine {
	b.Helper()
	e, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkStoreEvents writes n resource events in one transaction (as one
// loop run does) and commits.
func BenchmarkStoreEvents(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("Resource%05d", i)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := benchEngine(b)
				st := benchStack(b, e)
				b.StartTimer()
				tx := &txn{e.st.Begin()}
				for j, id := range ids {
					tx.resourceEvent(st, resourceEvent{LogicalID: id, PhysicalID: id, Type: "AWS::SNS::Topic",
						Status: statemachine.ResourceStatusCreateComplete})
					if j%64 == 0 {
						tx.Release()
						tx.Meta.Now += int64(time.Second)
					}
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				_ = e.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
		})
	}
}

// BenchmarkDescribeStackEvents reads every event of a stack of n events,
// page by page.
func BenchmarkDescribeStackEvents(b *testing.B) {
	benchEventPages(b, func(e *Engine, token string) (int, string, error) {
		out, err := e.DescribeStackEvents(context.Background(), DescribeStackEventsInput{StackName: "bench", NextToken: token})
		if err != nil {
			return 0, "", err
		}
		return len(out.StackEvents), out.NextToken, nil
	})
}

// BenchmarkDescribeEvents pages through a stack's history with
// DescribeEvents, as BenchmarkDescribeStackEvents does with
// DescribeStackEvents: the operations' statuses are read once for all the
// pages, so the cost per event stays flat as the history grows.
func BenchmarkDescribeEvents(b *testing.B) {
	benchEventPages(b, func(e *Engine, token string) (int, string, error) {
		out, err := e.DescribeEvents(context.Background(), DescribeEventsInput{StackName: "bench", NextToken: token})
		if err != nil {
			return 0, "", err
		}
		return len(out.OperationEvents), out.NextToken, nil
	})
}

// benchEventPages reads every event of a stack of n events, for every
// size, with page (one call: how many events it answered, the next token).
func benchEventPages(b *testing.B, page func(e *Engine, token string) (int, string, error)) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e := newTestEngine(b, Options{})
			st := benchStack(b, e)
			seed(b, e).do(func(tx *txn) error {
				for j := 1; j < n; j++ {
					tx.resourceEvent(st, resourceEvent{LogicalID: fmt.Sprint("R", j), Type: "T", Status: statemachine.ResourceStatusCreateComplete})
				}
				return nil
			})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				token, got := "", 0
				for {
					k, next, err := page(e, token)
					if err != nil {
						b.Fatal(err)
					}
					got += k
					if token = next; token == "" {
						break
					}
				}
				if got != n {
					b.Fatalf("%d events", got)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/event")
		})
	}
}

// BenchmarkStoreResources puts n resources, then reads, copies and writes
// each of them three times (as the statuses of a create move), and commits.
func BenchmarkStoreResources(b *testing.B) {
	statuses := []statemachine.ResourceStatus{statemachine.ResourceStatusCreateInProgress,
		statemachine.ResourceStatusCreateInProgress, statemachine.ResourceStatusCreateComplete}
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			ids := make([]string, n)
			for i := range ids {
				ids[i] = fmt.Sprintf("Resource%05d", i)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := benchEngine(b)
				st := benchStack(b, e)
				b.StartTimer()
				tx := &txn{e.st.Begin()}
				for _, id := range ids {
					tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, ResourceType: "AWS::SNS::Topic"})
				}
				for _, s := range statuses {
					for _, id := range ids {
						r := tx.Resource(st.Num, id).Clone()
						r.ResourceStatus = s
						tx.PutResource(r)
					}
					tx.Release()
				}
				if err := tx.Commit(); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if got := len(e.st.Read().ResourcesOf(st.Num)); got != n {
					b.Fatal(got)
				}
				_ = e.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/resource")
		})
	}
}

// workload registers a task kind that does, for one resource, what a create
// does to the store: read and write the resource record four times, write
// the three events of a create, put a cloud object through the registry's
// cloud, and schedule a follow-up task (a callback) that writes the rest.
func workload(e *Engine, st *store.StackRecord) {
	cloud := e.reg.Cloud()
	e.handle("bench-start", func(_ context.Context, tx *txn, t *Task) error {
		id := t.Step
		r := &store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, ResourceType: "AWS::SNS::Topic",
			ResourceStatus: statemachine.ResourceStatusCreateInProgress, LastUpdatedTimestamp: tx.now(),
			Properties: map[string]any{"TopicName": id}}
		tx.PutResource(r)
		tx.resourceEvent(st, resourceEvent{LogicalID: id, Type: r.ResourceType, Status: r.ResourceStatus})
		phys := "arn:aws:sns:us-east-1:123456789012:" + id
		if err := cloud.Put(&resources.Object{Type: r.ResourceType, ID: phys, StackID: st.StackId, LogicalID: id,
			Model: map[string]any{"TopicName": id, "TopicArn": phys}}); err != nil {
			return err
		}
		r = tx.Resource(st.Num, id).Clone()
		r.PhysicalResourceId = phys
		tx.PutResource(r)
		tx.resourceEvent(st, resourceEvent{LogicalID: id, PhysicalID: phys, Type: r.ResourceType, Status: r.ResourceStatus,
			Reason: "Resource creation Initiated"})
		tx.ScheduleAfter(5*time.Second, &Task{Kind: "bench-done", StackId: st.StackId, Step: id})
		return nil
	})
	e.handle("bench-done", func(_ context.Context, tx *txn, t *Task) error {
		if _, err := cloud.Get("AWS::SNS::Topic", "arn:aws:sns:us-east-1:123456789012:"+t.Step); err != nil {
			return err
		}
		r := tx.Resource(st.Num, t.Step).Clone()
		r.ResourceStatus = statemachine.ResourceStatusCreateComplete
		r.Model = map[string]any{"TopicArn": r.PhysicalResourceId}
		tx.PutResource(r)
		tx.resourceEvent(st, resourceEvent{LogicalID: r.LogicalResourceId, PhysicalID: r.PhysicalResourceId, Type: r.ResourceType,
			Status: r.ResourceStatus})
		return nil
	})
}

// BenchmarkWorkload runs the store's share of creating a stack of n
// resources through the loop (2n tasks, 3n events, 4n resource writes, n
// cloud objects), and reports the time and the memory kept per resource.
func BenchmarkWorkload(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var kept uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := benchEngine(b)
				st := benchStack(b, e)
				workload(e, st)
				runtime.GC()
				var m0 runtime.MemStats
				runtime.ReadMemStats(&m0)
				b.StartTimer()
				seed(b, e).do(func(tx *txn) error {
					for j := 0; j < n; j++ {
						tx.Schedule(&Task{Kind: "bench-start", StackId: st.StackId, Step: fmt.Sprintf("Resource%05d", j)})
					}
					return nil
				})
				res, err := e.Run(context.Background())
				if err != nil || res.Tasks != 2*n {
					b.Fatal(res, err)
				}
				b.StopTimer()
				runtime.GC()
				var m1 runtime.MemStats
				runtime.ReadMemStats(&m1)
				kept = m1.HeapAlloc - m0.HeapAlloc
				runtime.KeepAlive(e)
				_ = e.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/resource")
			b.ReportMetric(float64(kept)/float64(n), "B/resource-kept")
		})
	}
}

// BenchmarkSaveLoad encodes and decodes the state of a stack of n resources
// with 10 events each.
func BenchmarkSaveLoad(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e := newTestEngine(b, Options{})
			st := benchStack(b, e)
			seed(b, e).do(func(tx *txn) error {
				for j := 0; j < n; j++ {
					id := fmt.Sprintf("Resource%05d", j)
					phys := "arn:aws:sns:us-east-1:123456789012:" + id
					tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id, PhysicalResourceId: phys,
						ResourceType: "AWS::SNS::Topic", ResourceStatus: statemachine.ResourceStatusCreateComplete,
						Properties: map[string]any{"TopicName": id}, Model: map[string]any{"TopicArn": phys}})
					for k := 0; k < 10; k++ {
						tx.resourceEvent(st, resourceEvent{LogicalID: id, PhysicalID: phys, Type: "AWS::SNS::Topic",
							Status: statemachine.ResourceStatusUpdateInProgress})
					}
					tx.PutObject(&resources.Object{Type: "AWS::SNS::Topic", ID: phys, StackID: st.StackId, LogicalID: id,
						Model: map[string]any{"TopicName": id}})
				}
				return nil
			})
			data := state(b, e)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := e.MarshalState()
				if err != nil {
					b.Fatal(err)
				}
				// The format's own cost: decoded and built, without the
				// invariants (the rows are written directly: a world no
				// operation made).
				st, err := statefile.Decode("bench", out)
				if err != nil {
					b.Fatal(err)
				}
				e2, err := newEngine(Options{}.withDefaults(), st)
				if err != nil {
					b.Fatal(err)
				}
				_ = e2.Close()
			}
			b.ReportMetric(float64(len(data)), "bytes")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/resource")
		})
	}
}

// BenchmarkStateDB is the state database (format 2) with a stack of n
// resources made by a create: the first save (the whole database
// written), an open that reads the stack (its record and resources, as
// list-stack-resources does), and a save of one changed resource.
func BenchmarkStateDB(b *testing.B) {
	for _, n := range []int{500, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			dir := b.TempDir()
			made := func(path string) *Engine {
				e, err := Open(path, Options{Contract: ContractReport})
				if err != nil {
					b.Fatal(err)
				}
				benchSetUp(b, e, true)
				return e
			}
			files := 0
			b.Run("save-all", func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					files++
					e := made(filepath.Join(dir, fmt.Sprintf("all%d.db", files)))
					benchCreate(b, e, n)
					settle()
					b.StartTimer()
					if err := e.Save(); err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					_ = e.Close()
					b.StartTimer()
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/resource")
			})
			path := filepath.Join(dir, "state.db")
			e := made(path)
			benchCreate(b, e, n)
			if err := e.Save(); err != nil {
				b.Fatal(err)
			}
			_ = e.Close()
			b.Run("open-read-stack", func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					e, err := OpenReadOnly(path, Options{})
					if err != nil {
						b.Fatal(err)
					}
					seen := 0
					for token := ""; ; {
						out, err := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "big", NextToken: token})
						if err != nil {
							b.Fatal(err)
						}
						seen += len(out.StackResourceSummaries)
						if token = out.NextToken; token == "" {
							break
						}
					}
					_ = e.Close()
					if seen != n {
						b.Fatalf("%d resources, want %d", seen, n)
					}
				}
			})
			b.Run("save-one-change", func(b *testing.B) {
				e := made(path)
				defer e.Close()
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					seed(b, e).do(func(tx *txn) error {
						st := tx.StackByName("big")
						r := tx.Resource(st.Num, "R00001").Clone()
						r.ResourceStatusReason = strconv.Itoa(i)
						tx.PutResource(r)
						return nil
					})
					if err := e.Save(); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkQueue schedules and runs tasks with n queued.
func BenchmarkQueue(b *testing.B) {
	for _, n := range sizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e := newTestEngine(b, Options{})
			tx := &txn{e.st.Begin()}
			defer tx.End()
			for j := 0; j < n; j++ {
				tx.ScheduleAfter(time.Duration(j%7)*time.Second, &Task{Kind: "k"})
			}
			tx.Release()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t := tx.NextTask()
				tx.Unschedule(t)
				tx.advanceTo(t.Due())
				tx.ScheduleAfter(3*time.Second, &Task{Kind: "k"})
				if i%64 == 0 {
					tx.Release()
				}
			}
		})
	}
}

// BenchmarkMemoryPerRow reports the heap kept per row of each kind, store
// overhead included (memdb index entries, chunking), for 10,000 rows whose
// own strings and maps are shared (so that only the store's cost shows).
func BenchmarkMemoryPerRow(b *testing.B) {
	const n = 10000
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("Resource%05d", i)
	}
	model := map[string]any{"TopicName": "x"}
	for _, kind := range []string{"resource", "object", "event"} {
		b.Run(kind, func(b *testing.B) {
			var per float64
			for i := 0; i < b.N; i++ {
				e := benchEngine(b)
				st := benchStack(b, e)
				runtime.GC()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				seed(b, e).do(func(tx *txn) error {
					for _, id := range ids {
						switch kind {
						case "resource":
							tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: id,
								PhysicalResourceId: id, ResourceType: "AWS::SNS::Topic", Properties: model, Model: model})
						case "object":
							tx.PutObject(&resources.Object{Type: "AWS::SNS::Topic", ID: id, StackID: st.StackId, LogicalID: id, Model: model})
						case "event":
							tx.resourceEvent(st, resourceEvent{LogicalID: id, PhysicalID: id, Type: "AWS::SNS::Topic",
								Status: statemachine.ResourceStatusCreateComplete})
						}
					}
					return nil
				})
				runtime.GC()
				runtime.ReadMemStats(&m1)
				per = float64(m1.HeapAlloc-m0.HeapAlloc) / n
				runtime.KeepAlive(e)
				_ = e.Close()
			}
			b.ReportMetric(per, "B/row")
		})
	}
}

// mixedTypes are the registry types of BenchmarkCreateMixed: types that
// real templates use, none embedded (each simulated from the registry's
// schema, its overlay and the value generator).
var mixedTypes = []string{
	"AWS::EC2::EIP", "AWS::EC2::VPCGatewayAttachment", "AWS::EC2::SubnetRouteTableAssociation",
	"AWS::EC2::NetworkInterface", "AWS::EC2::LaunchTemplate", "AWS::EFS::FileSystem", "AWS::EFS::MountTarget",
	"AWS::ECS::Cluster", "AWS::ECS::TaskDefinition", "AWS::ElasticLoadBalancingV2::TargetGroup",
	"AWS::Route53::HostedZone", "AWS::ApiGateway::Resource", "AWS::Cognito::UserPool", "AWS::Kinesis::Stream",
	"AWS::Config::ConfigRule", "AWS::CloudWatch::Dashboard", "AWS::Glue::Database", "AWS::Athena::WorkGroup",
	"AWS::IAM::User", "AWS::IAM::Group", "AWS::CodeBuild::Project", "AWS::Events::EventBus",
	"AWS::SES::ConfigurationSet", "AWS::AppConfig::Application", "AWS::CloudFormation::WaitConditionHandle",
}

// mixedTemplate is a template of n resources of mixedTypes in turn, each
// with the minimal model of its type's schema (seeded by its index, so
// that names do not collide).
func mixedTemplate(tb testing.TB, n int) string {
	tb.Helper()
	res := map[string]any{}
	for i := 0; i < n; i++ {
		typ := mixedTypes[i%len(mixedTypes)]
		s, ok, err := resources.RegistrySchema(typ)
		if err != nil || !ok {
			tb.Fatalf("%s: %v", typ, err)
		}
		r := map[string]any{"Type": typ}
		if m := s.ExampleModel(int64(i)); len(m) > 0 {
			r["Properties"] = m
		}
		res[fmt.Sprintf("R%03d", i)] = r
	}
	b, err := json.Marshal(map[string]any{"Resources": res})
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// BenchmarkCreateMixed creates a stack from a real template of 500
// resources of 25 registry types (the quota), behind the contract checker
// as BenchmarkCreate/500 and BenchmarkCreateTemplate500 are. The registry's
// schemas are decompressed, parsed and compiled once per process (the
// first iteration pays for them; `go test ./resources -bench Registry`
// measures that cost apart).
func BenchmarkCreateMixed(b *testing.B) {
	const n = 500
	tpl := mixedTemplate(b, n)
	b.Run(strconv.Itoa(n), func(b *testing.B) {
		b.ReportAllocs()
		var total, cpu time.Duration
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			e := loopEngine(b, Options{Contract: ContractReport})
			settle()
			b.StartTimer()
			start, c0 := time.Now(), cpuTime()
			if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: tpl, Capabilities: []string{"CAPABILITY_IAM"}}); err != nil {
				b.Fatal(err)
			}
			benchRun(b, e, "CREATE_COMPLETE")
			total += time.Since(start)
			cpu += cpuTime() - c0
			closeLoopEngine(b, e)
		}
		perResource(b, n, total, cpu)
	})
}

// The mixed template must create (a quick run under test).
func TestMixedTemplateCreates(t *testing.T) {
	e := newTestEngine(t, Options{Contract: ContractReport})
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: mixedTemplate(t, 100), Capabilities: []string{"CAPABILITY_IAM"}}); err != nil {
		t.Fatal(err)
	}
	benchRun(t, e, "CREATE_COMPLETE")
	op, err := e.DescribeStackOperation(ctx(), DescribeStackOperationInput{StackName: "big"})
	if err != nil || op.Operation.ContractViolationCount != 0 {
		t.Fatalf("%v %+v", err, op.Operation.ContractViolations)
	}
}
