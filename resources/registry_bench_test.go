package resources

import (
	"runtime"
	"testing"

	"github.com/stacksim/stacksim/resources/internal/schemapack"
)

// What a command pays for the registry (go test ./resources -run '^$'
// -bench Registry): reading the pack's index (once per process, on first
// use), and per type it uses, decompressing and parsing its schema, then
// compiling the validator of its template properties (the contract's, with
// --contract, as much again).

// benchTypes are common registry types of different sizes.
var benchTypes = []string{"AWS::EC2::EIP", "AWS::EFS::FileSystem", "AWS::ECS::TaskDefinition", "AWS::ElasticLoadBalancingV2::LoadBalancer",
	"AWS::Cognito::UserPool", "AWS::CodeBuild::Project", "AWS::EC2::LaunchTemplate", "AWS::Route53::HostedZone"}

func BenchmarkRegistryIndex(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := schemapack.Open(registryPackData); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegistrySchema(b *testing.B) {
	p, err := registryPack()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, typ := range benchTypes {
			doc, _, err := p.Doc(typ)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := parseRegistryDoc(typ, doc); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(benchTypes)), "ns/type")
}

func BenchmarkRegistryCompile(b *testing.B) {
	p, err := registryPack()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, typ := range benchTypes {
			doc, _, _ := p.Doc(typ)
			s, err := parseRegistryDoc(typ, doc)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.compileInput(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(benchTypes)), "ns/type")
}

// BenchmarkRegistryRetained reports the heap a type keeps once a process
// has used it: its schema parsed, the validators of its template
// properties and of the contract compiled, and a valid model (its
// example) checked with both — what a long-lived serve keeps per type it
// has met. The decoded documents the validators are built from are not
// kept (validator).
func BenchmarkRegistryRetained(b *testing.B) {
	p, err := registryPack()
	if err != nil {
		b.Fatal(err)
	}
	var per float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		kept := make([]*Schema, 0, len(benchTypes))
		for _, typ := range benchTypes {
			doc, _, _ := p.Doc(typ)
			s, err := parseRegistryDoc(typ, doc)
			if err != nil {
				b.Fatal(err)
			}
			m := s.ExampleModel(1)
			if err := s.ValidateInput(m); err != nil {
				b.Fatalf("%s: its example is not valid: %v", typ, err)
			}
			s.ModelCertainlyValid(m)
			kept = append(kept, s)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		per = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(kept)) / 1024
		runtime.KeepAlive(kept)
	}
	b.ReportMetric(per, "KiB/type")
}
