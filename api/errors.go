package api

import (
	"bytes"
	"encoding/xml"
	"errors"
	"net/http"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	smithy "github.com/aws/smithy-go"
	"github.com/aws/smithy-go/traits"

	"github.com/stacksim/stacksim/engine"
)

// Errors on the wire: the query protocol's ErrorResponse, with the code
// and HTTP status that the service model gives each error shape
// (awsQueryError: ChangeSetNotFound 404, AlreadyExistsException 400,
// OperationInProgressException 409, ...). A code the model has no shape
// for (ValidationError, the protocol's own InvalidAction...) is a sender's
// fault, 400.
//
//	<ErrorResponse xmlns="...">
//	  <Error><Type>Sender</Type><Code>ValidationError</Code><Message>...</Message></Error>
//	  <RequestId>...</RequestId>
//	</ErrorResponse>

// wireError is an error as the API answers it.
type wireError struct {
	Status  int
	Code    string
	Message string
	// Receiver: the service's fault (Type Receiver), not the caller's.
	Receiver bool
}

func (e *wireError) Error() string { return e.Code + ": " + e.Message }

// Codes of the protocol's own errors (AWS's common errors).
const (
	codeInvalidAction      = "InvalidAction"
	codeMissingAction      = "MissingAction"
	codeMissingParameter   = "MissingParameter"
	codeMalformedQuery     = "MalformedQueryString"
	codeInternalFailure    = "InternalFailure"
	codeRequestTooLarge    = "RequestEntityTooLarge"
	codeInvalidOperation   = "InvalidOperationException"
	codeServiceUnavailable = "ServiceUnavailable"
)

type errorInfo struct {
	status int
	server bool
}

var (
	errorInfoOnce sync.Once
	errorInfos    map[string]errorInfo
)

// modelErrors returns the HTTP status of every error code of the model,
// read from the SDK's schemas (the awsQueryError and error traits).
func modelErrors() map[string]errorInfo {
	errorInfoOnce.Do(func() {
		errorInfos = map[string]errorInfo{}
		for _, entry := range cloudformation.TypeRegistry.Entries {
			if entry.Schema == nil {
				continue
			}
			t, ok := smithy.SchemaTrait[*traits.AWSQueryError](entry.Schema)
			if !ok {
				continue
			}
			info := errorInfo{status: t.StatusCode}
			if et, ok := smithy.SchemaTrait[*traits.Error](entry.Schema); ok && et.Type == "server" {
				info.server = true
			}
			errorInfos[t.ErrorCode] = info
		}
	})
	return errorInfos
}

// newWireError makes the error of a code, with the model's status.
func newWireError(code, message string) *wireError {
	e := &wireError{Status: http.StatusBadRequest, Code: code, Message: message}
	if info, ok := modelErrors()[code]; ok {
		e.Status, e.Receiver = info.status, info.server
	}
	return e
}

// toWire turns what a call returned into the error it answers: an
// *engine.APIError keeps its code and message; anything else is a failure
// of stacksim (InternalFailure, 500).
func toWire(err error) *wireError {
	var we *wireError
	if errors.As(err, &we) {
		return we
	}
	var api *engine.APIError
	if errors.As(err, &api) {
		return newWireError(api.Code, api.Message)
	}
	return &wireError{Status: http.StatusInternalServerError, Code: codeInternalFailure, Receiver: true,
		Message: "stacksim failed to serve the request (a bug; please report it): " + err.Error()}
}

// errorXML is the body of an ErrorResponse in the namespace ns.
func errorXML(ns string, e *wireError, requestID string) []byte {
	var b bytes.Buffer
	b.WriteString(`<ErrorResponse xmlns="`)
	_ = xml.EscapeText(&b, []byte(ns))
	b.WriteString(`"><Error><Type>`)
	if e.Receiver {
		b.WriteString("Receiver")
	} else {
		b.WriteString("Sender")
	}
	b.WriteString("</Type><Code>")
	_ = xml.EscapeText(&b, []byte(e.Code))
	b.WriteString("</Code><Message>")
	_ = xml.EscapeText(&b, []byte(e.Message))
	b.WriteString("</Message></Error><RequestId>")
	b.WriteString(requestID)
	b.WriteString("</RequestId></ErrorResponse>\n")
	return b.Bytes()
}
