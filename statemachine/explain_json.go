package statemachine

import (
	"encoding/json"
	"strings"
)

// The JSON document of an explanation (stacksim explain --output json): the
// names and shapes of the states document (Render in FormatJSON), field
// order fixed, so the output is byte-stable. Operations and refusals are a
// stack status's only; an empty list means none is accepted (or refused),
// where a resource status has neither.
type jsonExplanation struct {
	Machine    string            `json:"machine"`
	Status     string            `json:"status"`
	InMotion   bool              `json:"inMotion"`
	AtRest     bool              `json:"atRest"`
	Final      bool              `json:"final"`
	Phase      []string          `json:"phase,omitempty"`
	Summary    string            `json:"summary"`
	During     string            `json:"during,omitempty"`
	Next       string            `json:"next"`
	Arrivals   []Edge            `json:"arrivals"`
	Departures []Edge            `json:"departures"`
	Operations *[]jsonPermission `json:"operations,omitempty"`
	Refusals   *[]jsonRefusal    `json:"refusals,omitempty"`
}

type jsonRefusal struct {
	Operation string `json:"operation"`
	When      string `json:"when,omitempty"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

// MarshalJSON writes the explanation as a document of the states JSON's
// vocabulary (inMotion, atRest, phase, operations), with its prose, its
// transitions in and out, and AWS's answers to the operations refused.
func (x Explanation) MarshalJSON() ([]byte, error) {
	doc := jsonExplanation{
		Machine: x.Machine, Status: x.Status, InMotion: x.InMotion, AtRest: !x.InMotion, Final: x.Final,
		Summary: x.Summary, During: x.During, Next: x.Next,
		Arrivals: nonNilEdges(x.Arrivals), Departures: nonNilEdges(x.Departures),
	}
	if x.Phase != 0 {
		doc.Phase = strings.Split(x.Phase.Words(), ", ")
	}
	if x.Machine == "stack" {
		ops := make([]jsonPermission, 0, len(x.Permissions))
		for _, p := range x.Permissions {
			ops = append(ops, jsonPermissionOf(p))
		}
		refused := make([]jsonRefusal, 0, len(x.Refusals))
		for _, r := range x.Refusals {
			refused = append(refused, jsonRefusal{Operation: string(r.Err.Operation), When: r.When, Code: r.Err.Code, Message: r.Err.Message})
		}
		doc.Operations, doc.Refusals = &ops, &refused
	}
	return json.Marshal(doc)
}

func nonNilEdges(es []Edge) []Edge {
	if es == nil {
		return []Edge{}
	}
	return es
}
