package statemachine

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

const (
	testName = "my-stack"
	testID   = "arn:aws:cloudformation:us-east-1:123456789012:stack/my-stack/1b2c3d4e"
	testCS   = "my-change-set"
)

// allStatuses: NotExist and the 23 stack statuses.
func allStatuses() []StackStatus { return append([]StackStatus{NotExist}, StackStatuses()...) }

// outcome is what CheckOperation should answer: accepted (ok), accepted and
// nothing done (noop: the error), or refused with code and message.
type outcome struct {
	ok   bool
	noop error
	code string
	msg  string
}

var accepted = outcome{ok: true}

func refusedWith(code, msg string) outcome { return outcome{code: code, msg: msg} }

func in(s StackStatus, set ...StackStatus) bool { return slices.Contains(set, s) }

var stableForUpdate = []StackStatus{"CREATE_COMPLETE", "UPDATE_COMPLETE", "UPDATE_ROLLBACK_COMPLETE", "IMPORT_COMPLETE", "IMPORT_ROLLBACK_COMPLETE"}

// want spells out, per operation, what AWS answers in each status, for a
// stack whose failed operation did or did not disable rollback.
func want(op Operation, s StackStatus, cs ChangeSetType, disableRollback, doNothing bool) outcome {
	cannotUpdate := refusedWith("ValidationError", fmt.Sprintf("Stack:%s is in %s state and can not be updated.", testID, s))
	doesNotExist := refusedWith("ValidationError", "Stack [my-stack] does not exist")
	update := func() outcome {
		switch {
		case in(s, stableForUpdate...):
			return accepted
		case s == "CREATE_FAILED" && doNothing:
			return refusedWith("ValidationError", "This stack cannot be updated from [CREATE_FAILED] state because it contains [on-failure: DO_NOTHING]. Please use disable-rollback option instead")
		case in(s, "CREATE_FAILED", "UPDATE_FAILED") && disableRollback:
			return accepted
		}
		return cannotUpdate
	}
	switch op {
	case CreateStack:
		if in(s, NotExist, "DELETE_COMPLETE") {
			return accepted
		}
		return refusedWith("AlreadyExistsException", "Stack [my-stack] already exists")
	case CreateChangeSet:
		switch cs {
		case "CREATE":
			if in(s, NotExist, "DELETE_COMPLETE", "REVIEW_IN_PROGRESS") {
				return accepted
			}
			return refusedWith("ValidationError", "Stack [my-stack] already exists and cannot be created again with the changeSet [my-change-set].")
		case "IMPORT":
			if in(s, append([]StackStatus{NotExist, "DELETE_COMPLETE", "REVIEW_IN_PROGRESS"}, stableForUpdate...)...) {
				return accepted
			}
			return cannotUpdate
		}
		if s == NotExist {
			return doesNotExist
		}
		return update()
	case ExecuteChangeSet:
		if in(s, NotExist, "DELETE_COMPLETE") {
			return refusedWith("ChangeSetNotFound", "ChangeSet [my-change-set] does not exist")
		}
		switch cs {
		case "CREATE":
			if s == "REVIEW_IN_PROGRESS" {
				return accepted
			}
			return cannotUpdate
		case "IMPORT":
			if in(s, append([]StackStatus{"REVIEW_IN_PROGRESS"}, stableForUpdate...)...) {
				return accepted
			}
			return cannotUpdate
		}
		return update()
	case UpdateStack:
		if s == NotExist {
			return doesNotExist
		}
		return update()
	case DeleteStack:
		switch {
		case in(s, NotExist, "DELETE_COMPLETE"):
			return outcome{noop: ErrAlreadyDeleted}
		case s == "DELETE_IN_PROGRESS":
			return outcome{noop: ErrAlreadyDeleting}
		case s == "REVIEW_IN_PROGRESS" || !in(s, "CREATE_IN_PROGRESS", "ROLLBACK_IN_PROGRESS", "UPDATE_IN_PROGRESS",
			"UPDATE_COMPLETE_CLEANUP_IN_PROGRESS", "UPDATE_ROLLBACK_IN_PROGRESS",
			"UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS", "IMPORT_IN_PROGRESS", "IMPORT_ROLLBACK_IN_PROGRESS"):
			return accepted
		}
		return refusedWith("ValidationError", fmt.Sprintf("Stack [my-stack] cannot be deleted while in status %s", s))
	case ContinueUpdateRollback:
		switch s {
		case NotExist:
			return doesNotExist
		case "UPDATE_ROLLBACK_FAILED":
			return accepted
		}
		return refusedWith("ValidationError", fmt.Sprintf("ContinueUpdateRollback cannot be called from stack with %s status", s))
	case RollbackStack:
		switch s {
		case NotExist:
			return doesNotExist
		case "CREATE_FAILED", "UPDATE_FAILED":
			return accepted
		}
		return refusedWith("ValidationError", fmt.Sprintf("RollbackStack cannot be called from stack with %s status", s))
	case CancelUpdateStack:
		switch s {
		case NotExist:
			return doesNotExist
		case "UPDATE_IN_PROGRESS":
			return accepted
		}
		return refusedWith("ValidationError", "CancelUpdateStack cannot be called from current stack status")
	}
	panic("unknown operation " + op)
}

