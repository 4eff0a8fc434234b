package engine

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"testing"

	"github.com/stacksim/stacksim/resources"
)

// TestMergeModels: the IN_PROGRESS model laid over the desired state has
// both's keys, the model's values winning; a model with every key of the
// desired state is the merge itself (shared, not copied), and neither map
// is changed.
func TestMergeModels(t *testing.T) {
	cases := []struct {
		name       string
		base, over map[string]any
		want       map[string]any
		shared     bool
	}{
		{"the model has every key", map[string]any{"A": "1", "B": "2"}, map[string]any{"A": "x", "B": "2", "Arn": "arn"}, map[string]any{"A": "x", "B": "2", "Arn": "arn"}, true},
		{"the model lacks a key", map[string]any{"A": "1", "B": "2"}, map[string]any{"A": "x", "Arn": "arn"}, map[string]any{"A": "x", "B": "2", "Arn": "arn"}, false},
		{"as many keys, one other", map[string]any{"A": "1", "B": "2"}, map[string]any{"A": "x", "C": "3"}, map[string]any{"A": "x", "B": "2", "C": "3"}, false},
		{"no desired state", nil, map[string]any{"A": "x"}, map[string]any{"A": "x"}, true},
		{"an empty model", map[string]any{"A": "1"}, map[string]any{}, map[string]any{"A": "1"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base, over := maps.Clone(c.base), maps.Clone(c.over)
			got := mergeModels(c.base, c.over)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("mergeModels = %v, want %v", got, c.want)
			}
			if resources.SameModel(got, c.over) != c.shared {
				t.Errorf("the merge is the model itself: %v, want %v", resources.SameModel(got, c.over), c.shared)
			}
			if !reflect.DeepEqual(c.base, base) || !reflect.DeepEqual(c.over, over) {
				t.Errorf("mergeModels changed its arguments: %v %v", c.base, c.over)
			}
		})
	}
}

// TestReadAfterCreateInTheSameTask: a create's SUCCESS is read back in the
// task that got it (Cloud Control's read), so that task writes the
// resource's CREATE_COMPLETE; the handler is called create, then read.
func TestReadAfterCreateInTheSameTask(t *testing.T) {
	e := newTestEngine(t, Options{})
	var calls []string
	answer := func(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
		calls = append(calls, string(req.Action))
		m := mergeModels(req.DesiredResourceState, map[string]any{"Arn": "arn:aws:bench:::thing"})
		return resources.Success(m), nil
	}
	s, err := resources.ParseSchema("bench", []byte(benchSchemaDoc))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Registry().Register(benchType, s, resources.HandlerFuncs{CreateFunc: answer, ReadFunc: answer}); err != nil {
		t.Fatal(err)
	}
	e.bindHook = func(body string) (boundTemplate, bool) {
		b, ok := bigStackOfBody(body)
		return b, ok
	}
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "big", TemplateBody: benchBody(1, 0)}); err != nil {
		t.Fatal(err)
	}
	var statuses [][]string
	for e.Pending() > 0 {
		before := len(calls)
		res, err := e.Step(ctx(), 1)
		if err != nil {
			t.Fatal(err)
		}
		out, err := e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "big"})
		if err != nil {
			t.Fatal(err)
		}
		var step []string
		for _, ev := range out.StackEvents[:res.Events] { // newest first
			step = append([]string{ev.LogicalResourceId + " " + ev.ResourceStatus}, step...)
		}
		statuses = append(statuses, append(step, fmt.Sprint(calls[before:])))
	}
	want := [][]string{
		{"R00000 CREATE_IN_PROGRESS", "[]"}, // the stack's own is CreateStack's
		{"R00000 CREATE_IN_PROGRESS", "R00000 CREATE_COMPLETE", "[CREATE READ]"},
		{"big CREATE_COMPLETE", "[]"},
	}
	if !reflect.DeepEqual(statuses, want) {
		t.Fatalf("events and handler calls, task by task:\n got %q\nwant %q", statuses, want)
	}
}
