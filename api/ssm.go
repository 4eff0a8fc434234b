package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/stacksim/stacksim/engine"
)

// SSM Parameter Store on the same port, read only: GetParameter and
// GetParameters answer from the simulated account's parameter store (the
// AWS::SSM::Parameter resources of its stacks, --ssm-parameter, AWS's
// public parameters), as the templates' AWS::SSM::Parameter::Value<>
// parameters read it. CDK's CLI reads its bootstrap version there
// (/cdk-bootstrap/QUALIFIER/version, which `cdk bootstrap` makes). The
// protocol is AWS JSON 1.1: X-Amz-Target AmazonSSM.OP.

const (
	ssmTarget      = "AmazonSSM."
	ssmContentType = "application/x-amz-json-1.1"
)

// ssmRequest tells whether r is an SSM request, and its operation.
func ssmRequest(r *http.Request) (string, bool) {
	return strings.CutPrefix(r.Header.Get("X-Amz-Target"), ssmTarget)
}

// ssmParameter is a parameter as GetParameter answers it.
type ssmParameter struct {
	ARN              string  `json:"ARN"`
	DataType         string  `json:"DataType"`
	LastModifiedDate float64 `json:"LastModifiedDate"`
	Name             string  `json:"Name"`
	Type             string  `json:"Type"`
	Value            string  `json:"Value"`
	Version          int64   `json:"Version"`
}

func ssmParameterOf(p *engine.AccountParameter) ssmParameter {
	return ssmParameter{ARN: p.ARN, DataType: "text", LastModifiedDate: float64(p.LastModified.Unix()),
		Name: p.Name, Type: p.Type, Value: p.Value, Version: p.Version}
}

// serveSSM answers an SSM request.
func (s *Server) serveSSM(w http.ResponseWriter, r *http.Request, op, id string) (string, int) {
	fail := func(status int, code, msg string) (string, int) {
		return op, writeJSON(w, status, ssmContentType, map[string]string{"__type": code, "message": msg}, id)
	}
	if r.Method != http.MethodPost {
		return fail(http.StatusMethodNotAllowed, codeInvalidAction, fmt.Sprintf("SSM's JSON protocol takes POST requests, not %s", r.Method))
	}
	body, werr := s.readBody(w, r)
	if werr != nil {
		return fail(werr.Status, werr.Code, werr.Message)
	}
	var in struct {
		Name           *string  `json:"Name"`
		Names          []string `json:"Names"`
		WithDecryption bool     `json:"WithDecryption"`
	}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			return fail(http.StatusBadRequest, "SerializationException", "The request body is not JSON: "+err.Error())
		}
	}
	switch op {
	case "GetParameter":
		if in.Name == nil || *in.Name == "" {
			return fail(http.StatusBadRequest, "ValidationException", "1 validation error detected: Value null at 'name' failed to satisfy constraint: Member must not be null")
		}
		p, ok, err := s.e.GetParameter(r.Context(), *in.Name)
		if err != nil {
			we := toWire(err)
			return fail(we.Status, we.Code, we.Message)
		}
		if !ok {
			return fail(http.StatusBadRequest, "ParameterNotFound", fmt.Sprintf("Parameter %s not found in the simulated account (stacksim's parameter store: the AWS::SSM::Parameter resources of its stacks, --ssm-parameter NAME=VALUE, AWS's public /aws/service/... parameters)", *in.Name))
		}
		return op, writeJSON(w, http.StatusOK, ssmContentType, map[string]ssmParameter{"Parameter": ssmParameterOf(p)}, id)
	case "GetParameters":
		if len(in.Names) == 0 || len(in.Names) > 10 {
			return fail(http.StatusBadRequest, "ValidationException", fmt.Sprintf("1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length between 1 and 10 (%d given)", len(in.Names)))
		}
		out := struct {
			Parameters        []ssmParameter `json:"Parameters"`
			InvalidParameters []string       `json:"InvalidParameters"`
		}{Parameters: []ssmParameter{}, InvalidParameters: []string{}}
		for _, name := range in.Names {
			p, ok, err := s.e.GetParameter(r.Context(), name)
			if err != nil {
				we := toWire(err)
				return fail(we.Status, we.Code, we.Message)
			}
			if ok {
				out.Parameters = append(out.Parameters, ssmParameterOf(p))
			} else {
				out.InvalidParameters = append(out.InvalidParameters, name)
			}
		}
		return op, writeJSON(w, http.StatusOK, ssmContentType, out, id)
	}
	return fail(http.StatusBadRequest, "UnknownOperationException",
		fmt.Sprintf("stacksim serves SSM's GetParameter and GetParameters only (the account's parameter store, read only), not %s", op))
}

// writeJSON writes a JSON answer of an AWS JSON protocol.
func writeJSON(w http.ResponseWriter, status int, contentType string, v any, id string) int {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(`{"__type":"InternalFailure","message":"the answer could not be written"}`)
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("x-amzn-RequestId", id)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
	return status
}
