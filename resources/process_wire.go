package resources

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Protocol is the shape of the request a handler process receives.
type Protocol uint8

// The request shapes a handler process can speak.
const (
	// ProtocolStacksim is stacksim's own: the contract's Request as JSON
	// (the public plugins' field names, with "action") and a "stacksim"
	// object with what the engine knows besides (typeName, phase, attempt,
	// physicalResourceId).
	ProtocolStacksim Protocol = iota
	// ProtocolRPDK is the request the CloudFormation service sends to a
	// handler built with a plugin library (awsAccountId, bearerToken,
	// region, action, resourceType, requestData{callerCredentials,
	// logicalResourceId, resourceProperties, ...}, stackId,
	// callbackContext, nextToken): the shape of the libraries' Lambda
	// entry points (the TypeScript library's Resource.entrypoint, the
	// Python library's Resource.__call__, the Java library's
	// LambdaWrapper).
	ProtocolRPDK
	// ProtocolRPDKTest is the shape of the libraries' local test entry
	// points (testEntrypoint, test_entrypoint): credentials, action,
	// request{clientRequestToken, desiredResourceState,
	// previousResourceState, logicalResourceIdentifier, ...},
	// callbackContext, region.
	ProtocolRPDKTest
)

var protocolNames = [...]string{"stacksim", "rpdk", "rpdk-test"}

func (p Protocol) String() string {
	if int(p) < len(protocolNames) {
		return protocolNames[p]
	}
	return fmt.Sprintf("Protocol(%d)", p)
}

// ParseProtocol reads a protocol's name: stacksim, rpdk or rpdk-test.
func ParseProtocol(s string) (Protocol, error) {
	for i, n := range protocolNames {
		if s == n {
			return Protocol(i), nil
		}
	}
	return 0, fmt.Errorf("unknown handler protocol %q: want stacksim, rpdk or rpdk-test", s)
}

// The credentials stacksim hands a plugin library's entry point: the
// libraries refuse a request without them, and they make a session from
// them that nothing offline can use. They are not AWS's: a handler that
// calls AWS with them is refused (no network is reached unless the
// handler itself goes there). No provider credentials are sent, so the
// libraries do not try to ship logs and metrics to CloudWatch.
var fakeCredentials = map[string]string{
	"accessKeyId":     "ASIASTACKSIMOFFLINE0",
	"secretAccessKey": "stacksim-offline-not-a-secret",
	"sessionToken":    "stacksim-offline-session",
}

// resourceTypeVersion is the version a plugin library's request names.
const resourceTypeVersion = "00000001"

// stacksimExtra is what stacksim's own protocol adds to the contract's
// request: the engine's fields that the contract's JSON leaves out.
type stacksimExtra struct {
	TypeName           string `json:"typeName"`
	PhysicalResourceID string `json:"physicalResourceId,omitempty"`
	Phase              string `json:"phase"`
	Attempt            int    `json:"attempt"`
}

type stacksimRequest struct {
	*Request
	Stacksim stacksimExtra `json:"stacksim"`
}

type rpdkRequestData struct {
	CallerCredentials          map[string]string `json:"callerCredentials"`
	LogicalResourceID          string            `json:"logicalResourceId"`
	ResourceProperties         map[string]any    `json:"resourceProperties"`
	PreviousResourceProperties map[string]any    `json:"previousResourceProperties,omitempty"`
	StackTags                  map[string]string `json:"stackTags,omitempty"`
	PreviousStackTags          map[string]string `json:"previousStackTags,omitempty"`
	SystemTags                 map[string]string `json:"systemTags,omitempty"`
}

type rpdkRequest struct {
	AWSAccountID        string          `json:"awsAccountId"`
	BearerToken         string          `json:"bearerToken"`
	Region              string          `json:"region"`
	Action              Action          `json:"action"`
	ResourceType        string          `json:"resourceType"`
	ResourceTypeVersion string          `json:"resourceTypeVersion"`
	RequestData         rpdkRequestData `json:"requestData"`
	StackID             string          `json:"stackId,omitempty"`
	CallbackContext     map[string]any  `json:"callbackContext,omitempty"`
	NextToken           string          `json:"nextToken,omitempty"`
}

// rpdkTestInner is the test entry point's request: only the fields the
// libraries' UnmodelledRequest knows (the Python library refuses others,
// awsPartition among them: the libraries derive it from the region).
type rpdkTestInner struct {
	ClientRequestToken        string            `json:"clientRequestToken"`
	DesiredResourceState      map[string]any    `json:"desiredResourceState"`
	PreviousResourceState     map[string]any    `json:"previousResourceState,omitempty"`
	DesiredResourceTags       map[string]string `json:"desiredResourceTags,omitempty"`
	PreviousResourceTags      map[string]string `json:"previousResourceTags,omitempty"`
	SystemTags                map[string]string `json:"systemTags,omitempty"`
	AWSAccountID              string            `json:"awsAccountId"`
	LogicalResourceIdentifier string            `json:"logicalResourceIdentifier"`
	NextToken                 string            `json:"nextToken,omitempty"`
	StackID                   string            `json:"stackId,omitempty"`
	Region                    string            `json:"region"`
}

