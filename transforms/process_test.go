package transforms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

func tree(t *testing.T, body string) *template.Node {
	t.Helper()
	n, err := template.ParseTree("t.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// recorder is a set of macros that log their calls and answer as told.
type recorder struct {
	calls []string
	reqs  []*resources.MacroRequest
}

// tagger answers the fragment with a member Seen listing the macros that
// processed it (a map), or the fragment as it is.
func (r *recorder) tagger(name string) resources.MacroTarget {
	return resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
		r.calls = append(r.calls, name+" "+string(compact(req.Fragment)))
		r.reqs = append(r.reqs, req)
		var frag any
		if err := json.Unmarshal(req.Fragment, &frag); err != nil {
			return nil, err
		}
		if m, ok := frag.(map[string]any); ok {
			seen, _ := m["Seen"].(string)
			m["Seen"] = strings.TrimPrefix(seen+","+name, ",")
		}
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "SUCCESS", "fragment": frag})
	})
}

func compact(b []byte) []byte {
	var v any
	_ = json.Unmarshal(b, &v)
	out, _ := json.Marshal(v)
	return out
}

func (r *recorder) env(macros map[string]resources.MacroTarget) Env {
	return Env{File: "t.yaml", Region: "us-east-1", AccountID: "123456789012", Partition: "aws",
		Parameters: map[string]any{"Env": "prod", "Names": []any{"a", "b"}},
		Pseudo:     map[string]any{"AWS::Region": "us-east-1"},
		Macro: func(name string) (resources.MacroTarget, bool, error) {
			m, ok := macros[name]
			return m, ok, nil
		},
		RequestID: func(n int) string { return fmt.Sprintf("req-%d", n) }}
}

func TestOrder(t *testing.T) {
	// CloudFormation's example (template-macros.html): PolicyAdder, the
	// most deeply nested, first; then MyMacro before AWS::Serverless as
	// listed; here with a list of two at one place and a nested one.
	body := `
Transform: [First, Second]
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      Tags:
        Fn::Transform: {Name: Inner}
      Fn::Transform:
        - {Name: OuterA}
        - {Name: OuterB, Parameters: {Env: !Ref Env, Region: !Ref AWS::Region, Names: !Ref Names, Literal: x}}
`
	r := &recorder{}
	macros := map[string]resources.MacroTarget{}
	for _, n := range []string{"First", "Second", "Inner", "OuterA", "OuterB"} {
		macros[n] = r.tagger(n)
	}
	res, err := Process(context.Background(), tree(t, body), r.env(macros))
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range r.calls {
		order = append(order, strings.Fields(c)[0])
	}
	if got := strings.Join(order, " "); got != "Inner OuterA OuterB First Second" {
		t.Errorf("order %s, want Inner OuterA OuterB First Second\n%s", got, strings.Join(r.calls, "\n"))
	}
	// The snippet's fragment is its siblings, the inner one processed;
	// the template's is the template without its Transform section.
	if r.calls[1] != `OuterA {"Tags":{"Seen":"Inner"}}` {
		t.Errorf("OuterA got %s", r.calls[1])
	}
	if strings.Contains(r.calls[3], "Transform") || !strings.Contains(r.calls[3], `"Seen":"OuterA,OuterB"`) {
		t.Errorf("First got %s", r.calls[3])
	}
	req := r.reqs[2]
	params, _ := json.Marshal(req.Params)
	if string(params) != `{"Env":"prod","Literal":"x","Names":["a","b"],"Region":"us-east-1"}` || req.TransformID != "123456789012::OuterB" ||
		req.RequestID != "req-3" || req.AccountID != "123456789012" || req.Region != "us-east-1" || req.TemplateParameterValues["Env"] != "prod" {
		t.Errorf("OuterB's event: %+v, params %s", req, params)
	}
	out := string(res.Root.JSON())
	if !strings.Contains(out, `"Seen": "First,Second"`) || strings.Contains(out, "Transform") {
		t.Errorf("processed:\n%s", out)
	}
	if strings.Join(res.Ran, " ") != "Inner OuterA OuterB First Second" {
		t.Errorf("ran %v", res.Ran)
	}
}

