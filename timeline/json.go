package timeline

import (
	"encoding/json"
	"io"
	"time"
)

// The JSON of a timeline (stacksim timeline --output json, and the web
// view's /view/api/stacks/NAME/timeline): the CLI's text as data. Times
// are virtual, in RFC 3339; durations in whole seconds of virtual time.

// JSON is a timeline as JSON.
type JSON struct {
	StackName   string       `json:"StackName"`
	Operation   string       `json:"Operation"`
	OperationId string       `json:"OperationId,omitempty"`
	StartTime   time.Time    `json:"StartTime"`
	EndTime     time.Time    `json:"EndTime"`
	Seconds     int64        `json:"Seconds"`
	Phases      []string     `json:"Phases"`
	Actions     []ActionJSON `json:"Actions"`
	// CriticalPath lists the ids of the actions on the critical path,
	// first first, and how long it took.
	CriticalPath        []int `json:"CriticalPath"`
	CriticalPathSeconds int64 `json:"CriticalPathSeconds"`
}

// ActionJSON is one action as JSON.
type ActionJSON struct {
	Id                   int       `json:"Id"`
	LogicalResourceId    string    `json:"LogicalResourceId"`
	ResourceType         string    `json:"ResourceType"`
	Action               string    `json:"Action"`
	Phase                string    `json:"Phase"`
	StartTime            time.Time `json:"StartTime"`
	EndTime              time.Time `json:"EndTime"`
	Seconds              int64     `json:"Seconds"`
	ResourceStatus       string    `json:"ResourceStatus,omitempty"`
	ResourceStatusReason string    `json:"ResourceStatusReason,omitempty"`
	InMotion             bool      `json:"InMotion"`
	Critical             bool      `json:"Critical"`
}

// JSON returns the timeline as JSON data.
func (tl *Timeline) JSON() JSON {
	crit := tl.criticalSet()
	out := JSON{
		StackName: tl.Stack, Operation: tl.Operation, OperationId: tl.OperationID,
		StartTime: tl.Start, EndTime: tl.End, Seconds: secs(tl.End.Sub(tl.Start)),
		Phases: append([]string{}, tl.Phases...), Actions: make([]ActionJSON, 0, len(tl.Actions)), CriticalPath: []int{},
	}
	for _, x := range tl.Actions {
		out.Actions = append(out.Actions, ActionJSON{
			Id: x.ID, LogicalResourceId: x.LogicalID, ResourceType: x.Type, Action: x.Verb, Phase: x.Phase,
			StartTime: x.Start, EndTime: x.End, Seconds: secs(x.Duration()),
			ResourceStatus: x.Result, ResourceStatusReason: x.Reason, InMotion: x.Open, Critical: crit[x],
		})
	}
	for _, x := range tl.Critical {
		out.CriticalPath = append(out.CriticalPath, x.ID)
	}
	if n := len(tl.Critical); n > 0 {
		out.CriticalPathSeconds = secs(tl.Critical[n-1].End.Sub(tl.Critical[0].Start))
	}
	return out
}

// WriteJSON writes the timeline as indented JSON, with a final newline.
func (tl *Timeline) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	return enc.Encode(tl.JSON())
}

func secs(d time.Duration) int64 { return int64(d / time.Second) }
