package faults

import (
	"fmt"
	"sort"

	"github.com/stacksim/stacksim/resources"
)

// State is what an injector has done so far: how many times each fault
// fired for each (stack, logical id, action, phase), the reads an
// eventual-consistency fault still refuses, and the firings in order. It
// is plain data (JSON), so that a caller can keep it with the work the
// faults apply to — the engine stores it with the stack operation — and
// make an injector that goes on exactly where another stopped
// (NewWithState), in another process if need be.
type State struct {
	Counts  []Count   `json:"counts,omitempty"`
	Pending []Pending `json:"pending,omitempty"`
	Fired   []Firing  `json:"fired,omitempty"`
}

// Count is how many times fault number Fault (its index in the injector's
// list) fired for one stack, logical id, action and phase.
type Count struct {
	Fault     int             `json:"fault"`
	Stack     string          `json:"stack,omitempty"`
	LogicalID string          `json:"logicalId"`
	Action    string          `json:"action"`
	Phase     resources.Phase `json:"phase,omitempty"`
	N         int             `json:"n"`
}

// Pending is how many reads an eventual-consistency fault still refuses
// for one stack and logical id.
type Pending struct {
	Fault     int    `json:"fault"`
	Stack     string `json:"stack,omitempty"`
	LogicalID string `json:"logicalId"`
	N         int    `json:"n"`
}

// NewWithState returns an injector of faults that has already done what
// st says (st comes from State of an injector of the same faults).
func NewWithState(fs []Fault, st State) (*Injector, error) {
	inj, err := New(fs...)
	if err != nil {
		return nil, err
	}
	for _, c := range st.Counts {
		if c.Fault < 0 || c.Fault >= len(inj.faults) {
			return nil, fmt.Errorf("faults: the state counts fault %d of %d", c.Fault, len(inj.faults))
		}
		inj.counts[countKey{fault: c.Fault, stack: c.Stack, logical: c.LogicalID, action: c.Action, phase: c.Phase}] = c.N
	}
	for _, p := range st.Pending {
		if p.Fault < 0 || p.Fault >= len(inj.faults) {
			return nil, fmt.Errorf("faults: the state has reads pending for fault %d of %d", p.Fault, len(inj.faults))
		}
		inj.pending[pendingKey{fault: p.Fault, stack: p.Stack, logical: p.LogicalID}] = p.N
	}
	inj.fired = append([]Firing(nil), st.Fired...)
	return inj, nil
}

// State returns what the injector has done so far, in a stable order.
func (inj *Injector) State() State {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	var st State
	for k, n := range inj.counts {
		st.Counts = append(st.Counts, Count{Fault: k.fault, Stack: k.stack, LogicalID: k.logical, Action: k.action, Phase: k.phase, N: n})
	}
	sort.Slice(st.Counts, func(i, j int) bool {
		a, b := st.Counts[i], st.Counts[j]
		if a.Fault != b.Fault {
			return a.Fault < b.Fault
		}
		if a.Stack != b.Stack {
			return a.Stack < b.Stack
		}
		if a.LogicalID != b.LogicalID {
			return a.LogicalID < b.LogicalID
		}
		if a.Action != b.Action {
			return a.Action < b.Action
		}
		return a.Phase < b.Phase
	})
	for k, n := range inj.pending {
		st.Pending = append(st.Pending, Pending{Fault: k.fault, Stack: k.stack, LogicalID: k.logical, N: n})
	}
	sort.Slice(st.Pending, func(i, j int) bool {
		a, b := st.Pending[i], st.Pending[j]
		if a.Fault != b.Fault {
			return a.Fault < b.Fault
		}
		if a.Stack != b.Stack {
			return a.Stack < b.Stack
		}
		return a.LogicalID < b.LogicalID
	})
	st.Fired = append([]Firing(nil), inj.fired...)
	return st
}

// Version counts the changes of the injector's state: a caller that keeps
// the state elsewhere copies it again only when the version moved.
func (inj *Injector) Version() uint64 {
	inj.mu.Lock()
	defer inj.mu.Unlock()
	return inj.version
}
