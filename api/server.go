package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	smithy "github.com/aws/smithy-go"
	"go.uber.org/zap"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources/faults"
)

// Limits of a request.
const (
	// DefaultMaxBodyBytes caps a request's body: a template body's 51,200
	// bytes (the API's limit) many times over, far below what could hurt.
	DefaultMaxBodyBytes = 4 << 20
)

// Options configure a Server.
type Options struct {
	// Pace says how virtual time moves (instant by default).
	Pace Pace
	// Clock is the wall clock of the paced modes (the real one when nil).
	Clock Clock
	// Faults are injected into every operation a call starts (--faults).
	Faults []faults.Fault
	// Logger receives a line per request at debug level, and the
	// driver's failures. Nop when nil.
	Logger *zap.Logger
	// MaxBodyBytes caps a request's body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// Hold starts the server with its loop held (hold.go).
	Hold bool

	// strictShapes makes an engine answer with a field that the SDK's
	// output lacks an error (tests prove that nothing is lost).
	strictShapes bool
}

// Server answers the CloudFormation query API (and STS's
// GetCallerIdentity) from one engine.
type Server struct {
	e     *engine.Engine
	opts  Options
	log   *zap.Logger
	pacer *pacer
	reqs  atomic.Uint64

	// saveMu orders saves: a save that starts after a call committed
	// writes it.
	saveMu sync.Mutex
}

// New returns a server over e. A paced server needs Start to run its
// driver.
func New(e *engine.Engine, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	s := &Server{e: e, opts: opts, log: opts.Logger}
	s.pacer = newPacer(e, opts.Pace, opts.Clock)
	s.pacer.held = opts.Hold
	s.pacer.save = s.save
	s.pacer.onError = func(err error) { s.log.Error("pacing the event loop", zap.Error(err)) }
	return s
}

// Start runs the driver of a paced server until ctx is done (it returns at
// once when the pace is instant).
func (s *Server) Start(ctx context.Context) { s.pacer.drive(ctx) }

// Save makes the state durable (a no-op for an engine without a state
// file).
func (s *Server) Save() error { return s.save() }

func (s *Server) save() error {
	if s.e.StatePath() == "" {
		return nil
	}
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	had := s.e.StateVersionFrom()
	if err := s.e.Save(); err != nil {
		return err
	}
	if v := s.e.StateVersionFrom(); v != 0 && had == 0 {
		what := "moved the state file to this stacksim's version"
		if v == 2 {
			what = "laid the state file out anew"
		}
		s.log.Warn(what+" ("+engine.StateVersionChange(v)+"); a stacksim from before 2026-12-02 cannot read it now",
			zap.String("state", s.e.StatePath()), zap.Int("from", v), zap.Int("to", engine.StateVersion))
	}
	return nil
}

// requestID returns the id of the next request: UUID-shaped and counted,
// so that a run is reproducible.
func (s *Server) requestID() string {
	n := s.reqs.Add(1)
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", uint32(s.e.Seed()), n)
}

// ServeHTTP answers one request of the query protocol.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := s.requestID()
	action, status := s.serve(w, r, id)
	if s.log.Core().Enabled(zap.DebugLevel) {
		s.log.Debug("request", zap.String("action", action), zap.Int("status", status),
			zap.String("requestId", id), zap.Duration("took", time.Since(start)),
			zap.String("method", r.Method), zap.String("path", r.URL.Path), zap.String("target", r.Header.Get("X-Amz-Target")),
			zap.String("scope", signedService(r)))
	}
}

// service is one of the APIs served on the port.
type service struct {
	name      string
	version   string
	namespace string
}

