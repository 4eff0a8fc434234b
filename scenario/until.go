package scenario

import (
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/statemachine"
)

// Until is LOGICAL_ID:STATUS: a resource's status, or (with the stack's
// name) a stack status.
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
		return nil, fmt.Errorf("%q: write LOGICAL_ID:STATUS, such as Queue:UPDATE_IN_PROGRESS (the stack's name for a stack status: %s:UPDATE_ROLLBACK_IN_PROGRESS)", s, stack)
	}
	u := &Until{Logical: s[:i]}
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

// Matches says whether an event is the one waited for.
func (u *Until) Matches(ev engine.StackEvent) bool {
	if u == nil || ev.ResourceStatus != u.Status {
		return false
	}
	if ev.IsStackEvent() {
		return u.stack && ev.StackName == u.Logical
	}
	return !u.stack && ev.LogicalResourceId == u.Logical
}
