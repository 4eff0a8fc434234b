package webview

import (
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/engine"
)

//go:embed static
var staticFiles embed.FS

// Options configure a View.
type Options struct {
	// Logger receives the view's failures. Nop when nil.
	Logger *zap.Logger
	// MaxQueue caps the events queued for one page that has not read them
	// yet (DefaultMaxQueue when 0); past it the page is told to read the
	// state again instead (the Lost event).
	MaxQueue int
}

// DefaultMaxQueue is the events queued for a page that is slow to read.
const DefaultMaxQueue = 20000

// View serves the web page of one engine and the server that runs its
// loop.
type View struct {
	e      *engine.Engine
	srv    *api.Server
	log    *zap.Logger
	hub    *hub
	mux    *http.ServeMux
	static http.Handler
	// layout is where the state machine's statuses are drawn
	// (layout.json).
	layout    *layout
	layoutErr error
	// closed ends the event streams (Close).
	closed    chan struct{}
	closeOnce sync.Once
}

// New returns the view of e, whose loop srv runs.
func New(e *engine.Engine, srv *api.Server, opts Options) *View {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.MaxQueue <= 0 {
		opts.MaxQueue = DefaultMaxQueue
	}
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	v := &View{e: e, srv: srv, log: opts.Logger, hub: newHub(e, opts.MaxQueue), mux: http.NewServeMux(), closed: make(chan struct{}),
		static: http.StripPrefix("/view/static/", http.FileServerFS(sub))}
	v.layout, v.layoutErr = loadLayout()
	v.routes()
	return v
}

// Handler answers the page's requests and hands every other one to next
// (the API): /view/..., and GET / without an Action (a browser opening
// the address; the query API's GET requests carry one).
func (v *View) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsPage(r) {
			v.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// IsPage reports whether a request is the view's rather than the API's. A
// request signed with SigV4 is an SDK's, never the view's: S3's object
// of a bucket called "view" is /view/KEY.
func IsPage(r *http.Request) bool {
	if strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-") {
		return false
	}
	if strings.HasPrefix(r.URL.Path, "/view/") {
		return true
	}
	return r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) && !r.URL.Query().Has("Action")
}

// ServeHTTP answers one of the view's requests.
func (v *View) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Nothing but this server: the page can neither load nor send
	// anything elsewhere.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	v.mux.ServeHTTP(w, r)
}

// Close ends the event streams, which would otherwise keep an
// http.Server's Shutdown waiting (register it with RegisterOnShutdown).
func (v *View) Close() { v.closeOnce.Do(func() { close(v.closed) }) }

// Subscribers is how many pages are reading the event stream now.
func (v *View) Subscribers() int { return v.hub.count() }

func (v *View) routes() {
	m := v.mux
	m.HandleFunc("GET /{$}", v.page("index.html"))
	m.HandleFunc("GET /view/stack", v.page("stack.html"))
	m.Handle("GET /view/static/", v.static)
	m.HandleFunc("GET /view/api/loop", v.getLoop)
	m.HandleFunc("POST /view/api/loop/hold", v.postHold)
	m.HandleFunc("POST /view/api/loop/release", v.postRelease)
	m.HandleFunc("POST /view/api/step", v.postStep)
	m.HandleFunc("GET /view/api/statuses", v.getStatuses)
	m.HandleFunc("GET /view/api/stacks", v.getStacks)
	m.HandleFunc("GET /view/api/stack", v.getStack)
	m.HandleFunc("GET /view/api/resources", v.getResources)
	m.HandleFunc("GET /view/api/events", v.getEvents)
	m.HandleFunc("GET /view/api/live", v.getLive)
	m.HandleFunc("GET /view/api/timeline", v.getTimeline)
	m.HandleFunc("GET /view/api/operation", v.getOperation)
	m.HandleFunc("GET /view/api/plan", v.getPlan)
	m.HandleFunc("GET /view/svg/machine", v.getMachineSVG)
	m.HandleFunc("GET /view/svg/gantt", v.getGanttSVG)
	m.HandleFunc("GET /view/svg/plan", v.getPlanSVG)
	m.HandleFunc("/view/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "NotFound", "stacksim's web view has no "+r.Method+" "+r.URL.Path+": open / for the list of stacks (docs/webview.md lists the endpoints)")
	})
}

// page serves one of the embedded pages.
func (v *View) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, err := staticFiles.ReadFile("static/" + name)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "InternalFailure", err.Error())
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(b)
	}
}

// apiErrorJSON is an error as the endpoints answer it.
type apiErrorJSON struct {
	Code    string `json:"Code"`
	Message string `json:"Message"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, struct {
		Error apiErrorJSON `json:"Error"`
	}{apiErrorJSON{code, msg}})
}

// writeEngineError answers an engine's error: its code and message
// (400), or 500 for anything else.
func (v *View) writeEngineError(w http.ResponseWriter, err error) {
	var ae *engine.APIError
	if errors.As(err, &ae) {
		writeError(w, http.StatusBadRequest, ae.Code, ae.Message)
		return
	}
	v.log.Error("web view", zap.Error(err))
	writeError(w, http.StatusInternalServerError, "InternalFailure", err.Error())
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(map[string]any{"Error": apiErrorJSON{"InternalFailure", err.Error()}})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
	_, _ = w.Write([]byte("\n"))
}

// stackName reads the name query parameter (a stack's name or ARN).
func stackName(w http.ResponseWriter, r *http.Request) (string, bool) {
	name := r.URL.Query().Get("name")
	if name == "" {
		writeError(w, http.StatusBadRequest, "ValidationError", "Give the stack as ?name=NAME (or its ARN, for a deleted stack)")
		return "", false
	}
	return name, true
}
