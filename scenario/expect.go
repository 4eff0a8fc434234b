package scenario

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
)

// Expect is what must hold after a step.
type Expect struct {
	Pos string
	// Stack is the stack the expectations are about (the step's stack by
	// default).
	Stack string
	// Status is the stack's status; Reason a part of its StackStatusReason.
	Status string
	Reason string
	// Drift is the stack's drift status as its last drift detection found
	// it (IN_SYNC, DRIFTED, NOT_CHECKED).
	Drift string
	// LastOperations are the types of the stack's last operations, newest
	// first (DescribeStacks' LastOperations: [ROLLBACK, UPDATE_STACK] after
	// an update rolled back); nil: not checked.
	LastOperations []string
	// Resources: each resource's status, physical id, whether the step
	// changed its physical id, or that it is gone.
	Resources []*ResourceExpect
	// Outputs and Exports: values by key (the stack's outputs; the
	// account's exports).
	Outputs []KeyValue
	Exports []KeyValue
	// Events must appear, in this order (others may come between), among
	// the events the step wrote.
	Events []*EventExpect
	// Error: the step's call is refused with this code, and a message
	// containing Message.
	Error *ErrorExpect
	// ContractViolations and FaultsFired count what the stack's last
	// operation recorded.
	ContractViolations *int
	FaultsFired        *int
}

// ResourceExpect is the expectation about one resource.
type ResourceExpect struct {
	Pos               string
	LogicalID         string
	Status            string
	PhysicalID        string
	PhysicalIDChanged *bool
	// Drift is the resource's drift status (IN_SYNC, MODIFIED, DELETED,
	// NOT_CHECKED, UNKNOWN).
	Drift string
	// Absent: the stack has no such resource (any more).
	Absent bool
}

// KeyValue is one expected output or export.
type KeyValue struct {
	Pos        string
	Key, Value string
}

// EventExpect is one expected event.
type EventExpect struct {
	Pos        string
	Stack      string
	LogicalID  string
	Status     string
	Reason     string // a part of the reason
	PhysicalID string
}

func (x *EventExpect) String() string {
	s := x.LogicalID + " " + x.Status
	if x.Stack != "" {
		s = x.Stack + "/" + s
	}
	if x.Reason != "" {
		s += " " + strconv.Quote(x.Reason)
	}
	return s
}

// ErrorExpect is an expected refusal.
type ErrorExpect struct {
	Code    string
	Message string
}

var expectKeys = []string{"stack", "status", "reason", "drift", "lastOperations", "resources", "outputs", "exports", "events", "error", "contractViolations", "faultsFired"}

func (l *loader) expect(n *yaml.Node) *Expect {
	x := &Expect{Pos: l.pos(n)}
	if n.Kind != yaml.MappingNode {
		l.at(n, "expect must be a mapping of %s, not %s", strings.Join(expectKeys, ", "), kindName(n))
		return x
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		switch k.Value {
		case "stack":
			x.Stack = l.str(v, "expect.stack")
		case "status":
			x.Status = l.stackStatus(v, "expect.status")
		case "reason":
			x.Reason = l.str(v, "expect.reason")
		case "drift":
			x.Drift = l.oneOf(v, "expect.drift", stackDriftStatuses)
		case "lastOperations":
			x.LastOperations = l.operationTypes(v)
		case "resources":
			x.Resources = l.resourceExpects(v)
		case "outputs":
			x.Outputs = l.keyValues(v, "expect.outputs")
		case "exports":
			x.Exports = l.keyValues(v, "expect.exports")
		case "events":
			x.Events = l.eventExpects(v)
		case "error":
			x.Error = l.errorExpect(v)
		case "contractViolations":
			n := l.count(v, "expect.contractViolations")
			x.ContractViolations = &n
		case "faultsFired":
			n := l.count(v, "expect.faultsFired")
			x.FaultsFired = &n
		default:
			l.at(k, "unknown key %q in expect; expected one of %s%s", readfile.Capped(k.Value), strings.Join(expectKeys, ", "), suggest(k.Value, expectKeys))
		}
	}
	return x
}

func (l *loader) resourceExpects(n *yaml.Node) []*ResourceExpect {
	if n.Kind != yaml.MappingNode {
		l.at(n, "expect.resources must be a mapping of logical ids to a status or to {status, physicalId, physicalIdChanged, drift, absent}, not %s", kindName(n))
		return nil
	}
	var out []*ResourceExpect
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		r := &ResourceExpect{Pos: l.pos(k), LogicalID: k.Value}
		what := "expect.resources." + k.Value
		switch v.Kind {
		case yaml.ScalarNode:
			if v.Value == "absent" {
				r.Absent = true
			} else {
				r.Status = l.resourceStatus(v, what)
			}
		case yaml.MappingNode:
			keys := []string{"status", "physicalId", "physicalIdChanged", "drift", "absent"}
			for j := 0; j+1 < len(v.Content); j += 2 {
				kk, vv := v.Content[j], resolveAlias(v.Content[j+1])
				switch kk.Value {
				case "status":
					r.Status = l.resourceStatus(vv, what+".status")
				case "physicalId":
					r.PhysicalID = l.str(vv, what+".physicalId")
				case "physicalIdChanged":
					b := l.boolean(vv, what+".physicalIdChanged")
					r.PhysicalIDChanged = &b
				case "drift":
					r.Drift = l.oneOf(vv, what+".drift", engine.ResourceDriftStatuses)
				case "absent":
					r.Absent = l.boolean(vv, what+".absent")
				default:
					l.at(kk, "unknown key %q in %s; expected one of %s%s", readfile.Capped(kk.Value), what, strings.Join(keys, ", "), suggest(kk.Value, keys))
				}
			}
		default:
			l.at(v, "%s must be a status or a mapping, not %s", what, kindName(v))
		}
		out = append(out, r)
	}
	return out
}

