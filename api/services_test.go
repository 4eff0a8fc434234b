package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/engine"
)

// The other services on serve's port that CDK's default synthesizer calls:
// S3 over the S3 directory, SSM's parameter store read only, STS's
// AssumeRole.

const servicesTemplate = `Resources:
  Bucket: {Type: AWS::S3::Bucket, Properties: {BucketName: staging-bucket}}
  Version: {Type: AWS::SSM::Parameter, Properties: {Name: /app/version, Type: String, Value: "7"}}
  Role:
    Type: AWS::IAM::Role
    Properties:
      RoleName: deployer
      AssumeRolePolicyDocument: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {AWS: "*"}, Action: "sts:AssumeRole"}]}
`

func servicesServer(t *testing.T, s3Dir string) *testServer {
	t.Helper()
	e, err := engine.New(engine.Options{Seed: 1, S3Dir: s3Dir, SSMParameters: map[string]string{"/given/one": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	if _, err := e.CreateStack(t.Context(), engine.CreateStackInput{StackName: "base", TemplateBody: servicesTemplate, Capabilities: []string{"CAPABILITY_NAMED_IAM"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, e, Options{})
}

// request sends a request signed (in name) for service, and returns the
// answer's status, headers and body.
func request(t *testing.T, ts *testServer, method, path, service string, header http.Header, body []byte) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.url+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/"+service+"/aws4_request, SignedHeaders=host, Signature=x")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

func TestS3Objects(t *testing.T) {
	dir := t.TempDir()
	ts := servicesServer(t, dir)
	s3 := func(method, path string, header http.Header, body string) (int, http.Header, string) {
		t.Helper()
		return request(t, ts, method, path, "s3", header, []byte(body))
	}
	// The account's bucket exists before it has a directory.
	if st, h, _ := s3("HEAD", "/staging-bucket", nil, ""); st != 200 || h.Get("x-amz-bucket-region") != "us-east-1" {
		t.Fatalf("HeadBucket: %d %v", st, h)
	}
	if st, _, body := s3("GET", "/staging-bucket?list-type=2", nil, ""); st != 200 || !strings.Contains(body, "<KeyCount>0</KeyCount>") {
		t.Fatalf("an empty bucket's list: %d %s", st, body)
	}
	// A plain PutObject, and an aws-chunked one with a checksum trailer
	// (what the SDKs send by default).
	if st, h, _ := s3("PUT", "/staging-bucket/a/one.json", nil, `{"one": 1}`); st != 200 || h.Get("ETag") != `"8ceb1d1f1ab4a7da5754be15540e02b4"` {
		t.Fatalf("PutObject: %d %v", st, h)
	}
	chunked := "5;chunk-signature=abc\r\nhello\r\n6\r\n world\r\n0\r\nx-amz-checksum-crc32:DUoRhQ==\r\n\r\n"
	if st, _, body := s3("PUT", "/staging-bucket/b.txt", http.Header{"Content-Encoding": {"aws-chunked"}, "X-Amz-Decoded-Content-Length": {"11"},
		"X-Amz-Content-Sha256": {"STREAMING-UNSIGNED-PAYLOAD-TRAILER"}}, chunked); st != 200 {
		t.Fatalf("an aws-chunked PutObject: %d %s", st, body)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "staging-bucket", "b.txt")); err != nil || string(b) != "hello world" {
		t.Fatalf("the object's file: %q %v", b, err)
	}
	if st, h, body := s3("GET", "/staging-bucket/a/one.json", nil, ""); st != 200 || body != `{"one": 1}` || h.Get("Content-Length") != "10" {
		t.Fatalf("GetObject: %d %s %v", st, body, h)
	}
	if st, h, body := s3("HEAD", "/staging-bucket/b.txt", nil, ""); st != 200 || body != "" || h.Get("Content-Length") != "11" {
		t.Fatalf("HeadObject: %d %q %v", st, body, h)
	}
	// Lists: in key order, under a prefix, a page at a time.
	if st, _, body := s3("GET", "/staging-bucket?list-type=2&max-keys=1", nil, ""); st != 200 ||
		!strings.Contains(body, "<KeyCount>1</KeyCount><MaxKeys>1</MaxKeys><IsTruncated>true</IsTruncated><NextContinuationToken>a/one.json</NextContinuationToken><Contents><Key>a/one.json</Key>") {
		t.Fatalf("the first page: %d %s", st, body)
	}
	if st, _, body := s3("GET", "/staging-bucket?list-type=2&continuation-token=a/one.json", nil, ""); st != 200 || !strings.Contains(body, "<Key>b.txt</Key>") || strings.Contains(body, "one.json</Key>") {
		t.Fatalf("the second page: %d %s", st, body)
	}
	if st, _, body := s3("GET", "/staging-bucket?list-type=2&prefix=a/", nil, ""); st != 200 || strings.Count(body, "<Key>") != 1 {
		t.Fatalf("a prefix: %d %s", st, body)
	}
	if st, _, _ := s3("DELETE", "/staging-bucket/b.txt", nil, ""); st != 204 {
		t.Fatalf("DeleteObject: %d", st)
	}
	// Errors, in S3's shape.
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/staging-bucket/b.txt", "", 404, "NoSuchKey"},
		{"GET", "/no-such-bucket/k", "", 404, "NoSuchBucket"},
		{"GET", "/Bad_Bucket/k", "", 400, "InvalidBucketName"},
		{"PUT", "/staging-bucket/a/../../escape", "x", 400, "InvalidArgument"},
		{"GET", "/staging-bucket?acl", "", 501, "NotImplemented"},
		{"PUT", "/staging-bucket/big?partNumber=1&uploadId=0123456789abcdef0123456789abcdef", "x", 404, "NoSuchUpload"},
		{"PUT", "/staging-bucket/bad-chunks", "zz\r\nhello\r\n", 400, "IncompleteBody"},
	} {
		h := http.Header{}
		if c.path == "/staging-bucket/bad-chunks" {
			h.Set("Content-Encoding", "aws-chunked")
		}
		st, _, body := s3(c.method, c.path, h, c.body)
		if st != c.status || !strings.Contains(body, "<Code>"+c.code+"</Code>") {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, st, body, c.status, c.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "escape")); err == nil {
		t.Fatal("a key with .. wrote outside its bucket")
	}
	// A multipart upload: two parts, joined in order.
	_, _, body := s3("POST", "/staging-bucket/big.zip?uploads", nil, "")
	up := body[strings.Index(body, "<UploadId>")+10 : strings.Index(body, "</UploadId>")]
	_, h1, _ := s3("PUT", "/staging-bucket/big.zip?partNumber=1&uploadId="+up, nil, "first,")
	_, h2, _ := s3("PUT", "/staging-bucket/big.zip?partNumber=2&uploadId="+up, http.Header{"Content-Encoding": {"aws-chunked"}}, "7\r\nsecond.\r\n0\r\n\r\n")
	if st, _, body := s3("POST", "/staging-bucket/big.zip?uploadId="+up, nil,
		"<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"+h1.Get("ETag")+"</ETag></Part><Part><PartNumber>2</PartNumber><ETag>"+h2.Get("ETag")+"</ETag></Part></CompleteMultipartUpload>"); st != 200 ||
		!strings.Contains(body, "<Key>big.zip</Key>") || !strings.Contains(body, `-2&#34;</ETag>`) {
		t.Fatalf("CompleteMultipartUpload: %d %s", st, body)
	}
	if st, _, body := s3("GET", "/staging-bucket/big.zip", nil, ""); st != 200 || body != "first,second." {
		t.Fatalf("the object of the upload: %d %q", st, body)
	}
	if st, _, _ := s3("POST", "/staging-bucket/big.zip?uploadId="+up, nil, "<CompleteMultipartUpload><Part><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>"); st != 404 {
		t.Fatalf("a completed upload completed again: %d", st)
	}
	_, _, body = s3("POST", "/staging-bucket/other?uploads", nil, "")
	up = body[strings.Index(body, "<UploadId>")+10 : strings.Index(body, "</UploadId>")]
	s3("PUT", "/staging-bucket/other?partNumber=1&uploadId="+up, nil, "x")
	if st, _, body := s3("POST", "/staging-bucket/other?uploadId="+up, nil, `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"wrong"</ETag></Part></CompleteMultipartUpload>`); st != 400 || !strings.Contains(body, "<Code>InvalidPart</Code>") {
		t.Fatalf("a part whose ETag is not its own: %d %s", st, body)
	}
	if st, _, _ := s3("DELETE", "/staging-bucket/other?uploadId="+up, nil, ""); st != 204 {
		t.Fatalf("AbortMultipartUpload: %d", st)
	}
	if st, _, _ := s3("GET", "/staging-bucket/other", nil, ""); st != 404 {
		t.Fatalf("an aborted upload made its object: %d", st)
	}

	// Without an S3 directory, S3 says how to have one.
	bare := servicesServer(t, "")
	if st, _, body := request(t, bare, "GET", "/staging-bucket/k", "s3", nil, nil); st != 501 || !strings.Contains(body, "start it with --s3-dir DIR") {
		t.Fatalf("no S3 directory: %d %s", st, body)
	}
}

func TestSSMGetParameter(t *testing.T) {
	ts := servicesServer(t, "")
	ssm := func(op string, in any) (int, map[string]any) {
		t.Helper()
		body, _ := json.Marshal(in)
		st, h, out := request(t, ts, "POST", "/", "ssm", http.Header{"X-Amz-Target": {"AmazonSSM." + op}, "Content-Type": {"application/x-amz-json-1.1"}}, body)
		if h.Get("Content-Type") != "application/x-amz-json-1.1" {
			t.Fatalf("%s: Content-Type %q", op, h.Get("Content-Type"))
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("%s: %v %s", op, err, out)
		}
		return st, m
	}
	for name, want := range map[string]string{
		"/app/version": "7", // a stack's AWS::SSM::Parameter
		"/given/one":   "1", // --ssm-parameter
		"arn:aws:ssm:us-east-1:123456789012:parameter/app/version": "7",
	} {
		st, out := ssm("GetParameter", map[string]string{"Name": name})
		p, _ := out["Parameter"].(map[string]any)
		if st != 200 || p["Value"] != want || p["Type"] != "String" || p["ARN"] == "" || p["Version"] != 1.0 {
			t.Errorf("GetParameter %s: %d %v", name, st, out)
		}
	}
	if st, out := ssm("GetParameter", map[string]string{"Name": "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"}); st != 200 ||
		!strings.HasPrefix(out["Parameter"].(map[string]any)["Value"].(string), "ami-") {
		t.Errorf("a public parameter: %d %v", st, out)
	}
	if st, out := ssm("GetParameter", map[string]string{"Name": "/no/such"}); st != 400 || out["__type"] != "ParameterNotFound" {
		t.Errorf("a missing parameter: %d %v", st, out)
	}
	if st, out := ssm("GetParameters", map[string]any{"Names": []string{"/app/version", "/no/such"}}); st != 200 ||
		len(out["Parameters"].([]any)) != 1 || out["InvalidParameters"].([]any)[0] != "/no/such" {
		t.Errorf("GetParameters: %d %v", st, out)
	}
	if st, out := ssm("PutParameter", map[string]string{"Name": "/x", "Value": "y"}); st != 400 || out["__type"] != "UnknownOperationException" {
		t.Errorf("PutParameter: %d %v", st, out)
	}
	if st, out := ssm("GetParameter", map[string]string{}); st != 400 || out["__type"] != "ValidationException" {
		t.Errorf("no name: %d %v", st, out)
	}
}

func TestSTSAssumeRole(t *testing.T) {
	ts := servicesServer(t, "")
	role := "arn:aws:iam::123456789012:role/deployer"
	status, body := post(t, ts, "POST", form("Action", "AssumeRole", "Version", "2011-06-15", "RoleArn", role, "RoleSessionName", "ci"), nil)
	for _, want := range []string{"<AssumeRoleResponse", "<AccessKeyId>ASIA", "<Expiration>2100-01-01T00:00:00Z</Expiration>",
		"<Arn>arn:aws:sts::123456789012:assumed-role/deployer/ci</Arn>"} {
		if status != 200 || !strings.Contains(body, want) {
			t.Fatalf("AssumeRole: %d, no %q in\n%s", status, want, body)
		}
	}
	_, again := post(t, ts, "POST", form("Action", "AssumeRole", "Version", "2011-06-15", "RoleArn", role, "RoleSessionName", "ci"), nil)
	cut := func(s string) string { i := strings.Index(s, "<ResponseMetadata>"); return s[:i] }
	if cut(again) != cut(body) {
		t.Fatal("two AssumeRole calls alike answered differently")
	}
	status, body = post(t, ts, "POST", form("Action", "AssumeRole", "Version", "2011-06-15", "RoleArn", "arn:aws:iam::123456789012:role/nobody", "RoleSessionName", "ci"), nil)
	if status != 403 || !strings.Contains(body, "<Code>AccessDenied</Code><Message>User: arn:aws:iam::123456789012:root is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::123456789012:role/nobody</Message>") {
		t.Fatalf("a role the account has not: %d %s", status, body)
	}
	status, body = post(t, ts, "POST", form("Action", "AssumeRole", "Version", "2011-06-15", "RoleArn", role), nil)
	if status != 400 || !strings.Contains(body, "Value null at &#39;roleSessionName&#39;") {
		t.Fatalf("no session name: %d %s", status, body)
	}
}

// A signal PUT to a wait condition handle's URL, sent to the server: the
// wait condition completes, and the instant pace runs the stack to rest.
func TestWaitHandleSignal(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1, Signals: engine.SignalsManual})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ts := newTestServer(t, e, Options{})
	tpl := "Resources:\n  Handle: {Type: AWS::CloudFormation::WaitConditionHandle}\n  Ready: {Type: AWS::CloudFormation::WaitCondition, Properties: {Handle: !Ref Handle, Timeout: '600'}}\n" +
		"Outputs:\n  Data: {Value: !GetAtt Ready.Data}\n"
	status, body := post(t, ts, "POST", form("Action", "CreateStack", "Version", "2010-05-15", "StackName", "boot", "TemplateBody", tpl), nil)
	if status != 200 {
		t.Fatalf("CreateStack: %d %s", status, body)
	}
	res, err := e.DescribeStackResource(t.Context(), engine.DescribeStackResourceInput{StackName: "boot", LogicalResourceId: "Handle"})
	if err != nil {
		t.Fatal(err)
	}
	u := res.StackResourceDetail.PhysicalResourceId
	path := u[strings.Index(u, ".amazonaws.com/")+len(".amazonaws.com"):]
	put := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, ts.url+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, body := put("PUT", path+"0", `{"Status":"SUCCESS","UniqueId":"i-1"}`); st != 403 || !strings.Contains(body, "<Code>AccessDenied</Code>") {
		t.Fatalf("another signature: %d %s", st, body)
	}
	if st, body := put("PUT", path, `Status=SUCCESS`); st != 400 || !strings.Contains(body, "A wait condition signal is a JSON document") {
		t.Fatalf("not JSON: %d %s", st, body)
	}
	if st, body := put("GET", path, ""); st != 405 {
		t.Fatalf("GET: %d %s", st, body)
	}
	if st, body := put("PUT", path, `{"Status":"SUCCESS","Reason":"Configuration Complete","UniqueId":"i-1","Data":"ready"}`); st != 200 {
		t.Fatalf("the signal: %d %s", st, body)
	}
	out, err := e.DescribeStacks(t.Context(), engine.DescribeStacksInput{StackName: "boot"})
	if err != nil || out.Stacks[0].StackStatus != "CREATE_COMPLETE" || out.Stacks[0].Outputs[0].OutputValue != `{"i-1":"ready"}` {
		t.Fatalf("after the signal: %+v %v", out, err)
	}
}
