package resources

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// checkSchemaDoc is a valid user schema the cases of TestSchemaCheck break
// one part of at a time.
const checkSchemaDoc = `{"typeName": "Acme::Thing::Widget", "description": "a widget",
 "properties": {
  "Name": {"type": "string", "pattern": "^[a-z]+$"},
  "Arn": {"type": "string"},
  "Tags": {"type": "array", "items": {"$ref": "#/definitions/Tag"}},
  "Labels": {"type": "object", "patternProperties": {"^[a-z]+$": {"type": "string"}}},
  "Free": {"type": "object"}
 },
 "definitions": {"Tag": {"type": "object", "properties": {"Key": {"type": "string"}, "Value": {"type": "string"}}}},
 "primaryIdentifier": ["/properties/Name"],
 "additionalIdentifiers": [["/properties/Arn"]],
 "readOnlyProperties": ["/properties/Arn"],
 "createOnlyProperties": ["/properties/Name", "/properties/Tags/*/Key", "/properties/Labels/anything", "/properties/Free/any/depth"],
 "additionalProperties": false}`

func TestSchemaCheck(t *testing.T) {
	for _, c := range []struct {
		name, from, to string
		want           string // "" when the schema is valid
	}{
		{"valid", "", "", ""},
		{"a type that is not JSON's", `"Arn": {"type": "string"}`, `"Arn": {"type": "strin"}`,
			`at /properties/Arn/type: "strin" is not a JSON type`},
		{"a pattern neither engine compiles", `"^[a-z]+$"}`, `"[("}`,
			`at /properties/Name/pattern: pattern "[(" is not a regular expression (error parsing regexp: unterminated [] set`},
		{"a pattern property neither engine compiles", `{"^[a-z]+$": {"type": "string"}}`, `{"^[a-z+$": {"type": "string"}}`,
			`at /properties/Labels/patternProperties: pattern "^[a-z+$" is not a regular expression`},
		{"a lookahead compiles on regexp2", `"^[a-z]+$"}`, `"^(?!x)[a-z]+$"}`, ""},
		{"a $ref that names nothing", `{"$ref": "#/definitions/Tag"}`, `{"$ref": "#/definitions/Tags"}`,
			`at /properties/Tags/items/$ref: $ref "#/definitions/Tags" names nothing in the schema`},
		{"a length that is not a number", `"Arn": {"type": "string"}`, `"Arn": {"type": "string", "maxLength": "9"}`,
			`at /properties/Arn/maxLength: maxLength is a non-negative integer`},
		{"primaryIdentifier names no property", `"primaryIdentifier": ["/properties/Name"]`, `"primaryIdentifier": ["/properties/Nme"]`,
			`primaryIdentifier/0 is /properties/Nme: /properties defines no Nme (it defines Arn, Free, Labels, Name, Tags)`},
		{"a pointer without /properties", `"readOnlyProperties": ["/properties/Arn"]`, `"readOnlyProperties": ["Arn"]`,
			`readOnlyProperties/0 is Arn: a pointer to a property starts with "/properties/"`},
		{"a nested member no definition has", `"/properties/Tags/*/Key"`, `"/properties/Tags/*/Kay"`,
			`createOnlyProperties/1 is /properties/Tags/*/Kay: /properties/Tags/* defines no Kay (it defines Key, Value)`},
		{"an additional identifier", `[["/properties/Arn"]]`, `[["/properties/Arn"], ["/properties/Id"]]`,
			`additionalIdentifiers/1/0 is /properties/Id: /properties defines no Id`},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := strings.Replace(checkSchemaDoc, c.from, c.to, 1)
			if doc == checkSchemaDoc && c.from != "" {
				t.Fatalf("%q is not in the schema", c.from)
			}
			s, err := ParseSchema("widget.json", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			err = s.Check()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("valid schema refused: %v", err)
			case c.want == "":
				return
			case err == nil:
				t.Fatalf("accepted, want %q", c.want)
			case !strings.HasPrefix(err.Error(), "widget.json: ") || !strings.Contains(err.Error(), c.want):
				t.Fatalf("got  %v\nwant widget.json: ...%s", err, c.want)
			}
		})
	}
}

// Every schema stacksim ships passes Check: the registry's (reduced to its
// facts) and the embedded ones. A user's directory of the registry's own
// files (--schemas ../shared/schemas/us-east-1) is refused nothing. Under
// -race or -short, one registry type in ten and not the directory (make
// test runs it in full without the race detector).
func TestShippedSchemasPassCheck(t *testing.T) {
	every := 1
	if raceEnabled || testing.Short() {
		every = 10
	}
	for _, typ := range EmbeddedTypes() {
		s, _, err := EmbeddedSchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(); err != nil {
			t.Errorf("embedded %s: %v", typ, err)
		}
	}
	for i, typ := range RegistryTypes() {
		if i%every != 0 {
			continue
		}
		s, _, err := RegistrySchema(typ)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Check(); err != nil {
			t.Errorf("registry %s: %v", typ, err)
		}
	}
	if every > 1 {
		return
	}
	all, err := LoadSchemaDir(sharedDir(t, "schemas/us-east-1"))
	if err != nil {
		t.Fatal(err)
	}
	for typ, s := range all {
		if err := s.Check(); err != nil {
			t.Errorf("registry file of %s: %v", typ, err)
		}
	}
}

