package api

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stacksim/stacksim/engine"
)

// post sends a raw form and returns the status and body.
func post(t *testing.T, ts *testServer, method, body string, header http.Header) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+"/", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/xml" {
		t.Fatalf("Content-Type %q", ct)
	}
	if resp.Header.Get("x-amzn-RequestId") == "" {
		t.Fatal("no x-amzn-RequestId")
	}
	return resp.StatusCode, string(b)
}

// xmlError is what an ErrorResponse holds.
type xmlError struct {
	XMLName xml.Name `xml:"ErrorResponse"`
	Type    string   `xml:"Error>Type"`
	Code    string   `xml:"Error>Code"`
	Message string   `xml:"Error>Message"`
	ID      string   `xml:"RequestId"`
}

const okTemplate = "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: v\n"

func form(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v.Encode()
}

// Bad requests get the model's error, well formed, and change nothing.
func TestProtocolErrors(t *testing.T) {
	ts := newTestServer(t, nil, Options{MaxBodyBytes: 64 << 10})
	if _, err := ts.e.CreateStack(t.Context(), engine.CreateStackInput{StackName: "web", TemplateBody: okTemplate}); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.e.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	cfn := func(action string, kv ...string) string {
		return form(append([]string{"Action", action, "Version", "2010-05-15"}, kv...)...)
	}
	tags := []string{"StackName", "web", "UsePreviousTemplate", "true"}
	for i := 1; i <= 51; i++ {
		tags = append(tags, "Tags.member."+strconv.Itoa(i)+".Key", "k"+strconv.Itoa(i), "Tags.member."+strconv.Itoa(i)+".Value", "v")
	}
	cases := []struct {
		name   string
		method string
		body   string
		status int
		code   string
		msg    string
	}{
		{"no action", "POST", "Version=2010-05-15", 400, "MissingAction", "The request must contain the parameter Action."},
		{"unknown action", "POST", cfn("DescribeStackz"), 400, "InvalidAction", "Could not find operation DescribeStackz for version 2010-05-15"},
		{"wrong version", "POST", form("Action", "DescribeStacks", "Version", "2010-05-16"), 400, "InvalidAction", "Could not find operation DescribeStacks for version 2010-05-16"},
		{"no version", "POST", form("Action", "DescribeStacks"), 400, "InvalidAction", "Could not find operation DescribeStacks for version "},
		{"malformed form", "POST", "Action=DescribeStacks&Version=2010-05-15&StackName=%zz", 400, "MalformedQueryString", ""},
		{"method", "PUT", cfn("DescribeStacks"), 405, "InvalidAction", "The query API takes POST (or GET) requests to /, not PUT"},
		{"required", "POST", cfn("CreateStack", "TemplateBody", okTemplate), 400, "ValidationError",
			"1 validation error detected: Value null at 'stackName' failed to satisfy constraint: Member must not be null"},
		{"enum", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "OnFailure", "MAYBE"), 400, "ValidationError",
			"1 validation error detected: Value 'MAYBE' at 'onFailure' failed to satisfy constraint: Member must satisfy enum value set: [DO_NOTHING, ROLLBACK, DELETE]"},
		{"enum in a list", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "Capabilities.member.1", "CAPABILITY_IAM", "Capabilities.member.2", "CAPABILITY_ALL"), 400, "ValidationError",
			"1 validation error detected: Value '[CAPABILITY_IAM, CAPABILITY_ALL]' at 'capabilities' failed to satisfy constraint: Member must satisfy constraint: [Member must satisfy enum value set: [CAPABILITY_IAM, CAPABILITY_NAMED_IAM, CAPABILITY_AUTO_EXPAND]]"},
		{"pattern", "POST", cfn("ListChangeSets", "StackName", "a b"), 400, "ValidationError",
			"1 validation error detected: Value 'a b' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: ([a-zA-Z][-a-zA-Z0-9]*)|(arn:\\b(aws|aws-us-gov|aws-cn)\\b:[-a-zA-Z0-9:/._+]*)"},
		{"two errors", "POST", cfn("UpdateTerminationProtection"), 400, "ValidationError",
			"2 validation errors detected: Value null at 'enableTerminationProtection' failed to satisfy constraint: Member must not be null; Value null at 'stackName' failed to satisfy constraint: Member must not be null"},
		{"token pattern and length", "POST", cfn("DeleteStack", "StackName", "web", "ClientRequestToken", "-"+strings.Repeat("x", 128)), 400, "ValidationError",
			"2 validation errors detected: Value '-" + strings.Repeat("x", 128) + "' at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 128; Value '-" + strings.Repeat("x", 128) + "' at 'clientRequestToken' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9][-a-zA-Z0-9]*"},
		{"tag in a list", "POST", cfn("UpdateStack", "StackName", "web", "UsePreviousTemplate", "true", "Tags.member.1.Key", "k"), 400, "ValidationError",
			"1 validation error detected: Value null at 'tags.1.member.value' failed to satisfy constraint: Member must not be null"},
		{"too many tags", "POST", cfn("UpdateStack", tags...), 400, "ValidationError", ""},
		{"bad boolean", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "DisableRollback", "maybe"), 400, "ValidationError",
			"1 validation error detected: Value at 'disableRollback' failed to satisfy constraint: Member must be true or false, not 'maybe'"},
		{"bad integer", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "TimeoutInMinutes", "soon"), 400, "ValidationError",
			"1 validation error detected: Value at 'timeoutInMinutes' failed to satisfy constraint: Member must be an integer of 32 bits, not 'soon'"},
		{"integer range", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "TimeoutInMinutes", "0"), 400, "ValidationError",
			"1 validation error detected: Value '0' at 'timeoutInMinutes' failed to satisfy constraint: Member must have value greater than or equal to 1"},
		{"bad list index", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "Tags.member.first.Key", "k"), 400, "ValidationError",
			"1 validation error detected: Value at 'tags' failed to satisfy constraint: list index 'first' is not a number from 1"},
		{"a list without members", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", okTemplate, "Tags.1.Key", "k"), 400, "ValidationError",
			"1 validation error detected: Value at 'tags' failed to satisfy constraint: Member must be a list of member.N values, found tags.1"},
		{"unsupported member", "POST", cfn("CreateStack", "StackName", "x", "TemplateBody", "Resources: {}", "ResourceTypes.member.1", "AWS::S3::Bucket"), 400, "ValidationError",
			"stacksim does not support ResourceTypes in CreateStack yet: leave it out (stacksim would otherwise ignore it)"},
		{"template URL outside S3", "POST", cfn("CreateStack", "StackName", "x", "TemplateURL", "https://example.com/t.yaml"), 400, "ValidationError",
			"TemplateURL must be a supported URL."},
		{"template too large", "POST", cfn("ValidateTemplate", "TemplateBody", "Resources: {}\n#"+strings.Repeat("x", 51200)), 400, "ValidationError",
			"1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200"},
		{"body too large", "POST", cfn("ValidateTemplate", "TemplateBody", strings.Repeat("x", 70<<10)), 413, "RequestEntityTooLarge", "The request body is larger than 65536 bytes"},
		{"not supported", "POST", cfn("ListTypeVersions"), 400, "InvalidOperationException",
			"stacksim does not support ListTypeVersions yet (see the README's list of what stacksim serve supports)"},
		{"sts unknown action", "POST", form("Action", "GetSessionToken", "Version", "2011-06-15"), 400, "InvalidAction",
			"Could not find operation GetSessionToken for version 2011-06-15 (stacksim serves STS's GetCallerIdentity and AssumeRole only)"},
	}
	before, err := ts.e.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, c.method, c.body, nil)
			var e xmlError
			if err := xml.Unmarshal([]byte(body), &e); err != nil {
				t.Fatalf("not an ErrorResponse: %v\n%s", err, body)
			}
			if status != c.status || e.Code != c.code || e.Type != "Sender" || e.ID == "" {
				t.Fatalf("got %d %s %s, want %d %s Sender\n%s", status, e.Type, e.Code, c.status, c.code, body)
			}
			if c.msg != "" && e.Message != c.msg {
				t.Fatalf("message\n got %q\nwant %q", e.Message, c.msg)
			}
			if c.name == "too many tags" && !strings.Contains(e.Message, "at 'tags' failed to satisfy constraint: Member must have length less than or equal to 50") {
				t.Fatalf("message %q", e.Message)
			}
		})
	}
	after, err := ts.e.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("a refused call changed the state")
	}
}

