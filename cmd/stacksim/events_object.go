package main

import "github.com/stacksim/stacksim/engine"

// eventsObject is toObject for describe-stack-events' answer, built from
// its fields without marshalling it to JSON and reading that back (which
// was most of what printing a 500-resource stack's 1,500 events cost).
// TestEventsObjectMatchesToObject holds the two to the same value.
func eventsObject(out *engine.DescribeStackEventsOutput) object {
	var list any
	if out.StackEvents != nil {
		items := make([]any, len(out.StackEvents))
		// One backing array for every event's members: an event has at
		// most 13.
		members := make([]member, 0, len(out.StackEvents)*13)
		for i := range out.StackEvents {
			start := len(members)
			members = appendEventMembers(members, &out.StackEvents[i])
			items[i] = object(members[start:len(members):len(members)])
		}
		list = items
	}
	obj := object{{"StackEvents", list}}
	if out.NextToken != "" {
		obj = append(obj, member{"NextToken", out.NextToken})
	}
	return obj
}

// appendEventMembers appends an event's members in the order of
// engine.StackEvent's fields, leaving out the empty omitempty ones as
// encoding/json does.
func appendEventMembers(ms []member, ev *engine.StackEvent) []member {
	ms = append(ms,
		member{"StackId", ev.StackId},
		member{"EventId", ev.EventId},
		member{"StackName", ev.StackName},
	)
	if ev.OperationId != "" {
		ms = append(ms, member{"OperationId", ev.OperationId})
	}
	ms = append(ms,
		member{"LogicalResourceId", ev.LogicalResourceId},
		member{"PhysicalResourceId", ev.PhysicalResourceId},
		member{"ResourceType", ev.ResourceType},
		member{"Timestamp", pyISOTime(ev.Timestamp)},
		member{"ResourceStatus", ev.ResourceStatus},
	)
	for _, m := range [...]member{
		{"ResourceStatusReason", ev.ResourceStatusReason},
		{"ResourceProperties", ev.ResourceProperties},
		{"ClientRequestToken", ev.ClientRequestToken},
		{"DetailedStatus", ev.DetailedStatus},
	} {
		if m.value != "" {
			ms = append(ms, m)
		}
	}
	return ms
}
