package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/stacksim/stacksim/engine"
)

// Wait condition handles: a handle's Ref is a presigned S3 URL, and a
// bootstrap script signals its wait condition by PUTting a JSON document
// there (cfn-signal, or curl). serve takes that PUT on its own port, at the
// URL's path and query: send it to the server instead of the URL's host
// (curl -X PUT --data-binary @signal.json "http://127.0.0.1:4599/${URL#https://*/}").

// waitHandleRequest tells whether r is a signal to a wait condition handle:
// a path that is a stack's ARN and a logical id, as the handles' URLs are.
func waitHandleRequest(r *http.Request) bool {
	return strings.HasPrefix(r.URL.Path, "/arn:") && strings.Contains(r.URL.Path, ":cloudformation:") && strings.Contains(r.URL.Path, ":stack/")
}

func (s *Server) serveWaitHandle(w http.ResponseWriter, r *http.Request, id string) (string, int) {
	const op = "SignalWaitConditionHandle"
	fail := func(status int, code, msg string) (string, int) {
		return op, s.writeS3Error(w, r, &s3Error{status: status, code: code, message: msg}, id)
	}
	if r.Method != http.MethodPut {
		return fail(http.StatusMethodNotAllowed, "MethodNotAllowed", fmt.Sprintf("A wait condition handle takes its signals by PUT, not %s", r.Method))
	}
	body, err := readObjectBody(w, r, 1<<20)
	if err != nil {
		return fail(http.StatusBadRequest, "IncompleteBody", err.Error())
	}
	var sig engine.WaitHandleSignal
	if err := json.Unmarshal(body, &sig); err != nil {
		return fail(http.StatusBadRequest, "InvalidRequest",
			`A wait condition signal is a JSON document: {"Status": "SUCCESS", "Reason": "...", "UniqueId": "ID", "Data": "..."} (`+err.Error()+")")
	}
	sig.URL = r.URL.String()
	ctx := loopContext()
	if _, err := s.pacer.catchUp(ctx); err != nil {
		return fail(http.StatusInternalServerError, "InternalError", err.Error())
	}
	if err := s.e.SignalWaitHandle(ctx, sig); err != nil {
		var none *engine.ErrNoWaitHandle
		var api *engine.APIError
		switch {
		case errors.As(err, &none):
			return fail(http.StatusForbidden, "AccessDenied", "Access Denied: "+err.Error())
		case errors.As(err, &api):
			return fail(http.StatusBadRequest, "InvalidRequest", api.Message)
		}
		return fail(http.StatusInternalServerError, "InternalError", err.Error())
	}
	if err := s.pacer.started(ctx); err != nil {
		return fail(http.StatusInternalServerError, "InternalError", err.Error())
	}
	if err := s.save(); err != nil {
		return fail(http.StatusInternalServerError, "InternalError", "the signal was taken, but the state could not be saved: "+err.Error())
	}
	w.Header().Set("x-amz-request-id", id)
	w.Header().Set("ETag", etagOf(body))
	w.Header().Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
	return op, http.StatusOK
}
