package webview

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// The event stream (/view/api/live?name=NAME, or every stack's without
// name): server-sent events. Each message is one of
//
//	event: hello   data: the loop (sent once, when the page is subscribed:
//	               what it reads afterwards misses nothing)
//	event: events  data: [StackEvent...], oldest first, as written
//	event: loop    data: the loop, after it was held or released
//	event: lost    data: {} — the page fell behind and events were dropped:
//	               read the state again
//
// The stream ends when the page goes away; the page's queue goes with it.

func (v *View) getLive(w http.ResponseWriter, r *http.Request) {
	stackID := ""
	if name := r.URL.Query().Get("name"); name != "" {
		st, err := v.describe(r.Context(), name)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		stackID = st.StackId
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "InternalFailure", "the connection cannot stream")
		return
	}
	c := v.hub.join(stackID)
	defer v.hub.leave(c)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if err := writeSSE(w, "hello", v.loop()); err != nil {
		return
	}
	flusher.Flush()
	ctx := r.Context()
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.closed:
			return
		case <-c.notify:
		}
		evs, lost, loop := c.take()
		var err error
		if lost {
			err = writeSSE(w, "lost", struct{}{})
		}
		if err == nil && len(evs) > 0 {
			err = writeSSE(w, "events", evs)
		}
		if err == nil && loop {
			err = writeSSE(w, "loop", v.loop())
		}
		if err != nil {
			return
		}
		flusher.Flush()
	}
}

// writeSSE writes one message (JSON has no newline, so data is one line).
func writeSSE(w io.Writer, event string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	return err
}
