package resources

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestLoadEveryRegistrySchema(t *testing.T) {
	t.Parallel() // compiling 1503 schemas takes a while under -race; overlap it
	dir := sharedDir(t, "schemas/us-east-1")
	start := time.Now()
	all, err := LoadSchemaDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loaded %d registry schemas from %s in %v", len(all), dir, time.Since(start))
	if len(all) < 1500 {
		t.Fatalf("loaded %d schemas, want the 1504 of the registry", len(all))
	}
	if testing.Short() {
		return
	}
	// Every schema compiles (leniently) and checks an empty model.
	failed := 0
	for _, name := range sortedTypes(all) {
		s := all[name]
		if err := s.CompileError(); err != nil {
			failed++
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := s.ValidateModel(map[string]any{}); err != nil {
			t.Errorf("%s: an empty model fails the contract validator: %v", name, err)
		}
	}
	t.Logf("compiled the validators of %d schemas", len(all)-failed)
}

func sortedTypes(m map[string]*Schema) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestEmbeddedSchemasMatchTheRegistry compares the facts of each embedded
// schema with the registry's.
func TestEmbeddedSchemasMatchTheRegistry(t *testing.T) {
	dir := sharedDir(t, "schemas/us-east-1")
	for _, typ := range EmbeddedTypes() {
		emb, _, err := EmbeddedSchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		if !InRegistry(typ) {
			continue // AWS::CDK::Metadata: CloudFormation accepts it, the registry does not list it
		}
		real, err := LoadSchemaFile(filepath.Join(dir, SchemaFileName(typ)))
		if err != nil {
			t.Errorf("%s: %v", typ, err)
			continue
		}
		for _, f := range []struct {
			name      string
			emb, real any
		}{
			{"primaryIdentifier", emb.PrimaryIdentifier, real.PrimaryIdentifier},
			{"additionalIdentifiers", emb.AdditionalIdentifiers, real.AdditionalIdentifiers},
			{"createOnlyProperties", sorted(emb.CreateOnlyProperties), sorted(real.CreateOnlyProperties)},
			{"conditionalCreateOnlyProperties", sorted(emb.ConditionalCreateOnlyProperties), sorted(real.ConditionalCreateOnlyProperties)},
			{"readOnlyProperties", sorted(emb.ReadOnlyProperties), sorted(real.ReadOnlyProperties)},
			{"writeOnlyProperties", sorted(emb.WriteOnlyProperties), sorted(real.WriteOnlyProperties)},
			{"properties", sortedKeys(emb.Properties()), sortedKeys(real.Properties())},
		} {
			a, _ := json.Marshal(f.emb)
			b, _ := json.Marshal(f.real)
			if string(a) != string(b) {
				t.Errorf("%s %s:\n embedded %s\n registry %s", typ, f.name, a, b)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func BenchmarkLoadSchemas(b *testing.B) {
	dir := sharedDir(b, "schemas/us-east-1")
	n := 0
	for b.Loop() {
		all, err := LoadSchemaDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		n = len(all)
	}
	b.ReportMetric(float64(n), "schemas")
}

func TestSchemaQueries(t *testing.T) {
	s, _, err := EmbeddedSchema("AWS::EC2::Instance")
	if err != nil || s == nil {
		t.Fatal(err)
	}
	cases := []struct {
		path          string
		create, condl bool
	}{
		{"/properties/ImageId", true, false},
		{"ImageId", true, false},
		{"/properties/NetworkInterfaces/0/SubnetId", true, false},
		{"/properties/InstanceType", false, true},
		{"/properties/BlockDeviceMappings/2/Ebs/VolumeSize", false, true},
		{"/properties/Tags/0/Value", false, false},
	}
	for _, c := range cases {
		if got := s.IsCreateOnly(c.path); got != c.create {
			t.Errorf("IsCreateOnly(%s) = %v", c.path, got)
		}
		if got := s.IsConditionalCreateOnly(c.path); got != c.condl {
			t.Errorf("IsConditionalCreateOnly(%s) = %v", c.path, got)
		}
	}
	if s.ReplacementStrategy() != CreateThenDelete || s.Timeout(ActionCreate) != DefaultTimeout {
		t.Errorf("defaults: %s %v", s.ReplacementStrategy(), s.Timeout(ActionCreate))
	}
	attrs := strings.Join(s.Attributes(), ",")
	for _, want := range []string{"AvailabilityZone", "InstanceId", "PrivateIp", "State.Code", "State.Name"} {
		if !strings.Contains(attrs, want) {
			t.Errorf("attributes %s lack %s", attrs, want)
		}
	}
	always, cond := s.ChangedCreateOnly(
		map[string]any{"ImageId": "ami-1", "InstanceType": "t3.micro"},
		map[string]any{"ImageId": "ami-2", "InstanceType": "t3.small"})
	if len(always) != 1 || always[0] != "/properties/ImageId" || len(cond) != 1 || cond[0] != "/properties/InstanceType" {
		t.Errorf("ChangedCreateOnly: %v %v", always, cond)
	}
	// A whole object replaced: its createOnly member's change is found.
	r, _, _ := EmbeddedSchema("AWS::ECR::Repository")
	always, _ = r.ChangedCreateOnly(
		map[string]any{"EncryptionConfiguration": map[string]any{"EncryptionType": "AES256"}},
		map[string]any{"EncryptionConfiguration": map[string]any{"EncryptionType": "KMS"}})
	if len(always) == 0 {
		t.Error("ChangedCreateOnly missed a nested createOnly change")
	}
}

func TestParseSchemaErrors(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"typeName": "A::B::C"`, "x.json: not a resource schema: line 1, column"},
		{`{"properties": {}}`, "has no typeName"},
		{`{"typeName": "A::B::C"}`, "A::B::C has no primaryIdentifier"},
		{`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "handlers": {"create": {"timeoutInMinutes": "x"}}}`, "timeoutInMinutes"},
		{`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "x-stacksim": {"values": [{"path": "/properties/Id", "value": "x", "when": "Scope=REGIONAL"}]}}`,
			`x.json: x-stacksim: value /properties/Id: its condition "Scope=REGIONAL" must start with /properties/`},
		{`{"typeName": "A::B::C", "properties": {"Id": {"type": "string"}}, "primaryIdentifier": ["/properties/Id"], "readOnlyProperties": ["/properties/Id"], "x-stacksim": {"liveAttributes": ["Blocks"]}}`,
			`x.json: x-stacksim: liveAttributes: Blocks is not an attribute of A::B::C`},
	}
	for _, c := range cases {
		if _, err := ParseSchema("x.json", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.doc, err, c.want)
		}
	}
	s, err := ParseSchema("x.json", []byte(`{"typeName": "A::B::C", "primaryIdentifier": ["/properties/Id"], "replacementStrategy": "delete_then_create", "handlers": {"create": {"timeoutInMinutes": 30}}}`))
	if err != nil || s.Timeout(ActionCreate) != 30*time.Minute || s.Timeout(ActionDelete) != DefaultTimeout || s.ReplacementStrategy() != DeleteThenCreate {
		t.Fatalf("%v %v", s, err)
	}
}
