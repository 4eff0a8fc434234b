package scenario

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/resources"
)

// Built-in responders: custom resource targets that live in stacksim, so
// that scenarios (and the command line, as --service-token ARN=builtin:NAME)
// replay custom resources without a program of their own.
//
//   - echo: SUCCESS. The physical id is the property PhysicalResourceId
//     when given, else the one the resource has (Update, Delete), else
//     LOGICALID-HASH. Data echoes the properties (ServiceToken aside), so
//     Fn::GetAtt reads them. It answers FAILED when the property Fail is
//     "true" or names the request type (Create, Update or Delete).
//   - fail: FAILED with Reason ("asked to fail" by default) for the request
//     types in On (Create and Update by default: a Delete that fails too
//     would leave the rollback stuck), SUCCESS otherwise, as echo.
//   - log-stream: what the cfn-response helper does by default (seed 004):
//     the physical id is the Lambda's log stream name, a new one for every
//     Create and Update, so that every update replaces the resource and the
//     old id is deleted in cleanup.

// Responder is a built-in custom resource target.
type Responder struct {
	// Kind is echo, fail or log-stream.
	Kind string
	// Reason is the Reason of a FAILED answer (fail).
	Reason string
	// On lists the request types that fail (fail).
	On []string
	// Log, when set, receives one line per request (the scenario's event
	// log shows them).
	Log func(line string)
}

var builtinKinds = []string{"echo", "fail", "log-stream"}

// BuiltinNames lists the built-in responders.
func BuiltinNames() []string { return append([]string(nil), builtinKinds...) }

// Builtin returns the built-in responder of a name, with its options
// (fail: reason, on).
func Builtin(name string, opts map[string]any) (*Responder, error) {
	r := &Responder{Kind: name}
	switch name {
	case "echo", "log-stream":
		if len(opts) > 0 {
			return nil, fmt.Errorf("builtin %q takes no options", name)
		}
	case "fail":
		r.Reason, r.On = "asked to fail", []string{resources.CustomCreate, resources.CustomUpdate}
		for k, v := range opts {
			switch k {
			case "reason":
				s, ok := v.(string)
				if !ok || s == "" {
					return nil, fmt.Errorf("builtin fail: reason must be a non-empty string")
				}
				r.Reason = s
			case "on":
				list, err := requestTypes(v)
				if err != nil {
					return nil, err
				}
				r.On = list
			default:
				return nil, fmt.Errorf("builtin fail: unknown option %q; expected reason or on", k)
			}
		}
	default:
		return nil, fmt.Errorf("unknown builtin responder %q; expected one of %s", name, strings.Join(builtinKinds, ", "))
	}
	return r, nil
}

func requestTypes(v any) ([]string, error) {
	var list []string
	switch t := v.(type) {
	case string:
		list = []string{t}
	case []any:
		for _, x := range t {
			s, _ := x.(string)
			list = append(list, s)
		}
	case []string:
		list = t
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("builtin fail: on must be Create, Update, Delete or a list of them")
	}
	for _, s := range list {
		switch s {
		case resources.CustomCreate, resources.CustomUpdate, resources.CustomDelete:
		default:
			return nil, fmt.Errorf("builtin fail: on: %q is not a request type; expected Create, Update or Delete", s)
		}
	}
	return list, nil
}

// Deliver implements resources.CustomTarget.
func (r *Responder) Deliver(_ context.Context, req *resources.CustomRequest) (*resources.CustomResponse, error) {
	if r.Log != nil {
		r.Log(requestLine(req))
	}
	id := req.PhysicalResourceID
	switch r.Kind {
	case "log-stream":
		if req.RequestType != resources.CustomDelete {
			id = logStreamName(req.RequestID + req.RequestType + req.PhysicalResourceID + propsText(req.ResourceProperties) + propsText(req.OldResourceProperties))
		}
	default:
		if v, ok := req.ResourceProperties["PhysicalResourceId"].(string); ok && v != "" && req.RequestType != resources.CustomDelete {
			id = v
		}
		if id == "" {
			id = req.LogicalResourceID + "-" + shortHash(req.RequestID, 8)
		}
	}
	fail := false
	reason := r.Reason
	switch r.Kind {
	case "fail":
		for _, t := range r.On {
			fail = fail || t == req.RequestType
		}
	case "echo":
		if f, _ := req.ResourceProperties["Fail"].(string); f == "true" || f == req.RequestType {
			fail, reason = true, "asked to fail (Fail: "+f+")"
		}
	}
	if fail {
		return &resources.CustomResponse{Status: "FAILED", Reason: reason, PhysicalResourceID: id}, nil
	}
	data := map[string]any{}
	for k, v := range req.ResourceProperties {
		if k != "ServiceToken" {
			data[k] = v
		}
	}
	return &resources.CustomResponse{Status: "SUCCESS", PhysicalResourceID: id, Data: data}, nil
}

// logStreamName makes a Lambda log stream name, as context.log_stream_name
// reads: DATE/[$LATEST]32 hex digits, derived from what the request holds,
// so that two different requests answer two different streams.
func logStreamName(requestID string) string {
	return "2025/01/01/[$LATEST]" + shortHash(requestID, 32)
}

func shortHash(s string, n int) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:n]
}

// requestLine writes a request for the log: type, logical id, physical id,
// properties and old properties (Update), keys sorted, ServiceToken aside.
func requestLine(req *resources.CustomRequest) string {
	var b strings.Builder
	fmt.Fprintf(&b, "custom %s %s", req.RequestType, req.LogicalResourceID)
	if req.PhysicalResourceID != "" {
		fmt.Fprintf(&b, " physical=%s", req.PhysicalResourceID)
	}
	fmt.Fprintf(&b, " properties=%s", propsText(req.ResourceProperties))
	if req.RequestType == resources.CustomUpdate {
		fmt.Fprintf(&b, " old=%s", propsText(req.OldResourceProperties))
	}
	return b.String()
}

func propsText(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "ServiceToken" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v, _ := json.Marshal(m[k])
		parts = append(parts, k+"="+string(v))
	}
	return "{" + strings.Join(parts, ",") + "}"
}