func TestMacroAnswers(t *testing.T) {
	body := "Transform: M\nResources:\n  T:\n    Type: AWS::SNS::Topic\n"
	answer := func(v any) resources.MacroTarget {
		return resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
			if s, ok := v.(string); ok {
				return []byte(strings.ReplaceAll(s, "REQ", req.RequestID)), nil
			}
			return nil, v.(error)
		})
	}
	cases := []struct {
		name   string
		target resources.MacroTarget
		want   string
	}{
		{"failed with a message", answer(`{"requestId":"REQ","status":"failure","errorMessage":"bad Count","fragment":{}}`),
			"Transform 123456789012::M failed with: bad Count"},
		{"failed without one", answer(`{"requestId":"REQ","status":"FAILED"}`), "Transform 123456789012::M failed without an error message."},
		{"another requestId", answer(`{"requestId":"nope","status":"success","fragment":{}}`), "Received malformed response from transform 123456789012::M"},
		{"no requestId", answer(`{"status":"success","fragment":{}}`), "Received malformed response from transform 123456789012::M"},
		{"not JSON", answer(`hello`), "Received malformed response from transform 123456789012::M"},
		{"no fragment", answer(`{"requestId":"REQ","status":"success"}`), "Received malformed response from transform 123456789012::M"},
		{"not a template", answer(`{"requestId":"REQ","status":"success","fragment":"x"}`), "is not an object"},
		{"the function failed", answer(errors.New("exit status 1")), "Received malformed response from transform 123456789012::M"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{}
			_, err := Process(context.Background(), tree(t, body), r.env(map[string]resources.MacroTarget{"M": c.target}))
			var te *Error
			if !errors.As(err, &te) || !strings.Contains(te.Message, c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
		})
	}
	r := &recorder{}
	if _, err := Process(context.Background(), tree(t, body), r.env(nil)); err == nil || err.Error() != "No transform named 123456789012::M found. (a macro is made by a stack with an AWS::CloudFormation::Macro resource of that Name, in this account)" {
		t.Errorf("unknown macro: %v", err)
	}
	ok := answer(`{"requestId":"REQ","status":"Success","fragment":{"Resources":{"Q":{"Type":"AWS::SQS::Queue"}}}}`)
	res, err := Process(context.Background(), tree(t, body), r.env(map[string]resources.MacroTarget{"M": ok}))
	if err != nil || !strings.Contains(string(res.Root.JSON()), "AWS::SQS::Queue") {
		t.Errorf("status Success: %v", err)
	}
	bad := "Transform: {Name: M, Parameters: {Arn: !ImportValue x}}\nResources: {}\n"
	if _, err := Process(context.Background(), tree(t, bad), r.env(map[string]resources.MacroTarget{"M": ok})); err == nil ||
		!strings.Contains(err.Error(), "The value of parameter Arn under transform M must resolve to a string, number, boolean or a list of any of these.") {
		t.Errorf("an import in a parameter: %v", err)
	}
}

