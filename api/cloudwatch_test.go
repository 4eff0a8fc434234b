package api

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/stacksim/stacksim/engine"
)

// CloudWatch's SetAlarmState in its three protocols: CBOR (Smithy RPC v2,
// what boto3 and the AWS CLI speak), JSON 1.0 and the query protocol; an
// alarm set to ALARM makes the next update watched by it roll back; errors
// carry the qualified __type and the query code, and change nothing.
func TestCloudWatchSetAlarmState(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1, Alarms: map[string]string{"HighErrors": engine.AlarmOK}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ts := newTestServer(t, e, Options{})
	do := func(path string, header http.Header, body []byte) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, ts.url+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	cborCall := func(op string, in any) (*http.Response, map[string]string) {
		t.Helper()
		body, err := cbor.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		resp, b := do("/service/GraniteServiceVersion20100801/operation/"+op,
			http.Header{"Content-Type": {"application/cbor"}, "Smithy-Protocol": {"rpc-v2-cbor"}}, body)
		if resp.Header.Get("smithy-protocol") != "rpc-v2-cbor" || resp.Header.Get("Content-Type") != "application/cbor" {
			t.Fatalf("%s: the answer is not CBOR: %v", op, resp.Header)
		}
		out := map[string]string{}
		if err := cbor.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v (% x)", op, err, b)
		}
		return resp, out
	}
	jsonCall := func(op string, in any) (*http.Response, map[string]string) {
		t.Helper()
		body, _ := json.Marshal(in)
		resp, b := do("/", http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Target": {"GraniteServiceVersion20100801." + op}}, body)
		out := map[string]string{}
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v (%s)", op, err, b)
		}
		return resp, out
	}
	state := func() string {
		st, err := e.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		return string(st)
	}
	before := state()

	for _, c := range []struct {
		name   string
		call   func(string, any) (*http.Response, map[string]string)
		op     string
		in     any
		status int
		code   string
		msg    string
	}{
		{"cbor: no such alarm", cborCall, "SetAlarmState", map[string]string{"AlarmName": "Nope", "StateValue": "ALARM", "StateReason": "r"}, 404, "ResourceNotFound", "Alarm Nope not found"},
		{"json: a state CloudWatch has not", jsonCall, "SetAlarmState", map[string]string{"AlarmName": "HighErrors", "StateValue": "RED", "StateReason": "r"}, 400, "ValidationError",
			"1 validation error detected: Value 'RED' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [OK, ALARM, INSUFFICIENT_DATA]"},
		{"cbor: no alarm name", cborCall, "SetAlarmState", map[string]string{"StateValue": "OK"}, 400, "ValidationError",
			"1 validation error detected: Value null at 'alarmName' failed to satisfy constraint: Member must not be null"},
		{"cbor: another operation", cborCall, "PutMetricAlarm", map[string]string{}, 400, "UnknownOperationException",
			"stacksim serves CloudWatch's SetAlarmState and DescribeAlarms only (for the alarms of rollback triggers), not PutMetricAlarm"},
		{"json: a state filter CloudWatch has not", jsonCall, "DescribeAlarms", map[string]string{"StateValue": "RED"}, 400, "ValidationError",
			"1 validation error detected: Value 'RED' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [OK, ALARM, INSUFFICIENT_DATA]"},
	} {
		resp, out := c.call(c.op, c.in)
		if resp.StatusCode != c.status || out["__type"] != "com.amazonaws.cloudwatch#"+c.code || out["message"] != c.msg ||
			resp.Header.Get("x-amzn-query-error") != c.code+";Sender" || resp.Header.Get("x-amzn-RequestId") == "" {
			t.Fatalf("%s: %d %v %v", c.name, resp.StatusCode, out, resp.Header)
		}
	}
	resp, b := do("/service/GraniteServiceVersion20100801/operation/SetAlarmState", http.Header{"Content-Type": {"application/cbor"}}, []byte{0xff, 0x00})
	if resp.StatusCode != 400 || !bytes.Contains(b, []byte("SerializationException")) {
		t.Fatalf("a body that is not CBOR: %d % x", resp.StatusCode, b)
	}
	if state() != before {
		t.Fatal("a refused call changed the state")
	}

	// Set in each protocol: the query one last, to ALARM.
	if resp, out := cborCall("SetAlarmState", map[string]string{"AlarmName": "HighErrors", "StateValue": "INSUFFICIENT_DATA", "StateReason": "r"}); resp.StatusCode != 200 || len(out) != 0 {
		t.Fatalf("cbor: %d %v", resp.StatusCode, out)
	}
	if resp, out := jsonCall("SetAlarmState", map[string]string{"AlarmName": "HighErrors", "StateValue": "OK", "StateReason": "r"}); resp.StatusCode != 200 || len(out) != 0 {
		t.Fatalf("json: %d %v", resp.StatusCode, out)
	}
	h := http.Header{"Authorization": {"AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/monitoring/aws4_request, SignedHeaders=host, Signature=x"}}
	status, body := post(t, ts, "POST", form("Action", "SetAlarmState", "Version", "2010-08-01", "AlarmName", "HighErrors", "StateValue", "ALARM", "StateReason", "r"), h)
	if status != 200 || !strings.HasPrefix(body, `<SetAlarmStateResponse xmlns="http://monitoring.amazonaws.com/doc/2010-08-01/"><ResponseMetadata><RequestId>`) {
		t.Fatalf("query: %d %s", status, body)
	}
	status, body = post(t, ts, "POST", form("Action", "SetAlarmState", "Version", "2010-08-01", "AlarmName", "Nope", "StateValue", "ALARM"), nil)
	if status != 404 || !strings.Contains(body, `<Code>ResourceNotFound</Code><Message>Alarm Nope not found</Message>`) {
		t.Fatalf("query, no such alarm: %d %s", status, body)
	}

	// DescribeAlarms, in each protocol: the account's alarms and states.
	req, _ := cbor.Marshal(map[string]any{"AlarmNames": []string{"HighErrors"}})
	resp, b = do("/service/GraniteServiceVersion20100801/operation/DescribeAlarms", http.Header{"Content-Type": {"application/cbor"}}, req)
	var listed struct {
		MetricAlarms    []map[string]string
		CompositeAlarms []map[string]string
	}
	if err := cbor.Unmarshal(b, &listed); err != nil || resp.StatusCode != 200 || len(listed.MetricAlarms) != 1 ||
		listed.MetricAlarms[0]["StateValue"] != "ALARM" || listed.MetricAlarms[0]["AlarmArn"] != e.AlarmARN("HighErrors") {
		t.Fatalf("DescribeAlarms (cbor): %d %+v %v", resp.StatusCode, listed, err)
	}
	resp, b = do("/", http.Header{"Content-Type": {"application/x-amz-json-1.0"}, "X-Amz-Target": {"GraniteServiceVersion20100801.DescribeAlarms"}},
		[]byte(`{"AlarmNamePrefix": "Low"}`))
	if resp.StatusCode != 200 || string(b) != `{"CompositeAlarms":[],"MetricAlarms":[]}` {
		t.Fatalf("DescribeAlarms (json), a prefix no alarm has: %d %s", resp.StatusCode, b)
	}
	status, body2 := post(t, ts, "POST", form("Action", "DescribeAlarms", "Version", "2010-08-01", "StateValue", "ALARM"), h)
	if status != 200 || !strings.Contains(body2, "<MetricAlarms><member><AlarmName>HighErrors</AlarmName><AlarmArn>arn:aws:cloudwatch:us-east-1:123456789012:alarm:HighErrors</AlarmArn><StateValue>ALARM</StateValue></member></MetricAlarms>") {
		t.Fatalf("DescribeAlarms (query): %d %s", status, body2)
	}

	// The update watched by HighErrors, in ALARM, rolls back.
	tpl := "Resources:\n  P: {Type: AWS::SSM::Parameter, Properties: {Type: String, Value: v}}\n"
	if _, err := e.CreateStack(t.Context(), engine.CreateStackInput{StackName: "app", TemplateBody: tpl,
		RollbackConfiguration: &engine.RollbackConfiguration{RollbackTriggers: []engine.RollbackTrigger{{Arn: e.AlarmARN("HighErrors"), Type: "AWS::CloudWatch::Alarm"}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	out, err := e.DescribeStacks(t.Context(), engine.DescribeStacksInput{StackName: "app"})
	if err != nil || out.Stacks[0].StackStatus != "ROLLBACK_COMPLETE" {
		t.Fatalf("a create watched by an alarm in ALARM: %+v %v", out, err)
	}
}
