package resources

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func TestRegistryResolutionOrder(t *testing.T) {
	dir := sharedDir(t, "schemas/us-east-1")
	core, logs := observer.New(zap.InfoLevel)
	reg := NewRegistry(RegistryOptions{SchemaDir: dir, Logger: zap.New(core), PermissiveTypes: true})
	defer reg.Close()

	// registered > embedded
	s, _, _ := EmbeddedSchema("AWS::SNS::Topic")
	mine := HandlerFuncs{CreateFunc: func(context.Context, *Request) (*ProgressEvent, error) {
		return Success(map[string]any{"TopicArn": "arn:mine"}), nil
	}}
	if err := reg.Register("AWS::SNS::Topic", s, mine); err != nil {
		t.Fatal(err)
	}
	p, _ := reg.Provider("AWS::SNS::Topic")
	if ev, _ := Invoke(context.Background(), p, &Request{Action: ActionCreate}); ev.ResourceModel["TopicArn"] != "arn:mine" {
		t.Fatalf("registered handler not used: %v", ev)
	}
	// embedded
	p, _ = reg.Provider("AWS::SQS::Queue")
	if !strings.HasPrefix(p.Schema().Source, "embedded:") {
		t.Fatalf("AWS::SQS::Queue from %s", p.Schema().Source)
	}
	// real schema from the directory
	p, err := reg.Provider("AWS::ECS::Cluster")
	if err != nil || !strings.HasSuffix(p.Schema().Source, "aws-ecs-cluster.json") {
		t.Fatalf("AWS::ECS::Cluster: %v %v", p, err)
	}
	// the registry's, without --schemas
	plain := NewRegistry(RegistryOptions{})
	p, err = plain.Provider("AWS::ECS::Cluster")
	if err != nil || p.Schema().Source != "registry:AWS::ECS::Cluster" {
		t.Fatalf("AWS::ECS::Cluster without --schemas: %v %v", p, err)
	}
	// unrecognized without PermissiveTypes
	if _, err := plain.Provider("AWS::S3::Buckett"); !IsUnrecognizedType(err) {
		t.Fatalf("AWS::S3::Buckett: %v", err)
	}
	if ok, err := plain.Recognized("AWS::S3::Buckett"); ok || err != nil {
		t.Fatalf("AWS::S3::Buckett recognized: %v %v", ok, err)
	}
	for _, typ := range []string{"AWS::S3::Bucket", "AWS::ECS::Cluster", "Alexa::ASK::Skill", "Custom::X", "AWS::CloudFormation::CustomResource"} {
		if ok, err := plain.Recognized(typ); !ok || err != nil {
			t.Fatalf("%s not recognized: %v", typ, err)
		}
	}
	// custom
	p, _ = reg.Provider("Custom::Anything")
	if _, ok := p.(*customProvider); !ok {
		t.Fatalf("Custom::Anything: %T", p)
	}
	// permissive, logged once
	for i := 0; i < 2; i++ {
		if p, _ = reg.Provider("Acme::Widget::Gadget"); p == nil {
			t.Fatal("Acme::Widget::Gadget: no provider, with permissive types on")
		}
	}
	reg2 := NewRegistry(RegistryOptions{Logger: zap.New(core), PermissiveTypes: true})
	reg2.Provider("Acme::Widget::Gadget")
	if n := logs.FilterMessageSnippet("simulated permissively").Len(); n != 2 {
		t.Fatalf("permissive notes: %d, want one per registry", n)
	}
	if _, err := reg.Provider("not a type"); err == nil {
		t.Fatal("a bad type name was accepted")
	}
}

func TestRealSchemaTypesSimulate(t *testing.T) {
	dir := sharedDir(t, "schemas/us-east-1")
	reg := NewRegistry(RegistryOptions{SchemaDir: dir, Seed: 5})
	cases := map[string]map[string]any{
		"AWS::ECS::Cluster":             {},
		"AWS::EC2::NatGateway":          {"SubnetId": "subnet-0123456789abcdef0"},
		"AWS::CloudFront::Distribution": {"DistributionConfig": map[string]any{"Enabled": "true", "DefaultCacheBehavior": map[string]any{"TargetOriginId": "o", "ViewerProtocolPolicy": "allow-all"}, "Origins": []any{map[string]any{"Id": "o", "DomainName": "example.com", "CustomOriginConfig": map[string]any{"OriginProtocolPolicy": "http-only"}}}}},
		"AWS::SNS::TopicPolicy":         {"Topics": []any{"arn:aws:sns:us-east-1:123456789012:t"}, "PolicyDocument": map[string]any{}},
	}
	for typ, props := range cases {
		p, err := reg.Provider(typ)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Drive(context.Background(), p, newReq(ActionCreate, "Thing", "t1", StringifyModel(props)), 0)
		if err != nil || res.Last().Status != StatusSuccess {
			t.Errorf("%s: %v %v", typ, res.Last(), err)
			continue
		}
		id, err := p.PhysicalID(res.Last().ResourceModel)
		t.Logf("%s: %s in %v: %v", typ, id, res.Elapsed, res.Last().ResourceModel)
		if err != nil {
			t.Error(err)
		}
	}
}

func TestPermissiveProvider(t *testing.T) {
	reg := NewRegistry(RegistryOptions{Seed: 9, PermissiveTypes: true})
	p, _ := reg.Provider("Acme::Widget::Gadget")
	ev := drive(t, p, newReq(ActionCreate, "Gadget", "t1", map[string]any{"Colour": "red", "Size": "8"}))
	if ev.Status != StatusSuccess || ev.ResourceModel["Colour"] != "red" {
		t.Fatalf("%v", ev)
	}
	ref, _ := p.Ref(ev.ResourceModel)
	if !strings.HasPrefix(ref.(string), "demo-Gadget-") {
		t.Fatalf("Ref %v", ref)
	}
	arn, _ := p.GetAtt(ev.ResourceModel, "Arn")
	if !strings.HasPrefix(arn.(string), "arn:aws:widget:us-east-1:123456789012:gadget/demo-Gadget-") {
		t.Fatalf("Arn %v", arn)
	}
	if v, _ := p.GetAtt(ev.ResourceModel, "Endpoint.Port"); v == nil {
		t.Fatal("no synthesized attribute")
	}
	up := newReq(ActionUpdate, "Gadget", "t2", map[string]any{"Colour": "blue"})
	up.PhysicalResourceID = ref.(string)
	if ev := drive(t, p, up); ev.Status != StatusSuccess || ev.ResourceModel["Colour"] != "blue" {
		t.Fatalf("update %v", ev)
	}
}
