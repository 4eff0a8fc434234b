package timeline

import (
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func ev(sec int, logical, status string) engine.StackEvent {
	e := engine.StackEvent{StackId: "arn:s", StackName: "s", LogicalResourceId: logical, PhysicalResourceId: "p-" + logical,
		ResourceType: "AWS::SQS::Queue", ResourceStatus: status, Timestamp: t0.Add(time.Duration(sec) * time.Second)}
	if logical == "s" {
		e.ResourceType, e.PhysicalResourceId = engine.StackResourceType, "arn:s"
	}
	return e
}

// A waits for nothing, B and C start when A ends; C ends last, and the
// template relates C to A: the critical path is A → C, whatever else ended
// when C started.
func TestCriticalPathPrefersRelated(t *testing.T) {
	events := []engine.StackEvent{
		ev(0, "s", "CREATE_IN_PROGRESS"),
		ev(0, "Z", "CREATE_IN_PROGRESS"), ev(0, "A", "CREATE_IN_PROGRESS"),
		ev(2, "Z", "CREATE_COMPLETE"), ev(2, "A", "CREATE_COMPLETE"),
		ev(2, "C", "CREATE_IN_PROGRESS"), ev(5, "C", "CREATE_COMPLETE"),
		ev(5, "s", "CREATE_COMPLETE"),
	}
	related := func(a, b string) bool { return (a == "C" && b == "A") || (a == "A" && b == "C") }
	tl := Build("s", "CreateStack", events, related)
	var path []string
	for _, x := range tl.Critical {
		path = append(path, x.LogicalID)
	}
	if got := strings.Join(path, " → "); got != "A → C" {
		t.Fatalf("critical path %s, want A → C", got)
	}
	// Without the template's word, the first candidate (Z) is taken.
	tl = Build("s", "CreateStack", events, nil)
	if got := tl.Critical[0].LogicalID; got != "Z" {
		t.Fatalf("without relations the path starts at %s, want Z", got)
	}
	j := tl.JSON()
	if j.CriticalPathSeconds != 5 || len(j.Actions) != 3 || !j.Actions[0].Critical || j.Actions[1].Critical {
		t.Fatalf("JSON: %+v", j)
	}
}

// An action still running is open, in motion in the JSON, and "(in
// motion)" in the text.
func TestOpenAction(t *testing.T) {
	tl := Build("s", "UpdateStack", []engine.StackEvent{ev(0, "s", "UPDATE_IN_PROGRESS"), ev(1, "A", "UPDATE_IN_PROGRESS")}, nil)
	if len(tl.Actions) != 1 || !tl.Actions[0].Open || !tl.JSON().Actions[0].InMotion {
		t.Fatalf("%+v", tl.Actions)
	}
	var b strings.Builder
	tl.Text(&b)
	if !strings.Contains(b.String(), "(in motion)") {
		t.Fatalf("text:\n%s", b.String())
	}
}