// What the protocol allows: GET with a query string, STS told apart by its
// Version or its SigV4 scope, a present empty list (Tags=) that removes
// the tags.
func TestProtocolForms(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	status, body := post(t, ts, "GET", "", nil)
	if status != 400 || !strings.Contains(body, "<Code>MissingAction</Code>") {
		t.Fatalf("GET without a query: %d %s", status, body)
	}
	resp, err := http.Get(ts.url + "/?Action=DescribeStacks&Version=2010-05-15")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(string(b), `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>`) {
		t.Fatalf("GET DescribeStacks: %d %s", resp.StatusCode, b)
	}
	status, body = post(t, ts, "POST", form("Action", "GetCallerIdentity", "Version", "2011-06-15"), nil)
	if status != 200 || !strings.Contains(body, `<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Account>123456789012</Account><Arn>arn:aws:iam::123456789012:root</Arn><UserId>123456789012</UserId></GetCallerIdentityResult>`) {
		t.Fatalf("STS: %d %s", status, body)
	}
	h := http.Header{"Authorization": {"AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=x"}}
	status, body = post(t, ts, "POST", form("Action", "DescribeStacks", "Version", "2010-05-15"), h)
	if status != 400 || !strings.Contains(body, `xmlns="https://sts.amazonaws.com/doc/2011-06-15/"`) {
		t.Fatalf("a CloudFormation action signed for STS: %d %s", status, body)
	}
	// Tags given, then a present empty Tags removes them; absent keeps.
	post(t, ts, "POST", form("Action", "CreateStack", "Version", "2010-05-15", "StackName", "web", "TemplateBody", okTemplate,
		"Tags.member.1.Key", "team", "Tags.member.1.Value", "core"), nil)
	tagsOf := func() string {
		_, body := post(t, ts, "POST", form("Action", "DescribeStacks", "Version", "2010-05-15", "StackName", "web"), nil)
		i, j := strings.Index(body, "<Tags>"), strings.Index(body, "</Tags>")
		return body[i : j+7]
	}
	if got := tagsOf(); got != "<Tags><member><Key>team</Key><Value>core</Value></member></Tags>" {
		t.Fatalf("tags %s", got)
	}
	status, body = post(t, ts, "POST", form("Action", "UpdateStack", "Version", "2010-05-15", "StackName", "web", "TemplateBody", okTemplate+"  Q:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: q\n"), nil)
	if status != 200 || tagsOf() != "<Tags><member><Key>team</Key><Value>core</Value></member></Tags>" {
		t.Fatalf("an update without Tags: %d %s %s", status, body, tagsOf())
	}
	status, body = post(t, ts, "POST", "Action=UpdateStack&Version=2010-05-15&StackName=web&UsePreviousTemplate=true&Tags=", nil)
	if status != 200 || tagsOf() != "<Tags></Tags>" {
		t.Fatalf("Tags= : %d %s %s", status, body, tagsOf())
	}
}

// The small values of a form do not share the request body's memory: a
// stack's name kept from a CreateStack would otherwise keep the whole body,
// its template included, alive for as long as the stack is remembered.
func TestFormValuesOwnTheirMemory(t *testing.T) {
	body := "Action=CreateStack&StackName=s1&TemplateBody=" + strings.Repeat("x", 4000)
	form, err := url.ParseQuery(body)
	if err != nil {
		t.Fatal(err)
	}
	inBody := func(v string) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.StringData(v))), uintptr(unsafe.Pointer(unsafe.StringData(body)))
		return p >= lo && p < lo+uintptr(len(body))
	}
	if !inBody(form.Get("StackName")) {
		t.Skip("url.ParseQuery copies values: nothing to own")
	}
	ownValues(form, len(body))
	if inBody(form.Get("StackName")) || inBody(form.Get("Action")) {
		t.Fatal("a small value still points into the request body")
	}
	if form.Get("StackName") != "s1" || len(form.Get("TemplateBody")) != 4000 {
		t.Fatalf("the values changed: %q, %d bytes", form.Get("StackName"), len(form.Get("TemplateBody")))
	}
}