// Registry.CheckSchema checks the schemas users give (a --schemas file, a
// registered handler's), not the shipped ones; MisnamedSchema finds a file
// named for a type that declares another.
func TestRegistryCheckSchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, doc string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("acme-thing-widget.json", strings.Replace(checkSchemaDoc, `"type": "string", "pattern"`, `"type": "strin", "pattern"`, 1))
	write("acme-thing-gadget.json", strings.Replace(checkSchemaDoc, "Widget", "Gadgt", 1))
	// a broken override of a registry type is the user's too
	write("aws-kinesis-stream.json", `{"typeName": "AWS::Kinesis::Stream", "properties": {"Name": {"type": 1}}, "primaryIdentifier": ["/properties/Name"]}`)
	reg := NewRegistry(RegistryOptions{SchemaDir: dir})
	defer reg.Close()

	for typ, want := range map[string]string{
		"Acme::Thing::Widget":  `acme-thing-widget.json: compile schema: at /properties/Name/type: "strin" is not a JSON type`,
		"AWS::Kinesis::Stream": "aws-kinesis-stream.json: compile schema: at /properties/Name/type: type is a type name or an array of them",
	} {
		if err := reg.CheckSchema(typ); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want ...%s", typ, err, want)
		}
	}
	for _, typ := range []string{"AWS::S3::Bucket", "AWS::ECS::Cluster", "Custom::X", "Acme::Thing::Gadget", "Acme::Nothing::Here"} {
		if err := reg.CheckSchema(typ); err != nil {
			t.Errorf("%s: %v", typ, err)
		}
	}
	if got, want := reg.MisnamedSchema("Acme::Thing::Gadget"), "acme-thing-gadget.json declares typeName Acme::Thing::Gadgt, not Acme::Thing::Gadget"; !strings.HasSuffix(got, want) {
		t.Errorf("MisnamedSchema: %q, want ...%q", got, want)
	}
	for _, typ := range []string{"Acme::Thing::Gadgt", "Acme::Nothing::Here", "AWS::S3::Bucket"} {
		if got := reg.MisnamedSchema(typ); got != "" {
			t.Errorf("MisnamedSchema(%s) = %q", typ, got)
		}
	}

	// a file that does not parse is its type's problem, and, found looking
	// for a type the directory has no file of its registry name for, every
	// such type's
	write("acme-thing-broken.json", `{"typeName": "Acme::Thing::Broken",`)
	reg2 := NewRegistry(RegistryOptions{SchemaDir: dir})
	defer reg2.Close()
	broken := filepath.Join(dir, "acme-thing-broken.json") + ": not a resource schema: line 1, column 35: unexpected end of JSON input"
	if err := reg2.CheckSchema("Acme::Thing::Broken"); err == nil || err.Error() != broken {
		t.Errorf("Acme::Thing::Broken: got %v\nwant %s", err, broken)
	}
	for _, typ := range []string{"AWS::ECS::Cluster", "Acme::Nothing::Here"} {
		want := "looking for it in --schemas " + dir + ": " + broken
		if err := reg2.CheckSchema(typ); err == nil || err.Error() != want {
			t.Errorf("%s: got %v\nwant %s", typ, err, want)
		}
	}
	if err := reg2.CheckSchema("AWS::S3::Bucket"); err != nil {
		t.Errorf("AWS::S3::Bucket, embedded: %v", err)
	}

	// a registered handler's schema is checked; a Go handler of a shipped
	// schema passes
	bad, err := ParseSchema("handler-schema.json", []byte(strings.Replace(checkSchemaDoc, `"/properties/Arn"]`, `"/properties/Arm"]`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	h := HandlerFuncs{CreateFunc: func(context.Context, *Request) (*ProgressEvent, error) { return Success(nil), nil }}
	if err := reg.Register("Acme::Thing::Widget", bad, h); err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckSchema("Acme::Thing::Widget"); err == nil || !strings.Contains(err.Error(), "handler-schema.json: additionalIdentifiers/0/0 is /properties/Arm") {
		t.Errorf("registered: %v", err)
	}
	topic, _, _ := EmbeddedSchema("AWS::SNS::Topic")
	if err := reg.Register("AWS::SNS::Topic", topic, h); err != nil {
		t.Fatal(err)
	}
	if err := reg.CheckSchema("AWS::SNS::Topic"); err != nil {
		t.Errorf("registered AWS::SNS::Topic: %v", err)
	}
}

// A --schemas file of a type stacksim embeds a schema of is not used, and
// the log says so once, when the type's provider is made.
func TestSchemasFileOfEmbeddedTypeWarned(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "aws-sqs-queue.json")
	doc := `{"typeName": "AWS::SQS::Queue", "properties": {"QueueName": {"type": "string"}}, "primaryIdentifier": ["/properties/QueueName"]}`
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zap.WarnLevel)
	reg := NewRegistry(RegistryOptions{SchemaDir: dir, Logger: zap.New(core)})
	defer reg.Close()
	for range 2 {
		p, err := reg.Provider("AWS::SQS::Queue")
		if err != nil || !strings.HasPrefix(p.Schema().Source, "embedded:") {
			t.Fatalf("%v %v", p, err)
		}
	}
	if _, err := reg.Provider("AWS::SNS::Topic"); err != nil {
		t.Fatal(err)
	}
	got := logs.All()
	if len(got) != 1 || !strings.Contains(got[0].Message, "the file is not used") || got[0].ContextMap()["file"] != path || got[0].ContextMap()["type"] != "AWS::SQS::Queue" {
		t.Fatalf("logged %+v", got)
	}
}