// Every (operation, status) pair, with and without DisableRollback and
// OnFailure DO_NOTHING, and every change set type for the change set
// operations.
func TestCheckOperation(t *testing.T) {
	n := 0
	for _, op := range Operations() {
		types := []ChangeSetType{""}
		if op == CreateChangeSet || op == ExecuteChangeSet {
			types = []ChangeSetType{"", "CREATE", "UPDATE", "IMPORT"}
		}
		for _, s := range allStatuses() {
			for _, cs := range types {
				for _, flags := range [][2]bool{{false, false}, {true, false}, {false, true}} {
					n++
					info := StackInfo{StackName: testName, StackID: testID, Status: s, ChangeSetType: cs, ChangeSetName: testCS,
						DisableRollback: flags[0], OnFailureDoNothing: flags[1]}
					w := want(op, s, cs, flags[0], flags[1])
					err := CheckOperation(op, info)
					name := fmt.Sprintf("%s(%s) in %s, DisableRollback %v, DO_NOTHING %v", op, cs, label(string(s)), flags[0], flags[1])
					switch {
					case w.ok:
						if err != nil {
							t.Errorf("%s: %v, want accepted", name, err)
						}
					case w.noop != nil:
						if !errors.Is(err, w.noop) || !IsNoOp(err) {
							t.Errorf("%s: %v, want %v", name, err, w.noop)
						}
					default:
						var oe *OperationError
						if !errors.As(err, &oe) {
							t.Errorf("%s: %v, want *OperationError", name, err)
							continue
						}
						if oe.Code != w.code || oe.Message != w.msg || oe.Operation != op || oe.Status != s || err.Error() != w.msg {
							t.Errorf("%s:\n got %s %q\nwant %s %q", name, oe.Code, oe.Message, w.code, w.msg)
						}
					}
				}
			}
		}
	}
	if n != 8*24*3+2*24*3*3 {
		t.Errorf("checked %d cases", n)
	}
}

func TestCheckOperationUnknown(t *testing.T) {
	if err := CheckOperation("DescribeStacks", StackInfo{Status: "CREATE_COMPLETE"}); err == nil || IsNoOp(err) {
		t.Errorf("unknown operation: %v", err)
	}
	if err := CheckOperation(UpdateStack, StackInfo{Status: "CREATING"}); err == nil {
		t.Error("unknown status accepted")
	}
	if err := CheckOperation(CreateChangeSet, StackInfo{Status: "CREATE_COMPLETE", ChangeSetType: "DELETE"}); err == nil {
		t.Error("unknown change set type accepted")
	}
	// Without a stack ID, messages fall back on the name.
	err := CheckOperation(UpdateStack, StackInfo{StackName: "s", Status: "ROLLBACK_COMPLETE"})
	if err == nil || err.Error() != "Stack:s is in ROLLBACK_COMPLETE state and can not be updated." {
		t.Errorf("got %v", err)
	}
}

// Whatever CheckOperation accepts, the machine can do: the event
// OperationEvent names is legal from the status it names.
func TestOperationEventsAreLegal(t *testing.T) {
	for _, op := range Operations() {
		for _, s := range allStatuses() {
			for _, cs := range []ChangeSetType{"", "CREATE", "UPDATE", "IMPORT"} {
				for _, dr := range []bool{false, true} {
					info := StackInfo{StackName: testName, Status: s, ChangeSetType: cs, DisableRollback: dr}
					from, ev, ok := OperationEvent(op, info)
					err := CheckOperation(op, info)
					if ok != (err == nil && ev != "") {
						t.Errorf("%s(%s) in %s: OperationEvent ok = %v but CheckOperation = %v", op, cs, label(string(s)), ok, err)
					}
					if !ok {
						continue
					}
					if _, err := FireStack(testName, from, ev); err != nil {
						t.Errorf("%s(%s) in %s: accepted, but its event is illegal: %v", op, cs, label(string(s)), err)
					}
				}
			}
		}
	}
}

