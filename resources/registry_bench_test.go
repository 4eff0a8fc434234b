package resources

import (
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