func TestSnippetScalarAndInclude(t *testing.T) {
	body := `
Resources:
  Bucket:
    Type: AWS::S3::Bucket
    Properties:
      Tags:
        - Key: Upper
          Value:
            Fn::Transform: {Name: String, Parameters: {InputString: !Ref Env, Operation: Upper}}
      Fn::Transform:
        Name: AWS::Include
        Parameters: {Location: s3://bucket/props.yaml}
`
	r := &recorder{}
	upper := resources.MacroFunc(func(_ context.Context, req *resources.MacroRequest) ([]byte, error) {
		s := strings.ToUpper(req.Params["InputString"].(string))
		return json.Marshal(map[string]any{"requestId": req.RequestID, "status": "success", "fragment": s})
	})
	env := r.env(map[string]resources.MacroTarget{"String": upper})
	var located string
	env.Include = func(loc string) (string, []byte, error) {
		located = loc
		return "props.yaml", []byte("BucketName: included\nVersioningConfiguration: {Status: Enabled}\n"), nil
	}
	res, err := Process(context.Background(), tree(t, body), env)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Root.JSON())
	// The snippet's members join the map's others (Tags, processed first).
	if located != "s3://bucket/props.yaml" || !strings.Contains(out, `"BucketName": "included"`) || !strings.Contains(out, `"Value": "PROD"`) {
		t.Errorf("include at %q:\n%s", located, out)
	}
	// Two includes at one place add up.
	two := "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      Fn::Transform:\n" +
		"        - {Name: AWS::Include, Parameters: {Location: s3://b/name.json}}\n        - {Name: AWS::Include, Parameters: {Location: s3://b/acl.json}}\n"
	env2 := env
	env2.Include = func(loc string) (string, []byte, error) {
		if strings.HasSuffix(loc, "name.json") {
			return loc, []byte(`{"BucketName": "n"}`), nil
		}
		return loc, []byte(`{"AccessControl": "Private"}`), nil
	}
	if res, err := Process(context.Background(), tree(t, two), env2); err != nil ||
		!strings.Contains(string(res.Root.JSON()), `"BucketName": "n"`) || !strings.Contains(string(res.Root.JSON()), `"AccessControl": "Private"`) {
		t.Errorf("two includes: %v", err)
	}
	env2.Include = func(loc string) (string, []byte, error) { return loc, []byte("BucketName: !Ref AWS::StackName\n"), nil }
	if _, err := Process(context.Background(), tree(t, two), env2); err == nil || !strings.Contains(err.Error(), "short form !Ref") {
		t.Errorf("a short form in a snippet: %v", err)
	}
	// The scalar a macro returns replaces the map that called it.
	body2 := strings.Replace(body, "      Fn::Transform:\n        Name: AWS::Include\n        Parameters: {Location: s3://bucket/props.yaml}\n", "", 1)
	res, err = Process(context.Background(), tree(t, body2), env)
	if err != nil || !strings.Contains(string(res.Root.JSON()), `"Value": "PROD"`) {
		t.Errorf("scalar: %v\n%s", err, res.Root.JSON())
	}
	env.Include = func(string) (string, []byte, error) {
		return "x.yaml", []byte("A:\n  Fn::Transform: {Name: AWS::Include, Parameters: {Location: s3://b/k}}\n"), nil
	}
	if _, err := Process(context.Background(), tree(t, body), env); err == nil || !strings.Contains(err.Error(), "Transform AWS::Include failed with: The specified S3 object's content should be valid Yaml/JSON.") {
		t.Errorf("nested include: %v", err)
	}
}

func TestLanguageExtensionsOrder(t *testing.T) {
	body := `
Transform: [AWS::LanguageExtensions, M]
Parameters:
  Names: {Type: CommaDelimitedList, Default: "a,b"}
Resources:
  Fn::ForEach::Topics:
    - Name
    - !Ref Names
    - Topic${Name}: {Type: AWS::SNS::Topic}
`
	r := &recorder{}
	res, err := Process(context.Background(), tree(t, body), r.env(map[string]resources.MacroTarget{"M": r.tagger("M")}))
	if err != nil {
		t.Fatal(err)
	}
	// M saw the loops expanded, and the result still declares the
	// extensions for what is left of them.
	if !strings.Contains(r.calls[0], `"Topica"`) || !strings.Contains(r.calls[0], `"Topicb"`) || strings.Contains(r.calls[0], "ForEach") {
		t.Errorf("M got %s", r.calls[0])
	}
	if got := string(res.Root.JSON()); !strings.Contains(got, `"Transform": "AWS::LanguageExtensions"`) {
		t.Errorf("processed:\n%s", got)
	}
}