type rpdkTestRequest struct {
	Credentials     map[string]string `json:"credentials"`
	Action          Action            `json:"action"`
	Request         rpdkTestInner     `json:"request"`
	CallbackContext map[string]any    `json:"callbackContext,omitempty"`
	Region          string            `json:"region"`
}

// EncodeRequest writes a request in a protocol's shape, as one line of
// compact JSON (no newline inside; none at the end).
func EncodeRequest(p Protocol, typeName string, req *Request) ([]byte, error) {
	var v any
	desired := req.DesiredResourceState
	if desired == nil {
		desired = map[string]any{}
	}
	switch p {
	case ProtocolStacksim:
		v = stacksimRequest{Request: req, Stacksim: stacksimExtra{
			TypeName: typeName, PhysicalResourceID: req.PhysicalResourceID, Phase: req.Phase.String(), Attempt: req.Attempt}}
	case ProtocolRPDK:
		v = rpdkRequest{
			AWSAccountID: req.AWSAccountID, BearerToken: req.ClientRequestToken, Region: req.Region, Action: req.Action,
			ResourceType: typeName, ResourceTypeVersion: resourceTypeVersion,
			RequestData: rpdkRequestData{
				CallerCredentials: fakeCredentials, LogicalResourceID: req.LogicalResourceIdentifier,
				ResourceProperties: desired, PreviousResourceProperties: req.PreviousResourceState,
				StackTags: req.DesiredResourceTags, PreviousStackTags: req.PreviousResourceTags, SystemTags: req.SystemTags,
			},
			StackID: req.StackID, CallbackContext: req.CallbackContext, NextToken: req.NextToken,
		}
	case ProtocolRPDKTest:
		v = rpdkTestRequest{
			Credentials: fakeCredentials, Action: req.Action, CallbackContext: req.CallbackContext, Region: req.Region,
			Request: rpdkTestInner{
				ClientRequestToken: req.ClientRequestToken, DesiredResourceState: desired,
				PreviousResourceState: req.PreviousResourceState, DesiredResourceTags: req.DesiredResourceTags,
				PreviousResourceTags: req.PreviousResourceTags, SystemTags: req.SystemTags,
				AWSAccountID: req.AWSAccountID, LogicalResourceIdentifier: req.LogicalResourceIdentifier,
				NextToken: req.NextToken, StackID: req.StackID, Region: req.Region,
			},
		}
	default:
		return nil, fmt.Errorf("unknown handler protocol %d", p)
	}
	return json.Marshal(v)
}

// DecodeRequest reads a request that EncodeRequest wrote in stacksim's
// protocol (what a Go handler served by ServeHandler receives).
func DecodeRequest(line []byte) (*Request, error) {
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var in struct {
		Request
		Stacksim *stacksimExtra `json:"stacksim"`
	}
	if err := d.Decode(&in); err != nil {
		return nil, fmt.Errorf("the request is not JSON: %w", err)
	}
	req := in.Request
	if _, err := ParseAction(string(req.Action)); err != nil || req.Action != Action(strings.ToUpper(string(req.Action))) {
		return nil, fmt.Errorf("the request's action %q is not CREATE, READ, UPDATE, DELETE or LIST", req.Action)
	}
	if x := in.Stacksim; x != nil {
		req.ResourceType, req.PhysicalResourceID, req.Attempt = x.TypeName, x.PhysicalResourceID, x.Attempt
		if ph, err := ParsePhase(x.Phase); err == nil {
			req.Phase = ph
		}
	}
	return &req, nil
}

// decodeAnswer reads exactly one ProgressEvent from what a handler
// printed. The plugin libraries' answers carry more (bearerToken): what
// is not a ProgressEvent field is ignored.
func decodeAnswer(out []byte) (*ProgressEvent, string) {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		return nil, "printed nothing on standard output; a handler prints one ProgressEvent as JSON"
	}
	d := json.NewDecoder(bytes.NewReader(trimmed))
	d.UseNumber()
	var ev ProgressEvent
	if err := d.Decode(&ev); err != nil {
		return nil, fmt.Sprintf("printed something that is not a ProgressEvent (%v): %s", err, quoteBody(trimmed))
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, "printed more than one JSON value: " + quoteBody(trimmed)
	}
	if !ev.Status.Valid() {
		return nil, fmt.Sprintf("answered an unknown status %q (IN_PROGRESS, SUCCESS or FAILED): %s", ev.Status, quoteBody(trimmed))
	}
	return &ev, ""
}

// EncodeAnswer writes a ProgressEvent as one line of JSON, as a handler
// process answers. Unlike ProgressEvent's own encoding, an empty but
// present resourceModels stays in it ("resourceModels": []): a list that
// found nothing says so.
func EncodeAnswer(ev *ProgressEvent) ([]byte, error) {
	if ev == nil || ev.ResourceModels == nil || len(ev.ResourceModels) > 0 {
		return json.Marshal(ev)
	}
	type plain ProgressEvent // without its methods
	return json.Marshal(struct {
		*plain
		ResourceModels []map[string]any `json:"resourceModels"`
	}{(*plain)(ev), []map[string]any{}})
}
