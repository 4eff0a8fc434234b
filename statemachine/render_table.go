package statemachine

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// table renders one line per status. For the stack: motion, phase and the
// operations accepted; for a resource: motion and the events that leave it.
func (v view) table(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if v.machine == "stack" {
		fmt.Fprintln(tw, "STATUS\tMOTION\tPHASE\tOPERATIONS")
		for _, s := range v.statuses {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.label(), s.motion(), s.phase, permissionList(s.permissions))
		}
	} else {
		fmt.Fprintln(tw, "STATUS\tMOTION\tEVENTS")
		for _, s := range v.statuses {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", s.label(), s.motion(), eventList(v.out(s.name)))
		}
	}
	return tw.Flush()
}

// eventList renders edges as "event → TO, ...".
func eventList(es []Edge) string {
	if len(es) == 0 {
		return "none"
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Event+" → "+e.To)
	}
	return strings.Join(out, ", ")
}

// The JSON document of a machine. Field order is fixed; statuses and events
// keep table order, so the output is byte-stable.
type jsonMachine struct {
	Machine  string       `json:"machine"`
	Statuses []jsonStatus `json:"statuses"`
	Events   []jsonEvent  `json:"events"`
}

type jsonStatus struct {
	Status     string           `json:"status"` // "" for NotExist
	InMotion   bool             `json:"inMotion"`
	AtRest     bool             `json:"atRest"`
	Final      bool             `json:"final"`
	Phase      []string         `json:"phase,omitempty"`
	Summary    string           `json:"summary"`
	Operations []jsonPermission `json:"operations,omitempty"`
	Events     []string         `json:"events"` // the events allowed from it
}

type jsonPermission struct {
	Operation          string   `json:"operation"`
	ChangeSetTypes     []string `json:"changeSetTypes,omitempty"`
	IfRollbackDisabled bool     `json:"ifRollbackDisabled,omitempty"`
	NoOp               bool     `json:"noOp,omitempty"`
}

func jsonPermissionOf(p Permission) jsonPermission {
	jp := jsonPermission{Operation: string(p.Operation), IfRollbackDisabled: p.IfRollbackDisabled, NoOp: p.NoOp}
	for _, t := range p.ChangeSetTypes {
		jp.ChangeSetTypes = append(jp.ChangeSetTypes, string(t))
	}
	return jp
}

type jsonEvent struct {
	Event       string `json:"event"`
	Summary     string `json:"summary"`
	Transitions []Edge `json:"transitions"`
}

func (v view) json(w io.Writer) error {
	doc := jsonMachine{Machine: v.machine, Statuses: []jsonStatus{}, Events: []jsonEvent{}}
	for _, s := range v.statuses {
		js := jsonStatus{
			Status: s.name, InMotion: s.inMotion, AtRest: s.name != NotExist && !s.inMotion, Final: s.final,
			Summary: s.summary, Events: []string{},
		}
		if s.phase != 0 {
			js.Phase = strings.Split(s.phase.Words(), ", ")
		}
		for _, p := range s.permissions {
			js.Operations = append(js.Operations, jsonPermissionOf(p))
		}
		for _, e := range v.out(s.name) {
			js.Events = append(js.Events, e.Event)
		}
		doc.Statuses = append(doc.Statuses, js)
	}
	for _, ev := range v.events {
		doc.Events = append(doc.Events, jsonEvent{Event: ev.name, Summary: ev.summary, Transitions: ev.edges})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
