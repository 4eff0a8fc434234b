package scenario

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// Until is LOGICAL_ID:STATUS: a resource's status, or (with the stack's
// name) a stack status. A resource of a nested stack is named by the
// logical ids of the nested stacks that lead to it, joined with dots, as
// ContinueUpdateRollback's ResourcesToSkip names them: App.Queue is the
// resource Queue of the stack that the resource App of the stack made
// (App.Inner.Queue one level deeper).
type Until struct {
	Logical string
	Status  string
	stack   bool
}

// ParseUntil reads LOGICAL_ID:STATUS (--until, stopAt). A status of the
// stack goes with the stack's name. Statuses may be written in lower case
// with hyphens.
func ParseUntil(s, stack string) (*Until, error) {
	i := strings.LastIndex(s, ":")
	if i <= 0 || i == len(s)-1 {
		return nil, fmt.Errorf("%q: write LOGICAL_ID:STATUS, such as Queue:UPDATE_IN_PROGRESS (the stack's name for a stack status: %s:UPDATE_ROLLBACK_IN_PROGRESS; a nested stack's resource: App.Queue:CREATE_COMPLETE)", s, stack)
	}
	u := &Until{Logical: s[:i]}
	for _, seg := range strings.Split(u.Logical, ".") {
		if seg == "" {
			return nil, fmt.Errorf("%q: a nested stack's resource is written NESTED.LOGICAL_ID, each part a logical id (App.Queue:CREATE_COMPLETE)", s)
		}
	}
	raw := s[i+1:]
	if u.Logical == stack {
		st, err := statemachine.ParseStackStatus(raw)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", s, err)
		}
		u.Status, u.stack = string(st), true
		return u, nil
	}
	st, err := statemachine.ParseResourceStatus(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %v (a stack status goes with the stack's name: %s:STATUS)", s, err, stack)
	}
	u.Status = string(st)
	return u, nil
}

func (u *Until) String() string { return u.Logical + ":" + u.Status }

// Matches says whether an event of the stack itself is the one waited for.
func (u *Until) Matches(ev engine.StackEvent) bool {
	if u == nil || ev.ResourceStatus != u.Status {
		return false
	}
	if ev.IsStackEvent() {
		return u.stack && ev.StackName == u.Logical
	}
	return !u.stack && ev.LogicalResourceId == u.Logical
}

// For returns the matcher of the events of the stack root and of its
// nested stacks, in the order they are written: it learns each nested
// stack from its parent's resource (an AWS::CloudFormation::Stack whose
// physical id is the child's ARN, from "Resource creation Initiated" on),
// and matches a nested stack's resource by its dotted path. Events of
// other stacks never match. nil for a nil Until.
func (u *Until) For(root string) func(engine.StackEvent) bool {
	if u == nil {
		return nil
	}
	paths := map[string]string{root: ""} // stack id -> its path from root
	return func(ev engine.StackEvent) bool {
		prefix, known := paths[ev.StackId]
		if !known {
			return false
		}
		path := ev.LogicalResourceId
		if prefix != "" {
			path = prefix + "." + path
		}
		if !ev.IsStackEvent() && ev.ResourceType == engine.StackResourceType && strings.HasPrefix(ev.PhysicalResourceId, "arn:") {
			paths[ev.PhysicalResourceId] = path
		}
		if prefix == "" {
			return u.Matches(ev)
		}
		return !u.stack && !ev.IsStackEvent() && ev.ResourceStatus == u.Status && path == u.Logical
	}
}
