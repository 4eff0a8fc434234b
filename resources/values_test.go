package resources

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestStringifyAndCoerce(t *testing.T) {
	in := map[string]any{"DelaySeconds": json.Number("8"), "FifoQueue": true, "Tags": []any{map[string]any{"Key": "n", "Value": 3}}, "QueueName": "q"}
	s := StringifyModel(in)
	want := map[string]any{"DelaySeconds": "8", "FifoQueue": "true", "Tags": []any{map[string]any{"Key": "n", "Value": "3"}}, "QueueName": "q"}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("Stringify: %v", s)
	}
	if in["DelaySeconds"] != json.Number("8") {
		t.Fatal("Stringify changed its input")
	}
	sch, _, _ := EmbeddedSchema("AWS::SQS::Queue")
	c := sch.Coerce(s)
	if c["DelaySeconds"] != json.Number("8") || c["FifoQueue"] != true || c["QueueName"] != "q" || c["Tags"].([]any)[0].(map[string]any)["Value"] != "3" {
		t.Fatalf("Coerce: %#v", c)
	}
	// A value that does not parse is left for validation to report.
	if v := sch.Coerce(map[string]any{"DelaySeconds": "soon"})["DelaySeconds"]; v != "soon" {
		t.Fatalf("Coerce of garbage: %v", v)
	}
	if !LooseEqual(json.Number("8"), "8") || !LooseEqual(true, "true") || LooseEqual("8", "9") || !Equal(json.Number("8.0"), 8) {
		t.Fatal("LooseEqual/Equal")
	}
}

func TestPointers(t *testing.T) {
	m := map[string]any{"A": map[string]any{"B": "x"}, "L": []any{map[string]any{"K": "1", "W": "a"}, map[string]any{"K": "2", "W": "b"}}, "a/b": "slash"}
	if v, ok := Get(m, "/properties/A/B"); !ok || v != "x" {
		t.Fatal("Get nested")
	}
	if v, ok := Get(m, "/L/1/K"); !ok || v != "2" {
		t.Fatal("Get index")
	}
	if v, ok := Get(m, "/a~1b"); !ok || v != "slash" {
		t.Fatal("Get escaped")
	}
	if got := GetAll(m, "/properties/L/*/K"); !reflect.DeepEqual(got, []any{"1", "2"}) {
		t.Fatalf("GetAll %v", got)
	}
	if err := Set(m, "/properties/N/O/P", "deep"); err != nil || m["N"].(map[string]any)["O"].(map[string]any)["P"] != "deep" {
		t.Fatalf("Set deep: %v", err)
	}
	if err := Set(m, "/L/*/W", "z"); err != nil || GetAll(m, "/L/*/W")[1] != "z" {
		t.Fatalf("Set *: %v", err)
	}
	if err := Set(m, "/A/B/C", 1); err == nil || !strings.Contains(err.Error(), "inside a string") {
		t.Fatalf("Set through a scalar: %v", err)
	}
	if !Delete(m, "/L/*/W") || Has(m, "/L/*/W") {
		t.Fatal("Delete *")
	}
	if Delete(m, "/nope/x") {
		t.Fatal("Delete of nothing")
	}
	if !PointerMatches("/properties/L/*/K", "/properties/L/3/K/deeper") || PointerMatches("/properties/L/*/K", "/properties/L/x/K") {
		t.Fatal("PointerMatches")
	}
}

