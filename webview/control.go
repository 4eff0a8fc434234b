package webview

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/stacksim/stacksim/engine"
)

// The loop's controls: POST /view/api/loop/hold, /view/api/loop/release,
// /view/api/step?name=NAME with {"Events": K} (0: to rest). They take
// JSON only, and refuse requests another site's page makes (a browser
// sends no cross-site JSON without asking first, and says where a request
// comes from), so that only this page and local tools drive them.

func (v *View) control(w http.ResponseWriter, r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		writeError(w, http.StatusForbidden, "AccessDenied", "the loop's controls answer this page only, not a request from "+site)
		return false
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		writeError(w, http.StatusUnsupportedMediaType, "ValidationError", "send the control as JSON (Content-Type: application/json)")
		return false
	}
	return true
}

func (v *View) postHold(w http.ResponseWriter, r *http.Request) {
	if !v.control(w, r) {
		return
	}
	if err := v.srv.Hold(r.Context()); err != nil {
		v.writeEngineError(w, err)
		return
	}
	v.hub.loopChanged()
	writeJSON(w, http.StatusOK, v.loop())
}

func (v *View) postRelease(w http.ResponseWriter, r *http.Request) {
	if !v.control(w, r) {
		return
	}
	if err := v.srv.Release(r.Context()); err != nil {
		v.writeEngineError(w, err)
		return
	}
	v.hub.loopChanged()
	writeJSON(w, http.StatusOK, v.loop())
}

// stepJSON is a step's answer: the stack after it, how many of its events
// the step wrote, and the loop.
type stepJSON struct {
	Stack  engine.Stack `json:"Stack"`
	Events int          `json:"Events"`
	Loop   loopJSON     `json:"Loop"`
}

func (v *View) postStep(w http.ResponseWriter, r *http.Request) {
	if !v.control(w, r) {
		return
	}
	name, ok := stackName(w, r)
	if !ok {
		return
	}
	var in struct {
		Events *int `json:"Events"`
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil || in.Events == nil {
		msg := `send {"Events": K}: K of the stack's events, or 0 to run it to rest`
		if err != nil {
			msg = "the body is not " + msg + " (" + err.Error() + ")"
		}
		writeError(w, http.StatusBadRequest, "ValidationError", msg)
		return
	}
	res, err := v.srv.Step(r.Context(), name, *in.Events)
	if err != nil {
		v.writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, stepJSON{Stack: res.Stack, Events: res.Events, Loop: v.loop()})
}
