package api

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/fxamacker/cbor/v2"

	"github.com/stacksim/stacksim/engine"
)

// CloudWatch on the same port, for the alarms rollback triggers watch:
// SetAlarmState sets an alarm's state (engine.SetAlarmState), so that a
// test makes an update roll back by its trigger; DescribeAlarms lists the
// account's alarms and their states (engine.Alarms). CloudWatch's SDKs speak
// one of three protocols, and each is answered in its own:
//
//   - Smithy RPC v2 CBOR (boto3 and the AWS CLI today): POST
//     /service/GraniteServiceVersion20100801/operation/OP, a CBOR map;
//   - AWS JSON 1.0: X-Amz-Target GraniteServiceVersion20100801.OP;
//   - the query protocol: Action=OP&Version=2010-08-01, told apart as STS
//     is, by the SigV4 scope (…/monitoring/aws4_request) or the Version.
//
// CloudWatch is query-compatible: a JSON or CBOR error also says its
// query code in x-amzn-query-error.

const (
	cwTarget    = "GraniteServiceVersion20100801"
	cwVersion   = "2010-08-01"
	cwNamespace = "http://monitoring.amazonaws.com/doc/2010-08-01/"
	cwScope     = "monitoring"
	cwCBORPath  = "/service/" + cwTarget + "/operation/"
	// cwErrorPrefix qualifies an error's __type (CloudWatch's Smithy
	// namespace).
	cwErrorPrefix = "com.amazonaws.cloudwatch#"
)

var cloudWatch = service{cwScope, cwVersion, cwNamespace}

// cwProtocol is how a CloudWatch request came.
type cwProtocol int

const (
	cwQuery cwProtocol = iota
	cwJSON
	cwCBOR
)

// cloudWatchRequest tells whether r is a CloudWatch request in the JSON
// or CBOR protocol, and its operation.
func cloudWatchRequest(r *http.Request) (cwProtocol, string, bool) {
	if op, ok := strings.CutPrefix(r.URL.Path, cwCBORPath); ok {
		return cwCBOR, op, true
	}
	if op, ok := strings.CutPrefix(r.Header.Get("X-Amz-Target"), cwTarget+"."); ok {
		return cwJSON, op, true
	}
	return 0, "", false
}

// serveCloudWatch answers a CloudWatch request of the JSON or CBOR
// protocol.
func (s *Server) serveCloudWatch(w http.ResponseWriter, r *http.Request, proto cwProtocol, op, id string) (string, int) {
	if r.Method != http.MethodPost {
		return op, s.writeCloudWatchError(w, proto, &wireError{Status: http.StatusMethodNotAllowed, Code: codeInvalidAction,
			Message: fmt.Sprintf("CloudWatch's %s protocol takes POST requests, not %s", protoName(proto), r.Method)}, id)
	}
	body, werr := s.readBody(w, r)
	if werr != nil {
		return op, s.writeCloudWatchError(w, proto, werr, id)
	}
	var in cwInput
	if len(body) > 0 {
		unmarshal := json.Unmarshal
		if proto == cwCBOR {
			unmarshal = cbor.Unmarshal
		}
		derr := unmarshal(body, &in)
		if derr != nil {
			return op, s.writeCloudWatchError(w, proto, &wireError{Status: http.StatusBadRequest, Code: "SerializationException",
				Message: fmt.Sprintf("The request body is not %s: %v", protoName(proto), derr)}, id)
		}
	}
	result, werr := s.callCloudWatch(r.Context(), op, in)
	if werr != nil {
		return op, s.writeCloudWatchError(w, proto, werr, id)
	}
	if result == nil {
		result = cwResult{} // {}
	}
	return op, writeCloudWatchBody(w, proto, http.StatusOK, result, id)
}

// writeCloudWatchBody writes an answer of the JSON or CBOR protocol.
func writeCloudWatchBody(w http.ResponseWriter, proto cwProtocol, status int, v any, id string) int {
	if proto != cwCBOR {
		return writeJSON(w, status, "application/x-amz-json-1.0", v, id)
	}
	body, err := cbor.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, nil
	}
	h := w.Header()
	h.Set("Content-Type", "application/cbor")
	h.Set("smithy-protocol", "rpc-v2-cbor")
	h.Set("x-amzn-RequestId", id)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
	return status
}

// serveCloudWatchQuery answers a CloudWatch request of the query protocol.
func (s *Server) serveCloudWatchQuery(w http.ResponseWriter, form url.Values, id string) (string, int) {
	action := form.Get("Action")
	if v := form.Get("Version"); v != cwVersion {
		return action, s.writeError(w, cloudWatch, newWireError(codeInvalidAction, fmt.Sprintf("Could not find operation %s for version %s", action, v)), id)
	}
	in := cwInput{AlarmName: form.Get("AlarmName"), StateValue: form.Get("StateValue"), StateReason: form.Get("StateReason"),
		AlarmNamePrefix: form.Get("AlarmNamePrefix"), AlarmNames: formList(form, "AlarmNames"), AlarmTypes: formList(form, "AlarmTypes")}
	result, werr := s.callCloudWatch(context.Background(), action, in)
	if werr != nil {
		return action, s.writeError(w, cloudWatch, werr, id)
	}
	var b strings.Builder
	b.WriteString("<" + action + `Response xmlns="` + cwNamespace + `">`)
	if result != nil {
		b.WriteString("<" + action + "Result>")
		for _, list := range []string{"MetricAlarms", "CompositeAlarms"} {
			b.WriteString("<" + list + ">")
			for _, a := range result[list] {
				b.WriteString("<member>")
				for _, k := range []string{"AlarmName", "AlarmArn", "StateValue"} {
					b.WriteString("<" + k + ">")
					_ = xml.EscapeText(&b, []byte(a[k]))
					b.WriteString("</" + k + ">")
				}
				b.WriteString("</member>")
			}
			b.WriteString("</" + list + ">")
		}
		b.WriteString("</" + action + "Result>")
	}
	b.WriteString("<ResponseMetadata><RequestId>" + id + "</RequestId></ResponseMetadata></" + action + "Response>\n")
	s.writeBody(w, http.StatusOK, []byte(b.String()), id)
	return action, http.StatusOK
}

