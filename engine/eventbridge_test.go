package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every stack event goes to the default bus, whatever the stack's
// NotificationARNs: the stack's own as a Stack Status Change, its
// resources' as a Resource Status Change (with the event's DetailedStatus:
// VALIDATION_FAILED for properties refused before any handler ran).
func TestEventBridgeEvents(t *testing.T) {
	e := newTestEngine(t, Options{})
	var got []EventBridgeEvent
	e.SubscribeEventBridge(func(ev EventBridgeEvent) { got = append(got, ev) })
	good := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	bad := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: NoSuchType, Value: v}\n"
	for _, c := range []struct{ name, body string }{{"app", good}, {"bad", bad}} {
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: c.name, TemplateBody: c.body, ClientRequestToken: "tok-" + c.name}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
	}
	want := append(stackEventsOf(t, e, "app"), stackEventsOf(t, e, "bad")...)
	if len(got) != len(want) {
		t.Fatalf("%d bus events for %d stack events", len(got), len(want))
	}
	var b strings.Builder
	ids := map[string]bool{}
	for i, ev := range got {
		w := want[i]
		if ev.Event.EventId != w.EventId || ids[ev.ID] || ev.Source != EventBridgeSource || len(ev.Resources) != 1 || ev.Resources[0] != w.StackId {
			t.Fatalf("bus event %d: %+v, for %+v", i, ev, w)
		}
		ids[ev.ID] = true
		switch d := ev.Detail.(type) {
		case *StackStatusDetail:
			if !w.IsStackEvent() || ev.DetailType != DetailTypeStackStatus || d.StatusDetails.Status != w.ResourceStatus {
				t.Fatalf("a stack status change for %+v: %+v", w, d)
			}
		case *ResourceStatusDetail:
			if w.IsStackEvent() || ev.DetailType != DetailTypeResourceStatus || d.LogicalResourceID != w.LogicalResourceId || d.StatusDetails.DetailedStatus != w.DetailedStatus {
				t.Fatalf("a resource status change for %+v: %+v", w, d)
			}
			if d.StatusDetails.DetailedStatus == "VALIDATION_FAILED" || (i == 1) {
				line, _ := json.Marshal(ev)
				b.Write(append(line, '\n'))
			}
		default:
			t.Fatalf("bus event %d: detail %T", i, ev.Detail)
		}
		if i == 0 {
			line, _ := json.Marshal(ev)
			b.Write(append(line, '\n'))
		}
	}
	golden(t, "eventbridge.golden", []byte(b.String()))
	if !strings.Contains(b.String(), `"detailed-status":"VALIDATION_FAILED"`) {
		t.Fatal("no bus event of a property validation failure")
	}
}

// A drift detection sends a Drift Detection Status Change when it ends,
// with the stack's drift status and the count of drifted resources.
func TestEventBridgeDriftDetection(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "app", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	var got []EventBridgeEvent
	e.SubscribeEventBridge(func(ev EventBridgeEvent) { got = append(got, ev) })
	if _, err := e.DriftResource(ctx(), DriftResourceInput{StackName: "app", LogicalResourceId: "P", Properties: map[string]any{"Value": "by hand"}}); err != nil {
		t.Fatal(err)
	}
	out, err := e.DetectStackDrift(ctx(), DetectStackDriftInput{StackName: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].DetailType != DetailTypeDriftDetection {
		t.Fatalf("bus events of a drift detection: %+v", got)
	}
	d, ok := got[0].Detail.(*DriftDetectionDetail)
	if !ok || d.StackDriftDetectionID != out.StackDriftDetectionId || d.StatusDetails.StackDriftStatus != DriftDrifted ||
		d.StatusDetails.DetectionStatus != DetectionComplete || d.DriftDetectionDetails.DriftedStackResourceCount != 1 {
		t.Fatalf("the detection's event: %+v", got[0].Detail)
	}
	line, _ := json.Marshal(got[0])
	golden(t, "eventbridge-drift.golden", append(line, '\n'))
	// A refused detection sends nothing.
	if _, err := e.DetectStackDrift(ctx(), DetectStackDriftInput{StackName: "nope"}); err == nil || len(got) != 1 {
		t.Fatalf("a refused detection: %v, %d events", err, len(got))
	}
}
