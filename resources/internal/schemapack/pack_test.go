package schemapack

import (
	"bytes"
	"errors"
	"testing"
)

func TestReduceKeepsFactsOnly(t *testing.T) {
	raw := []byte(`{"typeName": "AWS::Demo::Thing", "description": "d", "sourceUrl": "u",
	 "properties": {"Name": {"type": "string", "description": "x", "pattern": "^[a-z<>]+$", "examples": ["a"]},
	   "Arn": {"$ref": "#/definitions/Arn", "relationshipRef": {"typeName": "AWS::X::Y"}},
	   "Items": {"type": "array", "insertionOrder": false, "items": {"type": "object", "title": "t",
	     "properties": {"Key": {"type": "string", "minLength": 1}}, "oneOf": [{"required": ["Key"], "description": "d"}]}}},
	 "definitions": {"Arn": {"type": "string", "maxLength": 2048, "description": "an ARN"}},
	 "primaryIdentifier": ["/properties/Arn"], "readOnlyProperties": ["/properties/Arn"],
	 "handlers": {"create": {"permissions": ["x:Y"], "timeoutInMinutes": 30}, "read": {"permissions": []}},
	 "additionalProperties": false, "propertyTransform": {"/properties/Name": "$lowercase(Name)"}}`)
	e, err := Reduce(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"additionalProperties":false,"definitions":{"Arn":{"maxLength":2048,"type":"string"}},` +
		`"handlers":{"create":{"timeoutInMinutes":30}},"primaryIdentifier":["/properties/Arn"],` +
		`"properties":{"Arn":{"$ref":"#/definitions/Arn"},"Items":{"insertionOrder":false,"items":{"oneOf":[{"required":["Key"]}],"properties":{"Key":{"minLength":1,"type":"string"}},"type":"object"},"type":"array"},` +
		`"Name":{"pattern":"^[a-z<>]+$","type":"string"}},"readOnlyProperties":["/properties/Arn"],"typeName":"AWS::Demo::Thing"}`
	if e.Name != "AWS::Demo::Thing" || string(e.Doc) != want {
		t.Fatalf("got %s %s\nwant %s", e.Name, e.Doc, want)
	}
	if _, err := Reduce([]byte(`{"typeName": "My::Org::Thing::MODULE", "properties": {}}`)); !errors.Is(err, ErrNotResource) {
		t.Fatalf("a module: %v", err)
	}
	if _, err := Reduce([]byte(`{"typeName": "Module"}`)); !errors.Is(err, ErrNotResource) {
		t.Fatalf("module.json: %v", err)
	}
}

func TestPackRoundTrip(t *testing.T) {
	var es []Entry
	for _, n := range []string{"AWS::B::Two", "AWS::A::One", "AWS::C::Three"} {
		es = append(es, Entry{Name: n, Doc: []byte(`{"typeName":"` + n + `","properties":{"Tags":{"type":"array","items":{"$ref":"#/definitions/Tag"}}}}`)})
	}
	data, err := Encode(es)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Encode(es)
	if !bytes.Equal(data, again) {
		t.Fatal("Encode is not deterministic")
	}
	p, err := Open(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Names(); len(got) != 3 || got[0] != "AWS::A::One" || got[2] != "AWS::C::Three" {
		t.Fatalf("names %v", got)
	}
	for _, e := range es {
		doc, ok, err := p.Doc(e.Name)
		if err != nil || !ok || !bytes.Equal(doc, e.Doc) {
			t.Fatalf("%s: %s %v %v", e.Name, doc, ok, err)
		}
	}
	if _, ok, err := p.Doc("AWS::S3::Buckett"); ok || err != nil {
		t.Fatalf("an absent type: %v %v", ok, err)
	}
	if p.Has("AWS::S3::Buckett") || !p.Has("AWS::B::Two") {
		t.Fatal("Has")
	}
	for _, bad := range [][]byte{nil, []byte("stacksim-schemas\x00\x02"), data[:40], append([]byte("x"), data...)} {
		if _, err := Open(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("a corrupt pack (%d bytes) opened: %v", len(bad), err)
		}
	}
}

func FuzzOpen(f *testing.F) {
	data, _ := Encode([]Entry{{Name: "AWS::A::B", Doc: []byte(`{"typeName":"AWS::A::B"}`)}})
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Open(b)
		if err != nil {
			return
		}
		for _, n := range p.Names() {
			_, _, _ = p.Doc(n)
		}
	})
}
