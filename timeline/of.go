package timeline

import (
	"context"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/template"
)

// CallError is the engine's refusal of one of the calls Of makes, with
// the call's name (DescribeStackOperation, DescribeStackEvents), so that
// the caller can report it as that call's error.
type CallError struct {
	Call string
	Err  error
}

func (e *CallError) Error() string { return e.Call + ": " + e.Err.Error() }
func (e *CallError) Unwrap() error { return e.Err }

// Of makes the timeline of a stack's operation as DescribeStackOperation
// finds it (the one in motion or open, or the last one): the stack's
// events from the operation's first, the stack's own "User Initiated"
// event that the call starting it wrote (every call that starts an
// operation writes exactly one; the events' ClientRequestToken cannot
// tell operations apart, since it is there only when the caller gave one).
func Of(ctx context.Context, e *engine.Engine, stackName string) (*Timeline, error) {
	op, err := e.DescribeStackOperation(ctx, engine.DescribeStackOperationInput{StackName: stackName})
	if err != nil {
		return nil, &CallError{"DescribeStackOperation", err}
	}
	o := op.Operation
	var newest []engine.StackEvent
	in := engine.DescribeStackEventsInput{StackName: o.StackId}
	for {
		out, err := e.DescribeStackEvents(ctx, in)
		if err != nil {
			return nil, &CallError{"DescribeStackEvents", err}
		}
		done := false
		for _, ev := range out.StackEvents {
			if ev.Timestamp.Before(o.StartTime) {
				// Newest first: everything after is older still.
				done = true
				break
			}
			newest = append(newest, ev)
			if ev.IsStackEvent() && ev.ResourceStatusReason == userInitiated {
				done = true // the operation's first event
				break
			}
		}
		if done || out.NextToken == "" {
			break
		}
		in.NextToken = out.NextToken
	}
	events := make([]engine.StackEvent, 0, len(newest))
	for i := len(newest) - 1; i >= 0; i-- {
		events = append(events, newest[i])
	}
	tl := Build(o.StackName, o.Operation, events, Relations(ctx, e, o.StackId))
	tl.OperationID = o.OperationId
	return tl, nil
}

// userInitiated is the reason of the stack's first event of an operation.
const userInitiated = "User Initiated"

// Relations reads the stack's template: two resources are related when
// one refers to the other (DependsOn, Ref, Fn::GetAtt, Fn::Sub). nil when
// the template cannot be read.
func Relations(ctx context.Context, e *engine.Engine, stack string) func(a, b string) bool {
	out, err := e.GetTemplate(ctx, engine.GetTemplateInput{StackName: stack})
	if err != nil {
		return nil
	}
	t, err := template.Parse("template", []byte(out.TemplateBody))
	if err != nil {
		return nil
	}
	refs := map[[2]string]bool{}
	for _, r := range t.Resources {
		for _, ref := range t.References(r.LogicalID) {
			refs[[2]string{r.LogicalID, ref.Target}] = true
		}
	}
	return func(a, b string) bool { return refs[[2]string{a, b}] || refs[[2]string{b, a}] }
}
