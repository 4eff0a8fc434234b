package webview

import (
	"net/http"
)

func writeSVG(w http.ResponseWriter, svg string) {
	h := w.Header()
	h.Set("Content-Type", "image/svg+xml")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(svg))
}

// getMachineSVG draws the state machine, with ?name= a stack's path
// marked on it.
func (v *View) getMachineSVG(w http.ResponseWriter, r *http.Request) {
	if v.layoutErr != nil {
		v.writeEngineError(w, v.layoutErr)
		return
	}
	var path []string
	if name := r.URL.Query().Get("name"); name != "" {
		st, err := v.describe(r.Context(), name)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		events, err := v.allEvents(r.Context(), st.StackId)
		if err != nil {
			v.writeEngineError(w, err)
			return
		}
		for _, p := range stackPath(events) {
			path = append(path, p.ResourceStatus)
		}
	}
	writeSVG(w, machineSVG(v.layout, path))
}