// formList reads a list member of a query form (NAME.member.N).
func formList(form url.Values, name string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := form[name+".member."+strconv.Itoa(i)]
		if !ok || len(v) == 0 {
			return out
		}
		out = append(out, v[0])
	}
}

// cwInput holds the members of the CloudWatch calls served.
type cwInput struct {
	AlarmName       string   `json:"AlarmName,omitempty"`
	StateValue      string   `json:"StateValue,omitempty"`
	StateReason     string   `json:"StateReason,omitempty"`
	AlarmNames      []string `json:"AlarmNames,omitempty"`
	AlarmNamePrefix string   `json:"AlarmNamePrefix,omitempty"`
	AlarmTypes      []string `json:"AlarmTypes,omitempty"`
}

// describeAlarms answers DescribeAlarms: the account's alarms, filtered as
// CloudWatch filters them (by names, by a prefix, by state; metric alarms
// only unless AlarmTypes asks for composite ones too), in one page.
func (s *Server) describeAlarms(ctx context.Context, in cwInput) (cwResult, *wireError) {
	if len(in.AlarmNames) > 0 && in.AlarmNamePrefix != "" {
		return nil, newWireError("InvalidParameterCombination", "AlarmNames and AlarmNamePrefix are mutually exclusive")
	}
	if in.StateValue != "" && !slices.Contains(engine.AlarmStates, in.StateValue) {
		return nil, newWireError("ValidationError", fmt.Sprintf("1 validation error detected: Value '%s' at 'stateValue' failed to satisfy constraint: Member must satisfy enum value set: [%s]",
			in.StateValue, strings.Join(engine.AlarmStates, ", ")))
	}
	types := in.AlarmTypes
	if len(types) == 0 {
		types = []string{"MetricAlarm"} // CloudWatch's default
	}
	alarms, err := s.e.Alarms(ctx)
	if err != nil {
		return nil, toWire(err)
	}
	out := cwResult{"MetricAlarms": {}, "CompositeAlarms": {}}
	for _, a := range alarms {
		switch {
		case len(in.AlarmNames) > 0 && !slices.Contains(in.AlarmNames, a.Name),
			!strings.HasPrefix(a.Name, in.AlarmNamePrefix),
			in.StateValue != "" && a.State != in.StateValue:
			continue
		}
		list, typ := "MetricAlarms", "MetricAlarm"
		if a.Composite {
			list, typ = "CompositeAlarms", "CompositeAlarm"
		}
		if slices.Contains(types, typ) {
			out[list] = append(out[list], map[string]string{"AlarmName": a.Name, "AlarmArn": a.ARN, "StateValue": a.State})
		}
	}
	return out, nil
}

// cwResult is a CloudWatch answer: lists of alarms, by member.
type cwResult map[string][]map[string]string

// callCloudWatch makes one CloudWatch call: SetAlarmState, which the
// operations in motion see at once (the instant pace runs them to rest),
// saved before it returns as every call that changes something.
func (s *Server) callCloudWatch(ctx context.Context, op string, in cwInput) (cwResult, *wireError) {
	switch op {
	case "DescribeAlarms":
		return s.describeAlarms(ctx, in)
	case "SetAlarmState":
	default:
		return nil, &wireError{Status: http.StatusBadRequest, Code: "UnknownOperationException",
			Message: fmt.Sprintf("stacksim serves CloudWatch's SetAlarmState and DescribeAlarms only (for the alarms of rollback triggers), not %s", op)}
	}
	ctx = loopContext()
	if _, err := s.pacer.catchUp(ctx); err != nil {
		return nil, toWire(err)
	}
	if err := s.e.SetAlarmState(ctx, engine.SetAlarmStateInput{AlarmName: in.AlarmName, StateValue: in.StateValue, StateReason: in.StateReason}); err != nil {
		we := toWire(err)
		if we.Code == "ResourceNotFound" {
			we.Status = http.StatusNotFound
		}
		return nil, we
	}
	if err := s.pacer.started(ctx); err != nil {
		return nil, toWire(err)
	}
	if err := s.save(); err != nil {
		return nil, toWire(fmt.Errorf("the call was made, but the state could not be saved: %w", err))
	}
	return nil, nil
}

// writeCloudWatchError writes an error of the JSON or CBOR protocol: the
// qualified __type and message, and the query code.
func (s *Server) writeCloudWatchError(w http.ResponseWriter, proto cwProtocol, e *wireError, id string) int {
	fault := "Sender"
	if e.Receiver {
		fault = "Receiver"
	}
	w.Header().Set("x-amzn-query-error", e.Code+";"+fault)
	return writeCloudWatchBody(w, proto, e.Status, map[string]string{"__type": cwErrorPrefix + e.Code, "message": e.Message}, id)
}

func protoName(p cwProtocol) string {
	switch p {
	case cwCBOR:
		return "CBOR (Smithy RPC v2)"
	case cwJSON:
		return "JSON 1.0"
	}
	return "query"
}
