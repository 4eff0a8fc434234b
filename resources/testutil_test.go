package resources

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// sharedDir finds ../shared beside the module root, or skips the test.
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("no go.mod above the test directory")
		}
		dir = parent
	}
	p := filepath.Join(dir, "..", "shared", sub)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is absent (it lives beside the repository as ../shared); skipping", p)
	}
	return p
}

type sample struct {
	Create map[string]any `json:"create"`
	Update map[string]any `json:"update"`
}

func loadSamples(t testing.TB) map[string]sample {
	t.Helper()
	data, err := os.ReadFile("testdata/samples.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := decodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sample{}
	for typ, s := range v.(map[string]any) {
		m := s.(map[string]any)
		out[typ] = sample{Create: m["create"].(map[string]any), Update: m["update"].(map[string]any)}
	}
	return out
}

const testStack = "arn:aws:cloudformation:us-east-1:123456789012:stack/demo/0a1b2c3d-0000-4000-8000-000000000000"

func newReq(a Action, logical, token string, desired map[string]any) *Request {
	return &Request{
		Action: a, ClientRequestToken: token, DesiredResourceState: desired,
		AWSAccountID: "123456789012", AWSPartition: "aws", Region: "us-east-1",
		LogicalResourceIdentifier: logical, StackID: testStack, Attempt: 1,
	}
}

func drive(t testing.TB, p Handler, req *Request) *ProgressEvent {
	t.Helper()
	res, err := Drive(context.Background(), p, req, 0)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Action, req.LogicalResourceIdentifier, err)
	}
	return res.Last()
}

// registryProvider is the provider of typ in reg, failing the test when
// reg has none.
func registryProvider(t testing.TB, reg *Registry, typ string) Provider {
	t.Helper()
	p, err := reg.Provider(typ)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// attrStrings is Fn::GetAtt of a list-of-strings attribute.
func attrStrings(t testing.TB, p Provider, model map[string]any, attr string) []string {
	t.Helper()
	v, err := p.GetAtt(model, attr)
	if err != nil {
		t.Fatalf("GetAtt %s: %v", attr, err)
	}
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("GetAtt %s = %v, want a list", attr, v)
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			t.Fatalf("GetAtt %s = %v, want strings", attr, v)
		}
		out = append(out, s)
	}
	return out
}