func (l *loader) keyValues(n *yaml.Node, what string) []KeyValue {
	if n.Kind != yaml.MappingNode {
		l.at(n, "%s must be a mapping of names to values, not %s", what, kindName(n))
		return nil
	}
	var out []KeyValue
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolveAlias(n.Content[i+1])
		out = append(out, KeyValue{Pos: l.pos(k), Key: k.Value, Value: l.str(v, what+"."+k.Value)})
	}
	return out
}

func (l *loader) eventExpects(n *yaml.Node) []*EventExpect {
	if n.Kind != yaml.SequenceNode {
		l.at(n, "expect.events must be a list of events (\"LOGICAL_ID STATUS\", or {logicalId, status, reason, physicalId, stack}), not %s", kindName(n))
		return nil
	}
	var out []*EventExpect
	for _, item := range n.Content {
		item = resolveAlias(item)
		x := &EventExpect{Pos: l.pos(item)}
		switch item.Kind {
		case yaml.ScalarNode:
			f := strings.Fields(item.Value)
			if len(f) != 2 {
				l.at(item, "an event is written \"LOGICAL_ID STATUS\" (two words), not %q; use {logicalId, status, reason} for more", readfile.Capped(item.Value))
				continue
			}
			x.LogicalID, x.Status = f[0], l.anyStatus(item, f[1])
		case yaml.MappingNode:
			keys := []string{"stack", "logicalId", "status", "reason", "physicalId"}
			for j := 0; j+1 < len(item.Content); j += 2 {
				k, v := item.Content[j], resolveAlias(item.Content[j+1])
				switch k.Value {
				case "stack":
					x.Stack = l.str(v, "event.stack")
				case "logicalId":
					x.LogicalID = l.str(v, "event.logicalId")
				case "status":
					x.Status = l.anyStatus(v, l.str(v, "event.status"))
				case "reason":
					x.Reason = l.str(v, "event.reason")
				case "physicalId":
					x.PhysicalID = l.str(v, "event.physicalId")
				default:
					l.at(k, "unknown key %q in an event; expected one of %s%s", readfile.Capped(k.Value), strings.Join(keys, ", "), suggest(k.Value, keys))
				}
			}
			if x.LogicalID == "" || x.Status == "" {
				l.at(item, "an event needs logicalId and status")
			}
		default:
			l.at(item, "an event is \"LOGICAL_ID STATUS\" or a mapping, not %s", kindName(item))
			continue
		}
		out = append(out, x)
	}
	return out
}

func (l *loader) errorExpect(n *yaml.Node) *ErrorExpect {
	x := &ErrorExpect{}
	switch n.Kind {
	case yaml.ScalarNode:
		x.Code = n.Value
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], resolveAlias(n.Content[i+1])
			switch k.Value {
			case "code":
				x.Code = l.str(v, "expect.error.code")
			case "message":
				x.Message = l.str(v, "expect.error.message")
			default:
				l.at(k, "unknown key %q in expect.error; expected code or message%s", readfile.Capped(k.Value), suggest(k.Value, []string{"code", "message"}))
			}
		}
	default:
		l.at(n, "expect.error must be an error code or {code, message}, not %s", kindName(n))
	}
	return x
}

// stackDriftStatuses are a stack's drift statuses.
var stackDriftStatuses = []string{engine.DriftInSync, engine.DriftDrifted, engine.DriftNotChecked}

// oneOf is a scalar that must be one of values.
func (l *loader) oneOf(n *yaml.Node, what string, values []string) string {
	s := l.str(n, what)
	if s != "" && !slices.Contains(values, s) {
		l.at(n, "%s: %q is not one of %s%s", what, readfile.Capped(s), strings.Join(values, ", "), suggest(s, values))
	}
	return s
}

// operationTypes reads expect.lastOperations: a list of operation types.
func (l *loader) operationTypes(n *yaml.Node) []string {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		l.at(n, "expect.lastOperations must be a list of operation types (%s), newest first", strings.Join(engine.OperationTypes, ", "))
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		out = append(out, l.oneOf(resolveAlias(item), "expect.lastOperations["+strconv.Itoa(i)+"]", engine.OperationTypes))
	}
	return out
}