var (
	cloudFormation = service{"cloudformation", modelVersion, modelNamespace}
	stsService     = service{"sts", stsVersion, stsNamespace}
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request, id string) (string, int) {
	// The services of other protocols than the query one.
	if proto, op, ok := cloudWatchRequest(r); ok {
		return s.serveCloudWatch(w, r, proto, op, id)
	}
	if op, ok := ssmRequest(r); ok {
		return s.serveSSM(w, r, op, id)
	}
	if waitHandleRequest(r) {
		return s.serveWaitHandle(w, r, id)
	}
	if signedService(r) == s3Service {
		return s.serveS3(w, r, id)
	}
	if r.Method != http.MethodPost && r.Method != http.MethodGet {
		return "", s.writeError(w, cloudFormation, &wireError{Status: http.StatusMethodNotAllowed, Code: codeInvalidAction,
			Message: fmt.Sprintf("The query API takes POST (or GET) requests to /, not %s", r.Method)}, id)
	}
	form, werr := s.readForm(w, r)
	if werr != nil {
		return "", s.writeError(w, cloudFormation, werr, id)
	}
	action := form.Get("Action")
	svc := serviceOf(r, form)
	if action == "" {
		return "", s.writeError(w, svc, newWireError(codeMissingAction, "The request must contain the parameter Action."), id)
	}
	if svc.name == cloudWatch.name {
		return s.serveCloudWatchQuery(w, form, id)
	}
	if svc.name == stsService.name {
		out, werr := s.callSTS(r.Context(), action, form)
		if werr != nil {
			return action, s.writeError(w, svc, werr, id)
		}
		return action, s.writeResult(w, svc, action, out, id)
	}
	out, err := s.call(r.Context(), action, form)
	if err != nil {
		return action, s.writeError(w, svc, toWire(err), id)
	}
	return action, s.writeResult(w, svc, action, out, id)
}

// signedService is the service of a request's SigV4 credential scope
// (…/REGION/SERVICE/aws4_request: the Authorization header's, or a
// presigned URL's X-Amz-Credential), "" when it has none.
func signedService(r *http.Request) string {
	_, cred, ok := strings.Cut(r.Header.Get("Authorization"), "Credential=")
	if ok {
		cred, _, _ = strings.Cut(cred, ",")
	} else if cred = r.URL.Query().Get("X-Amz-Credential"); cred == "" { // a presigned URL
		return ""
	}
	if parts := strings.Split(cred, "/"); len(parts) == 5 {
		return parts[3]
	}
	return ""
}

// serviceOf tells which API a request is for: the service of its SigV4
// credential scope (…/REGION/SERVICE/aws4_request), or its Version (STS,
// CloudWatch).
func serviceOf(r *http.Request, form url.Values) service {
	switch signedService(r) {
	case stsService.name:
		return stsService
	case cloudWatch.name:
		return cloudWatch
	}
	switch form.Get("Version") {
	case stsVersion:
		return stsService
	case cwVersion:
		return cloudWatch
	}
	return cloudFormation
}

// readBody reads a request's body, capped at MaxBodyBytes (every protocol
// but S3's, whose objects have their own cap).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *wireError) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, &wireError{Status: http.StatusRequestEntityTooLarge, Code: codeRequestTooLarge,
				Message: fmt.Sprintf("The request body is larger than %d bytes", s.opts.MaxBodyBytes)}
		}
		return nil, newWireError(codeMalformedQuery, "The request body could not be read: "+err.Error())
	}
	return body, nil
}

// readForm reads the form: the body of a POST (capped) and the URL's
// query.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request) (url.Values, *wireError) {
	body, werr := s.readBody(w, r)
	if werr != nil {
		return nil, werr
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, newWireError(codeMalformedQuery, "The request body is not a form (application/x-www-form-urlencoded): "+err.Error())
	}
	ownValues(form, len(body))
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, newWireError(codeMalformedQuery, "The query string is malformed: "+err.Error())
	}
	for k, vs := range q {
		if _, ok := form[k]; !ok {
			form[k] = vs
		}
	}
	return form, nil
}

// ownValues copies the values of a form parsed from a body of n bytes
// that are shorter than half of it. A value that needed no unescaping is a
// substring of the body, and what the engine keeps of it — a stack's
// name, a tag — would keep the whole body, its template included, alive
// for as long as the stack is remembered (deleted stacks too); a value of
// half the body or more keeps at most twice its size.
func ownValues(form url.Values, n int) {
	for _, vs := range form {
		for i, v := range vs {
			if len(v) < n/2 {
				vs[i] = strings.Clone(v)
			}
		}
	}
}