func TestGeneratedNames(t *testing.T) {
	e := newEnv(&Request{StackID: testStack, LogicalResourceIdentifier: "MyQueue", ClientRequestToken: "t1"}, 1, Epoch, nil)
	name := e.generateName(&nameSpec{Property: "QueueName", MaxLength: 80}, "")
	if !strings.HasPrefix(name, "demo-MyQueue-") || len(name) != len("demo-MyQueue-")+13 || strings.ToUpper(name[13:]) != name[13:] {
		t.Fatalf("name %q", name)
	}
	// Same inputs, same name; another token, another name.
	if again := e.generateName(&nameSpec{Property: "QueueName", MaxLength: 80}, ""); again != name {
		t.Fatal("not deterministic")
	}
	e2 := newEnv(&Request{StackID: testStack, LogicalResourceIdentifier: "MyQueue", ClientRequestToken: "t2"}, 1, Epoch, nil)
	if other := e2.generateName(&nameSpec{Property: "QueueName", MaxLength: 80}, ""); other == name {
		t.Fatal("a new token gave the same name")
	}
	// A rollback's create with the operation's token: another name (the
	// forward phase's resource may still stand, awaiting the cleanup).
	rb := newEnv(&Request{StackID: testStack, LogicalResourceIdentifier: "MyQueue", ClientRequestToken: "t1", Phase: PhaseRollback}, 1, Epoch, nil)
	if other := rb.generateName(&nameSpec{Property: "QueueName", MaxLength: 80}, ""); other == name {
		t.Fatal("a rollback's create gave the forward create's name")
	}
	// Truncation keeps both parts, within the limit.
	long := newEnv(&Request{StackID: "arn:aws:cloudformation:us-east-1:1:stack/" + strings.Repeat("s", 60) + "/x",
		LogicalResourceIdentifier: "AVeryLongLogicalIdentifierForTheFunction", ClientRequestToken: "t"}, 1, Epoch, nil)
	fn := long.generateName(&nameSpec{Property: "FunctionName", MaxLength: 64}, "")
	if len(fn) != 64 || !strings.HasPrefix(fn, "sssss") || !strings.Contains(fn, "-AVeryLong") {
		t.Fatalf("truncated %q (%d)", fn, len(fn))
	}
	s3 := long.generateName(&nameSpec{Property: "BucketName", MaxLength: 63, Lower: true, RandomLength: 12}, "")
	if len(s3) > 63 || strings.ToLower(s3) != s3 {
		t.Fatalf("bucket %q", s3)
	}
	fifo := e.generateName(&nameSpec{Property: "QueueName", MaxLength: 80}, ".fifo")
	if !strings.HasSuffix(fifo, ".fifo") {
		t.Fatal(fifo)
	}
	ssm := e.generateName(&nameSpec{Property: "Name", Style: "ssm", RandomLength: 12}, "")
	if !strings.HasPrefix(ssm, "CFN-MyQueue-") {
		t.Fatal(ssm)
	}
}

// TestOrderIndependence: the ids of two resources do not depend on which is
// created first.
func TestOrderIndependence(t *testing.T) {
	ids := func(order []string) map[string]string {
		reg := NewRegistry(RegistryOptions{Seed: 42})
		p, _ := reg.Provider("AWS::EC2::VPC")
		out := map[string]string{}
		for _, logical := range order {
			ev := drive(t, p, newReq(ActionCreate, logical, "tok-"+logical, map[string]any{"CidrBlock": "10.0.0.0/16"}))
			out[logical], _ = p.PhysicalID(ev.ResourceModel)
		}
		return out
	}
	a, b := ids([]string{"VpcA", "VpcB"}), ids([]string{"VpcB", "VpcA"})
	if !reflect.DeepEqual(a, b) || a["VpcA"] == a["VpcB"] || !strings.HasPrefix(a["VpcA"], "vpc-") || len(a["VpcA"]) != 21 {
		t.Fatalf("%v vs %v", a, b)
	}
}

