package template

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// bigTemplate writes a YAML template of n resources that uses every common
// function: each queue refers to the one before it (Ref, Fn::GetAtt,
// Fn::Sub with ${X.Attr}), every tenth is conditional, and each has tags
// built with Fn::Join, Fn::Select, Fn::FindInMap and Fn::If.
func bigTemplate(n int) []byte {
	var b strings.Builder
	b.WriteString(`AWSTemplateFormatVersion: "2010-09-09"
Description: benchmark template
Parameters:
  Env:
    Type: String
    AllowedValues: [dev, prod]
    Default: dev
  Names:
    Type: CommaDelimitedList
    Default: "a,b,c"
Mappings:
  Sizes:
    dev: {Retention: "60"}
    prod: {Retention: "3600"}
Conditions:
  IsProd: !Equals [!Ref Env, prod]
  IsDev: !Not [!Condition IsProd]
Resources:
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  Queue%d:\n    Type: AWS::SQS::Queue\n", i)
		if i%10 == 9 {
			b.WriteString("    Condition: IsDev\n")
		}
		b.WriteString("    Properties:\n")
		fmt.Fprintf(&b, "      QueueName: !Sub \"${AWS::StackName}-queue-%d-${Env}\"\n", i)
		b.WriteString("      MessageRetentionPeriod: !FindInMap [Sizes, !Ref Env, Retention]\n")
		b.WriteString("      VisibilityTimeout: 30\n")
		if i > 0 && (i-1)%10 != 9 {
			fmt.Fprintf(&b, "      RedrivePolicy:\n        deadLetterTargetArn: !GetAtt Queue%d.Arn\n        maxReceiveCount: 5\n", i-1)
		}
		b.WriteString("      Tags:\n")
		fmt.Fprintf(&b, "        - Key: Name\n          Value: !Join [\"-\", [!Ref \"AWS::Region\", !Select [1, !Ref Names], \"q%d\"]]\n", i)
		b.WriteString("        - Key: Tier\n          Value: !If [IsProd, gold, !Ref \"AWS::NoValue\"]\n")
		if i > 0 && (i-1)%10 != 9 {
			fmt.Fprintf(&b, "        - Key: Prev\n          Value: !Sub \"${Queue%d}/${Queue%d.QueueName}\"\n", i-1, i-1)
		}
	}
	b.WriteString("Outputs:\n")
	for i := 0; i < n && i < 100; i += 2 {
		fmt.Fprintf(&b, "  Arn%d:\n    Value: !GetAtt Queue%d.Arn\n    Export:\n      Name: !Sub \"${AWS::StackName}-Arn%d\"\n", i, i, i)
	}
	return []byte(b.String())
}

// benchResolver answers like a stack whose resources exist.
type benchResolver struct{}

func (benchResolver) Ref(id string) (any, error) { return "phys-" + id, nil }
func (benchResolver) GetAtt(id, attr string) (any, error) {
	return "arn:aws:sqs:us-east-1:1:" + id, nil
}
func (benchResolver) ImportValue(name string) (any, error) { return "v-" + name, nil }

var benchPseudo = Pseudo{AccountID: "123456789012", Region: "us-east-1", StackName: "bench",
	StackID: "arn:aws:cloudformation:us-east-1:123456789012:stack/bench/1"}

// bigTemplateJSON is bigTemplate written as JSON.
func bigTemplateJSON(tb testing.TB, n int) []byte {
	root, err := parseBody("bench.yaml", bigTemplate(n))
	if err != nil {
		tb.Fatal(err)
	}
	out, jerr := json.MarshalIndent(root.Literal(), "", "  ")
	if jerr != nil {
		tb.Fatal(jerr)
	}
	return out
}

func BenchmarkParseValidate(b *testing.B) {
	for _, n := range []int{500} {
		for _, format := range []string{"json", "yaml"} {
			body := bigTemplate(n)
			if format == "json" {
				body = bigTemplateJSON(b, n)
			}
			b.Run(fmt.Sprintf("%d/%s", n, format), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for i := 0; i < b.N; i++ {
					if _, err := Parse("bench."+format, body); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkYAMLLibrary is the floor under ParseValidate/500/yaml: the YAML
// library reading the same body into its node tree, nothing else.
func BenchmarkYAMLLibrary(b *testing.B) {
	body := bigTemplate(500)
	b.Run("500", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(body)))
		for i := 0; i < b.N; i++ {
			var n yaml.Node
			if err := yaml.Unmarshal(body, &n); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkBind(b *testing.B) {
	t, err := Parse("bench.yaml", bigTemplate(500))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("500", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := t.Bind(BindInput{Pseudo: benchPseudo}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkResolve resolves every property of every resource of a bound
// template; 10000 shows that the cost is linear (the quotas are lifted).
func BenchmarkResolve(b *testing.B) {
	for _, n := range []int{500, 10000} {
		t, err := buildWith("bench.yaml", mustTree(b, bigTemplate(n)), nil, false)
		if err != nil {
			b.Fatal(err)
		}
		bound, err := t.Bind(BindInput{Pseudo: benchPseudo})
		if err != nil {
			b.Fatal(err)
		}
		resources := bound.Resources()
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, r := range resources {
					if _, err := bound.Properties(r.LogicalID, benchResolver{}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func mustTree(tb testing.TB, body []byte) *Node {
	root, err := parseBody("bench.yaml", body)
	if err != nil {
		tb.Fatal(err)
	}
	return root
}

// BenchmarkParseTree is the parsing half of ParseValidate: the body read
// into a linked tree of Nodes, no checks.
func BenchmarkParseTree(b *testing.B) {
	for _, format := range []string{"json", "yaml"} {
		body := bigTemplate(500)
		if format == "json" {
			body = bigTemplateJSON(b, 500)
		}
		b.Run("500/"+format, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(body)))
			for i := 0; i < b.N; i++ {
				if _, err := parseBody("bench."+format, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidate is the other half: the checks of Parse on a parsed
// tree (the tree is parsed again outside the timer, since the checks mark
// it).
func BenchmarkValidate(b *testing.B) {
	body := bigTemplate(500)
	b.Run("500", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			root := mustTree(b, body)
			b.StartTimer()
			if _, err := build("bench.yaml", root, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