// call decodes, checks and makes one CloudFormation call, and makes what it
// changed durable before it returns.
func (s *Server) call(_ context.Context, action string, form url.Values) (smithy.Serializable, error) {
	if v := form.Get("Version"); v != modelVersion {
		return nil, newWireError(codeInvalidAction, fmt.Sprintf("Could not find operation %s for version %s", action, v))
	}
	op := operations()[action]
	if op == nil {
		if _, known := modelOperations[action]; known {
			return nil, newWireError(codeInvalidOperation, unsupportedMessage(action))
		}
		return nil, newWireError(codeInvalidAction, fmt.Sprintf("Could not find operation %s for version %s", action, modelVersion))
	}
	in := op.newInput()
	if err := decodeForm(parseFormTree(form), op.inputSchema, in); err != nil {
		var fe *formError
		if errors.As(err, &fe) {
			return nil, engine.ValidationError("%s", fe.Error())
		}
		return nil, err
	}
	if msg := validateInput(modelOperations[action], in); msg != "" {
		return nil, engine.ValidationError("%s", msg)
	}
	if names := op.givenUnsupported(in); len(names) > 0 {
		return nil, engine.ValidationError("stacksim does not support %s in %s yet: leave %s out (stacksim would otherwise ignore %s)",
			strings.Join(names, ", "), action, pronoun(len(names)), pronoun(len(names)))
	}
	ctx := loopContext()
	ran, err := s.pacer.catchUp(ctx)
	if err != nil {
		return nil, err
	}
	out, err := op.call(ctx, s.e, in, engine.Extensions{Faults: s.opts.Faults}, s.opts.strictShapes)
	changed := err == nil && op.kind != read
	if err == nil && op.kind == start {
		err = s.pacer.started(ctx)
	}
	// Saved whatever the loop did: the call itself committed.
	if changed || ran {
		if serr := s.save(); serr != nil {
			return nil, fmt.Errorf("the call was made, but the state could not be saved: %w", serr)
		}
	}
	return out, err
}

// loopContext is the context of the event loop's work: the loop belongs to
// the server, not to one request, so a client that goes away does not stop
// an operation half way. It is not context.WithoutCancel of the request's:
// the loop reads none of a request's values, and every value lookup through
// a WithoutCancel context allocates (its Value boxes the context), which an
// operation's handler calls do thousands of times (the fault injector's).
// So the calls that run the loop (call, Hold, Release, Step) take a
// request's context and leave it unused.
func loopContext() context.Context { return context.Background() }

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// writeResult writes an answer:
//
//	<XResponse xmlns="..."><XResult>...</XResult>
//	<ResponseMetadata><RequestId>...</RequestId></ResponseMetadata></XResponse>
func (s *Server) writeResult(w http.ResponseWriter, svc service, action string, out smithy.Serializable, id string) int {
	// The envelope and the result are written into one buffer, kept for
	// the next answer (a page of events is ~60 KB: growing a buffer to it
	// on every call was a sixth of the call's time).
	buf := takeBuffer()
	defer keepBuffer(buf)
	buf.WriteString("<" + action + `Response xmlns="` + svc.namespace + `">`)
	out.Serialize(newXMLSerializer(action+"Result", buf))
	buf.WriteString("<ResponseMetadata><RequestId>" + id + "</RequestId></ResponseMetadata></" + action + "Response>\n")
	s.writeBody(w, http.StatusOK, buf.Bytes(), id)
	return http.StatusOK
}

// resultBuffers are the buffers answers are written into, kept between
// calls; one that grew past maxKeptBuffer is let go.
var resultBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxKeptBuffer = 4 << 20

func takeBuffer() *bytes.Buffer {
	b := resultBuffers.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func keepBuffer(b *bytes.Buffer) {
	if b.Cap() <= maxKeptBuffer {
		resultBuffers.Put(b)
	}
}

func (s *Server) writeError(w http.ResponseWriter, svc service, e *wireError, id string) int {
	if e.Status >= 500 {
		s.log.Error("request failed", zap.String("code", e.Code), zap.String("message", e.Message), zap.String("requestId", id))
	}
	s.writeBody(w, e.Status, errorXML(svc.namespace, e, id), id)
	return e.Status
}

func (s *Server) writeBody(w http.ResponseWriter, status int, body []byte, id string) {
	h := w.Header()
	h.Set("Content-Type", "text/xml")
	h.Set("x-amzn-RequestId", id)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