func TestGenericBehaviours(t *testing.T) {
	reg := NewRegistry(RegistryOptions{Seed: 1, ListPageSize: 2})
	p, _ := reg.Provider("AWS::SQS::Queue")
	named := map[string]any{"QueueName": "orders", "DelaySeconds": "5"}
	ev := drive(t, p, newReq(ActionCreate, "Q", "t1", named))
	if ev.ResourceModel["QueueUrl"] != "https://sqs.us-east-1.amazonaws.com/123456789012/orders" || ev.ResourceModel["DelaySeconds"] != json.Number("5") {
		t.Fatalf("create %v", ev.ResourceModel)
	}
	// An idempotent retry (same token) answers the same queue.
	if again := drive(t, p, newReq(ActionCreate, "Q", "t1", named)); again.Status != StatusSuccess {
		t.Fatalf("retry %v", again)
	}
	// Another request for the same name: AlreadyExists.
	if dup := drive(t, p, newReq(ActionCreate, "Q2", "t9", named)); dup.ErrorCode != ErrAlreadyExists {
		t.Fatalf("duplicate %v", dup)
	}
	// createOnly change: NotUpdatable.
	up := newReq(ActionUpdate, "Q", "t2", map[string]any{"QueueName": "renamed"})
	up.PhysicalResourceID = ev.ResourceModel["QueueUrl"].(string)
	if bad := drive(t, p, up); bad.ErrorCode != ErrNotUpdatable || !strings.Contains(bad.Message, "/properties/QueueName") {
		t.Fatalf("NotUpdatable %v", bad)
	}
	// Invalid input: InvalidRequest worded as CloudFormation words it.
	inv := drive(t, p, newReq(ActionCreate, "Q3", "t3", map[string]any{"DelaySeconds": "soon", "Colour": "red"}))
	if inv.ErrorCode != ErrInvalidRequest || !strings.Contains(inv.Message, "Properties validation failed for resource Q3 with message: [#/DelaySeconds: expected type: Integer, found: String, #: extraneous key [Colour] is not permitted]") {
		t.Fatalf("invalid %v", inv)
	}
	// The generated attributes: GetAtt, and an unknown one.
	if v, _ := p.GetAtt(ev.ResourceModel, "Arn"); v != "arn:aws:sqs:us-east-1:123456789012:orders" {
		t.Fatalf("Arn %v", v)
	}
	if _, err := p.GetAtt(ev.ResourceModel, "Colour"); err == nil || err.Error() != "Resource type AWS::SQS::Queue does not support attribute {Colour}" {
		t.Fatalf("unknown attribute: %v", err)
	}
	// List pages by two.
	for i := 0; i < 3; i++ {
		drive(t, p, newReq(ActionCreate, "More", "m"+string(rune('0'+i)), nil))
	}
	seen, tok := 0, ""
	for pages := 0; ; pages++ {
		r := &Request{Action: ActionList, NextToken: tok}
		lev := drive(t, p, r)
		seen += len(lev.ResourceModels)
		if len(lev.ResourceModels) > 2 || pages > 5 {
			t.Fatalf("page %v", lev)
		}
		if tok = lev.NextToken; tok == "" {
			break
		}
	}
	if seen != 4 {
		t.Fatalf("listed %d, want 4", seen)
	}
	if bad := drive(t, p, &Request{Action: ActionList, NextToken: "garbage"}); bad.ErrorCode != ErrInvalidRequest {
		t.Fatalf("bad token %v", bad)
	}
}

func TestWriteOnlyNeverReturned(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	p, _ := reg.Provider("AWS::RDS::DBInstance")
	res, err := Drive(t.Context(), p, newReq(ActionCreate, "Db", "t", map[string]any{"Engine": "postgres", "Port": "5432", "MasterUserPassword": "hunter22", "DBInstanceClass": "db.t3.micro"}), 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Elapsed < 7*60e9 || len(res.Events) < 8 {
		t.Fatalf("a DB instance took %v in %d events", res.Elapsed, len(res.Events))
	}
	for _, ev := range res.Events {
		if _, ok := ev.ResourceModel["MasterUserPassword"]; ok {
			t.Fatal("writeOnly property returned")
		}
	}
	if v, _ := p.GetAtt(res.Last().ResourceModel, "Endpoint.Port"); v != "5432" {
		t.Fatalf("Endpoint.Port %v", v)
	}
	// The cloud keeps it: it is the ground truth.
	objs, _ := reg.Cloud().List("AWS::RDS::DBInstance")
	if len(objs) != 1 || objs[0].Model["MasterUserPassword"] != "hunter22" || objs[0].LogicalID != "Db" || objs[0].StackID != testStack {
		t.Fatalf("cloud %+v", objs)
	}
}

func TestConcurrentCreatesOfOneName(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	p, _ := reg.Provider("AWS::Logs::LogGroup")
	const n = 8
	results := make(chan *ProgressEvent, n)
	for i := 0; i < n; i++ {
		go func(i int) {
			res, err := Drive(t.Context(), p, newReq(ActionCreate, "Logs", "tok-"+string(rune('a'+i)), map[string]any{"LogGroupName": "/app/logs"}), 0)
			if err != nil {
				t.Error(err)
			}
			results <- res.Last()
		}(i)
	}
	ok, exists := 0, 0
	for i := 0; i < n; i++ {
		switch ev := <-results; ev.ErrorCode {
		case "":
			ok++
		case ErrAlreadyExists:
			exists++
		default:
			t.Errorf("%v", ev)
		}
	}
	if ok != 1 || exists != n-1 {
		t.Fatalf("%d created, %d AlreadyExists", ok, exists)
	}
}
