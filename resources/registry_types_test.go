package resources

import (
	"context"
	"strings"
	"testing"
)

// What DescribeType tells of each kind of type the registry serves.
func TestRegistryDescribeType(t *testing.T) {
	reg := NewRegistry(RegistryOptions{})
	defer reg.Close()
	mine, err := ParseSchema("mine.json", []byte(`{"typeName": "MyCo::Queue::Q", "description": "mine",
 "properties": {"Name": {"type": "string"}}, "primaryIdentifier": ["/properties/Name"],
 "createOnlyProperties": ["/properties/Name"], "additionalProperties": false}`))
	if err != nil {
		t.Fatal(err)
	}
	h := HandlerFuncs{CreateFunc: func(context.Context, *Request) (*ProgressEvent, error) { return Success(nil), nil }}
	if err := reg.Register("MyCo::Queue::Q", mine, h); err != nil {
		t.Fatal(err)
	}
	s, _, _ := EmbeddedSchema("AWS::SNS::Topic")
	if err := reg.Register("AWS::SNS::Topic", s, h); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typeName         string
		found, private   bool
		mutable          bool
		schemaHas, descr string
	}{
		{typeName: "MyCo::Queue::Q", found: true, private: true, schemaHas: `"description": "mine"`, descr: "mine"}, // Name is create-only: IMMUTABLE
		{typeName: "AWS::SNS::Topic", found: true, private: true, mutable: true, schemaHas: "x-stacksim"},           // the user's handler of an AWS type
		{typeName: "AWS::SQS::Queue", found: true, mutable: true, schemaHas: `"typeName":"AWS::SQS::Queue"`},        // embedded: the registry's facts are shown
		{typeName: "AWS::CDK::Metadata"}, // stacksim's own, not a registry type
		{typeName: "Custom::Anything"},   // custom resources are not registry types
		{typeName: "AWS::CloudFormation::CustomResource", found: true, mutable: true, schemaHas: `"ServiceToken"`}, // a registry type
		{typeName: "not a type"},
	} {
		d, ok, err := reg.DescribeType(c.typeName)
		if err != nil || ok != c.found {
			t.Fatalf("%s: found %v, %v", c.typeName, ok, err)
		}
		if !ok {
			continue
		}
		if d.Private != c.private || d.Mutable != c.mutable || !strings.Contains(string(d.Schema), c.schemaHas) || (c.descr != "" && d.Description != c.descr) {
			t.Fatalf("%s: private %v, mutable %v, description %q, schema %.200s", c.typeName, d.Private, d.Mutable, d.Description, d.Schema)
		}
		if strings.Contains(string(d.Schema), "x-stacksim") != (c.typeName == "AWS::SNS::Topic") {
			t.Fatalf("%s: stacksim's overlay shown: %s", c.typeName, d.Schema)
		}
	}
	entries, err := reg.DescribedTypes()
	if err != nil {
		t.Fatal(err)
	}
	var private []string
	for _, e := range entries {
		if e.Private {
			private = append(private, e.TypeName)
		}
	}
	if len(entries) != len(RegistryTypes())+1 || strings.Join(private, " ") != "AWS::SNS::Topic MyCo::Queue::Q" {
		t.Fatalf("%d types, private %v", len(entries), private)
	}
}
