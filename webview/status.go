package webview

import (
	"strings"

	"github.com/stacksim/stacksim/statemachine"
)

// How the page colours a status, as the AWS console does: in progress
// (blue), complete (green), failed (red) and skipped (grey). A stack that
// rolled back is coloured failed, as its operation failed.
const (
	catProgress = "progress"
	catComplete = "complete"
	catFailed   = "failed"
	catSkipped  = "skipped"
)

// category is the colour of a status (of a stack or a resource).
func category(status string) string {
	switch {
	case strings.HasSuffix(status, "_IN_PROGRESS"):
		return catProgress
	case strings.HasSuffix(status, "_FAILED"):
		return catFailed
	case strings.HasSuffix(status, "_SKIPPED"):
		return catSkipped
	case strings.HasSuffix(status, "ROLLBACK_COMPLETE"):
		return catFailed
	}
	return catComplete
}

// statusesJSON is every status of both machines and its colour
// (/view/api/statuses).
type statusesJSON struct {
	Stack    map[string]string `json:"Stack"`
	Resource map[string]string `json:"Resource"`
}

func allStatuses() statusesJSON {
	out := statusesJSON{Stack: map[string]string{}, Resource: map[string]string{}}
	for _, s := range statemachine.StackStatuses() {
		out.Stack[string(s)] = category(string(s))
	}
	for _, s := range statemachine.ResourceStatuses() {
		out.Resource[string(s)] = category(string(s))
	}
	return out
}