func TestOperationEvent(t *testing.T) {
	cases := []struct {
		op     Operation
		info   StackInfo
		from   StackStatus
		ev     StackEvent
		wantOK bool
	}{
		{CreateStack, StackInfo{Status: "DELETE_COMPLETE"}, NotExist, "create", true},
		{CreateChangeSet, StackInfo{Status: NotExist, ChangeSetType: "CREATE"}, NotExist, "review", true},
		{CreateChangeSet, StackInfo{Status: "REVIEW_IN_PROGRESS", ChangeSetType: "CREATE"}, "", "", false},
		{CreateChangeSet, StackInfo{Status: "UPDATE_COMPLETE"}, "", "", false},
		{ExecuteChangeSet, StackInfo{Status: "REVIEW_IN_PROGRESS", ChangeSetType: "CREATE"}, "REVIEW_IN_PROGRESS", "create", true},
		{ExecuteChangeSet, StackInfo{Status: "REVIEW_IN_PROGRESS", ChangeSetType: "IMPORT"}, "REVIEW_IN_PROGRESS", "import", true},
		{ExecuteChangeSet, StackInfo{Status: "UPDATE_COMPLETE"}, "UPDATE_COMPLETE", "update", true},
		{UpdateStack, StackInfo{Status: "UPDATE_FAILED", DisableRollback: true}, "UPDATE_FAILED", "update", true},
		{UpdateStack, StackInfo{Status: "ROLLBACK_COMPLETE"}, "", "", false},
		{DeleteStack, StackInfo{Status: "DELETE_IN_PROGRESS"}, "", "", false},
		{DeleteStack, StackInfo{Status: "DELETE_FAILED"}, "DELETE_FAILED", "delete", true},
		{ContinueUpdateRollback, StackInfo{Status: "UPDATE_ROLLBACK_FAILED"}, "UPDATE_ROLLBACK_FAILED", "continue_update_rollback", true},
		{RollbackStack, StackInfo{Status: "CREATE_FAILED"}, "CREATE_FAILED", "rollback", true},
		{CancelUpdateStack, StackInfo{Status: "UPDATE_IN_PROGRESS"}, "UPDATE_IN_PROGRESS", "cancel_update", true},
	}
	for _, c := range cases {
		from, ev, ok := OperationEvent(c.op, c.info)
		if ok != c.wantOK || (ok && (from != c.from || ev != c.ev)) {
			t.Errorf("%s in %s: %s, %q, %v; want %s, %q, %v", c.op, c.info.Status, from, ev, ok, c.from, c.ev, c.wantOK)
		}
	}
}

func TestPermissions(t *testing.T) {
	cases := map[StackStatus]string{
		NotExist:                 "CreateStack; CreateChangeSet(CREATE,IMPORT); DeleteStack [no-op]",
		"REVIEW_IN_PROGRESS":     "CreateChangeSet(CREATE,IMPORT); ExecuteChangeSet(CREATE,IMPORT); DeleteStack",
		"CREATE_FAILED":          "CreateChangeSet(UPDATE) [if rollback disabled]; ExecuteChangeSet(UPDATE) [if rollback disabled]; UpdateStack [if rollback disabled]; DeleteStack; RollbackStack",
		"UPDATE_COMPLETE":        "CreateChangeSet(UPDATE,IMPORT); ExecuteChangeSet(UPDATE,IMPORT); UpdateStack; DeleteStack",
		"UPDATE_ROLLBACK_FAILED": "DeleteStack; ContinueUpdateRollback",
		"ROLLBACK_COMPLETE":      "DeleteStack",
		"UPDATE_IN_PROGRESS":     "CancelUpdateStack",
		"DELETE_IN_PROGRESS":     "DeleteStack [no-op]",
		"DELETE_COMPLETE":        "CreateStack; CreateChangeSet(CREATE,IMPORT); DeleteStack [no-op]",
	}
	for s, w := range cases {
		var got []string
		for _, p := range Permissions(s) {
			got = append(got, p.String())
		}
		if g := strings.Join(got, "; "); g != w {
			t.Errorf("Permissions(%s) = %s\nwant %s", label(string(s)), g, w)
		}
	}
}
