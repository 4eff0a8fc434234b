package statemachine

import "strings"

// Permission says that an operation is accepted in a status, and on what
// condition. Permissions are derived from CheckOperation, never written by
// hand.
type Permission struct {
	Operation Operation
	// ChangeSetTypes lists, for CreateChangeSet and ExecuteChangeSet, the
	// change set types accepted on this condition.
	ChangeSetTypes []ChangeSetType
	// IfRollbackDisabled: accepted only when the stack's failed operation
	// disabled rollback (StackInfo.DisableRollback).
	IfRollbackDisabled bool
	// NoOp: accepted, and does nothing (IsNoOp).
	NoOp bool
}

// String renders the permission compactly: "UpdateStack",
// "CreateChangeSet(CREATE,IMPORT)", "UpdateStack [if rollback disabled]",
// "DeleteStack [no-op]".
func (p Permission) String() string {
	var b strings.Builder
	b.WriteString(string(p.Operation))
	if len(p.ChangeSetTypes) > 0 {
		b.WriteByte('(')
		for i, t := range p.ChangeSetTypes {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(string(t))
		}
		b.WriteByte(')')
	}
	switch {
	case p.NoOp:
		b.WriteString(" [no-op]")
	case p.IfRollbackDisabled:
		b.WriteString(" [if rollback disabled]")
	}
	return b.String()
}

// Permissions lists the operations accepted in status s (NotExist included),
// in the order of Operations.
func Permissions(s StackStatus) []Permission {
	var ps []Permission
	for _, op := range operations {
		types := []ChangeSetType{""}
		if op == CreateChangeSet || op == ExecuteChangeSet {
			types = changeSetTypes[:]
		}
		// Group the change set types by the condition they are accepted on.
		var always, ifDisabled, noop Permission
		for _, t := range types {
			plain := CheckOperation(op, StackInfo{Status: s, ChangeSetType: t})
			disabled := CheckOperation(op, StackInfo{Status: s, ChangeSetType: t, DisableRollback: true})
			switch {
			case IsNoOp(plain):
				noop.add(op, t)
			case plain == nil:
				always.add(op, t)
			case disabled == nil:
				ifDisabled.add(op, t)
			}
		}
		ifDisabled.IfRollbackDisabled = true
		noop.NoOp = true
		for _, p := range [...]Permission{always, ifDisabled, noop} {
			if p.Operation != "" {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func (p *Permission) add(op Operation, t ChangeSetType) {
	p.Operation = op
	if t != "" {
		p.ChangeSetTypes = append(p.ChangeSetTypes, t)
	}
}
