package resources

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// CustomRequest is what CloudFormation sends a custom resource's service
// token target (BEHAVIOUR.md §7). ResourceProperties holds the template
// properties with every scalar stringified, ServiceToken included.
type CustomRequest struct {
	RequestType           string         `json:"RequestType"`
	ServiceToken          string         `json:"ServiceToken"`
	ResponseURL           string         `json:"ResponseURL"`
	StackID               string         `json:"StackId"`
	RequestID             string         `json:"RequestId"`
	ResourceType          string         `json:"ResourceType"`
	LogicalResourceID     string         `json:"LogicalResourceId"`
	PhysicalResourceID    string         `json:"PhysicalResourceId,omitempty"`
	ResourceProperties    map[string]any `json:"ResourceProperties"`
	OldResourceProperties map[string]any `json:"OldResourceProperties,omitempty"`
}

// CustomResponse is what a target answers, by an HTTP PUT of JSON to the
// ResponseURL (or, for a command, on its standard output).
type CustomResponse struct {
	Status             string         `json:"Status"`
	Reason             string         `json:"Reason,omitempty"`
	PhysicalResourceID string         `json:"PhysicalResourceId"`
	StackID            string         `json:"StackId,omitempty"`
	RequestID          string         `json:"RequestId,omitempty"`
	LogicalResourceID  string         `json:"LogicalResourceId,omitempty"`
	NoEcho             bool           `json:"NoEcho,omitempty"`
	Data               map[string]any `json:"Data,omitempty"`
}

// Custom resource request types.
const (
	CustomCreate = "Create"
	CustomUpdate = "Update"
	CustomDelete = "Delete"
)

// MaxCustomResponseBytes is the largest response body CloudFormation takes.
const MaxCustomResponseBytes = 4096

// ParseCustomResponse decodes and checks a response body against the request
// it answers (custom resource authors can test their responses with it), with CloudFormation's limits: at most 4096 bytes; Status
// SUCCESS or FAILED; a Reason when FAILED; a PhysicalResourceId of 1 to 1024
// bytes; StackId, RequestId and LogicalResourceId, when given, those of the
// request.
func ParseCustomResponse(body []byte, req *CustomRequest) (*CustomResponse, error) {
	if len(body) > MaxCustomResponseBytes {
		return nil, fmt.Errorf("Response object is too long: %d bytes; the limit is %d", len(body), MaxCustomResponseBytes)
	}
	d := json.NewDecoder(strings.NewReader(string(body)))
	d.UseNumber()
	var r CustomResponse
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("Invalid response object: %v; the body was %s", err, quoteBody(body))
	}
	if err := checkCustomResponse(&r, req); err != nil {
		return nil, err
	}
	return &r, nil
}

// checkCustomResponse applies CloudFormation's rules to a decoded response.
func checkCustomResponse(r *CustomResponse, req *CustomRequest) error {
	switch r.Status {
	case "SUCCESS", "FAILED":
	default:
		return fmt.Errorf("Invalid response object: Status is %q; it must be SUCCESS or FAILED", r.Status)
	}
	if r.Status == "FAILED" && r.Reason == "" {
		return fmt.Errorf("Invalid response object: a FAILED response needs a Reason")
	}
	if r.PhysicalResourceID == "" {
		return fmt.Errorf("Invalid PhysicalResourceId: the response has none; answer the id of what the resource made (on Update and Delete, the request's PhysicalResourceId)")
	}
	if len(r.PhysicalResourceID) > 1024 {
		return fmt.Errorf("Invalid PhysicalResourceId: %d bytes; the limit is 1024", len(r.PhysicalResourceID))
	}
	for _, f := range []struct{ name, got, want string }{
		{"StackId", r.StackID, req.StackID},
		{"RequestId", r.RequestID, req.RequestID},
		{"LogicalResourceId", r.LogicalResourceID, req.LogicalResourceID},
	} {
		if f.got != "" && f.got != f.want {
			return fmt.Errorf("Invalid response object: %s is %q but the request's is %q", f.name, f.got, f.want)
		}
	}
	return nil
}

// quoteBody quotes at most 200 bytes of a body for an error message.
func quoteBody(b []byte) string {
	const max = 200
	s := string(b)
	if len(s) > max {
		s = s[:max]
		for !utf8.ValidString(s) && len(s) > 0 {
			s = s[:len(s)-1]
		}
		return fmt.Sprintf("%q...", s)
	}
	return fmt.Sprintf("%q", s)
}