func TestServerless(t *testing.T) {
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		t.Skipf("python3 cannot import samtranslator: %v", err)
	}
	body := `
Transform: AWS::Serverless-2016-10-31
Parameters:
  Stage: {Type: String, Default: prod}
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      InlineCode: "def handler(e, c): return e"
      Policies: [AmazonS3ReadOnlyAccess]
`
	r := &recorder{}
	env := r.env(nil)
	env.SAM = &Translator{}
	res, err := Process(context.Background(), tree(t, body), env)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Root.JSON())
	for _, want := range []string{`"AWS::Lambda::Function"`, `"AWS::IAM::Role"`, "arn:${AWS::Partition}:iam::aws:policy/AmazonS3ReadOnlyAccess"} {
		if !strings.Contains(out, want) && !strings.Contains(out, "arn:aws:iam::aws:policy/AmazonS3ReadOnlyAccess") {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	if strings.Contains(out, "AWS::Serverless") {
		t.Errorf("not expanded:\n%s", out)
	}
	again, err := Process(context.Background(), tree(t, body), env)
	if err != nil || string(again.Root.JSON()) != out {
		t.Errorf("a second run differs: %v", err)
	}
	bad := strings.Replace(body, "      Handler: index.handler\n", "", 1)
	bad = strings.Replace(bad, "InlineCode", "CodeUri: ./src\n      X", 1)
	if _, err := Process(context.Background(), tree(t, bad), env); err == nil ||
		!strings.HasPrefix(err.Error(), "Transform AWS::Serverless-2016-10-31 failed with: Invalid Serverless Application Specification document.") {
		t.Errorf("a bad SAM template: %v", err)
	}
}

// With AWS::LanguageExtensions first, the functions of known values are
// resolved before the SAM translator reads the template: a CodeUri built
// with Fn::Sub is the S3 URI it names (the translator alone refuses it).
func TestLanguageExtensionsBeforeServerless(t *testing.T) {
	if err := exec.Command("python3", "-c", "import samtranslator").Run(); err != nil {
		t.Skipf("python3 cannot import samtranslator: %v", err)
	}
	body := `
Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      CodeUri: !Sub "s3://code-${AWS::Region}/${Env}/fn.zip"
      Environment:
        Variables:
          QUEUE: !GetAtt Queue.Arn
  Queue:
    Type: AWS::SQS::Queue
`
	r := &recorder{}
	env := r.env(nil)
	env.SAM = &Translator{}
	res, err := Process(context.Background(), tree(t, body), env)
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Root.JSON())
	for _, want := range []string{`"S3Bucket": "code-us-east-1"`, `"S3Key": "prod/fn.zip"`, `"Fn::GetAtt"`, `"Transform": "AWS::LanguageExtensions"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in\n%s", want, out)
		}
	}
	// Without the extensions, the translator refuses the same template.
	plain := strings.Replace(body, "[AWS::LanguageExtensions, AWS::Serverless-2016-10-31]", "AWS::Serverless-2016-10-31", 1)
	if _, err := Process(context.Background(), tree(t, plain), env); err == nil || !strings.Contains(err.Error(), "'CodeUri' requires Bucket and Key properties") {
		t.Errorf("without AWS::LanguageExtensions: %v", err)
	}
}

func TestServerlessWithoutTranslator(t *testing.T) {
	r := &recorder{}
	env := r.env(nil)
	env.SAM = &Translator{Python: "/nonexistent/python3"}
	_, err := Process(context.Background(), tree(t, "Transform: AWS::Serverless-2016-10-31\nResources: {}\n"), env)
	if err == nil || !strings.Contains(err.Error(), "python3 -m pip install aws-sam-translator") {
		t.Errorf("no python: %v", err)
	}
	env.SAM = &Translator{Python: "sh"} // not a python at all: the script fails
	_, err = Process(context.Background(), tree(t, "Transform: AWS::Serverless-2016-10-31\nResources: {}\n"), env)
	if err == nil || !strings.Contains(err.Error(), "cannot run") {
		t.Errorf("not a python: %v", err)
	}
}

func TestNeeded(t *testing.T) {
	for body, want := range map[string]bool{
		"Resources: {}\n": false,
		"Transform: AWS::LanguageExtensions\nResources: {}\n":                               false,
		"Transform: [AWS::LanguageExtensions, AWS::Serverless-2016-10-31]\nResources: {}\n": true,
		"Resources:\n  A:\n    Type: X\n    Properties:\n      Fn::Transform: {Name: M}\n":  true,
	} {
		got, err := Needed("t.yaml", tree(t, body))
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", body, got, err, want)
		}
	}
}

func TestIncludeLocationSub(t *testing.T) {
	body := "Resources:\n  T:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      KeySchema:\n        Fn::Transform:\n          Name: AWS::Include\n" +
		"          Parameters: {Location: !Sub \"s3://${Env}-${AWS::Region}/${Key}/k.yaml\"}\n"
	body = strings.Replace(body, "${Key}", "${!Key}", 1)
	r := &recorder{}
	env := r.env(nil)
	var got string
	env.Include = func(loc string) (string, []byte, error) { got = loc; return loc, []byte("[]"), nil }
	if _, err := Process(context.Background(), tree(t, body), env); err != nil || got != "s3://prod-us-east-1/${Key}/k.yaml" {
		t.Errorf("location %q, %v", got, err)
	}
}
