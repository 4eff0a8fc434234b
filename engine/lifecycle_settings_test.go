package engine

import (
	"fmt"
	"strings"
	"testing"
)

// NotificationARNs given to an update are the stack's from then on: a
// change by itself (AWS updates the stack, as for a change of tags), and
// what the template's AWS::NotificationARNs is during the update. They
// used to be neither: the update was refused as changing nothing, and with
// a template change beside them the template still saw the old ARNs (the
// binding was cached by the body and parameters alone).
func TestLifecycleUpdateNotificationARNs(t *testing.T) {
	h := newHarness(t, "update-notification-arns", Options{})
	arn := func(name string) string { return "arn:aws:sns:us-east-1:123456789012:" + name }
	arns := func(stack string) {
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: stack})
		if err != nil {
			t.Fatal(err)
		}
		h.note("   NotificationARNs %v", out.Stacks[0].NotificationARNs)
	}
	update := func(stack string, list []string) error {
		return h.call(fmt.Sprintf("UpdateStack %s (UsePreviousTemplate, NotificationARNs=%s)", stack, describeARNs(list)), func() error {
			_, err := h.e.UpdateStack(ctx(), UpdateStackInput{StackName: stack, UsePreviousTemplate: true, NotificationARNs: list})
			return err
		})
	}
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml"), NotificationARNs: []string{arn("a")}})
	})
	h.wait("app")
	arns("app")
	h.outputs("app")

	h.mustDo(func() error { return update("app", []string{arn("b")}) })
	h.wait("app")
	arns("app")
	h.outputs("app")
	h.resources("app")

	// The same ARNs, or none given (the stack keeps its own): no change.
	if err := update("app", []string{arn("b")}); err == nil {
		t.Fatal("an update with the stack's own ARNs was accepted")
	}
	if err := update("app", nil); err == nil {
		t.Fatal("an update that gives no ARNs was accepted")
	}

	// A change set that only clears them is a change set with changes; one
	// that gives the stack's own changes nothing.
	for _, cs := range []struct {
		name string
		arns []string
	}{{"clear", []string{}}, {"same", []string{arn("b")}}} {
		h.must(fmt.Sprintf("CreateChangeSet app %s (UsePreviousTemplate, NotificationARNs=%v)", cs.name, cs.arns), func() error {
			_, err := h.e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "app", ChangeSetName: cs.name, UsePreviousTemplate: true, NotificationARNs: cs.arns})
			return err
		})
		h.describeChangeSet("app", cs.name)
	}
	h.must("ExecuteChangeSet app clear", func() error {
		_, err := h.e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "app", ChangeSetName: "clear"})
		return err
	})
	h.wait("app")
	arns("app")
	h.outputs("app")

	// A template that does not read them: the stack alone is updated.
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "plain", TemplateBody: h.fixture("plain.yaml")})
	})
	h.wait("plain")
	h.mustDo(func() error { return update("plain", []string{arn("c")}) })
	h.wait("plain")
	arns("plain")
	h.done()
}

func describeARNs(list []string) string {
	if list == nil {
		return "(not given)"
	}
	return fmt.Sprint(list)
}

// An update that fails gives the stack back its tags and notification ARNs
// with its template and parameters, whether it rolls back by itself or by
// RollbackStack after it stopped with rollback disabled.
func TestLifecycleUpdateRollbackSettings(t *testing.T) {
	h := newHarness(t, "update-rollback-settings", Options{})
	settings := func() {
		out, err := h.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "app"})
		if err != nil {
			t.Fatal(err)
		}
		h.note("   Tags %v NotificationARNs %v", out.Stacks[0].Tags, out.Stacks[0].NotificationARNs)
		h.outputs("app")
	}
	h.mustDo(func() error {
		return h.create(CreateStackInput{StackName: "app", TemplateBody: h.fixture("v1.yaml"),
			Tags: []Tag{{Key: "team", Value: "a"}}, NotificationARNs: []string{"arn:aws:sns:us-east-1:123456789012:a"}})
	})
	h.wait("app")
	settings()
	for _, disable := range []bool{false, true} {
		in := UpdateStackInput{StackName: "app", TemplateBody: h.fixture("v2.yaml"), DisableRollback: disable,
			Tags: []Tag{{Key: "team", Value: "b"}}, NotificationARNs: []string{"arn:aws:sns:us-east-1:123456789012:b"}}
		in.Faults = h.faults("faults.yaml")
		h.mustDo(func() error { return h.updateStack(in) })
		h.wait("app")
		settings()
		if disable {
			h.must("RollbackStack app", func() error {
				_, err := h.e.RollbackStack(ctx(), RollbackStackInput{StackName: "app"})
				return err
			})
			h.wait("app")
			settings()
		}
	}
	h.resources("app")
	h.done()
}

// A service role given to an update, a change set, a delete, a rollback or
// a continued rollback is the stack's from then on ("CloudFormation always
// uses this role for all future operations on the stack"); a call that
// gives none keeps the stack's. It used to be kept only from CreateStack.
func TestRoleARNKept(t *testing.T) {
	e := newTestEngine(t, Options{})
	role := func(name string) string { return "arn:aws:iam::123456789012:role/" + name }
	body := func(v string) string {
		return "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: " + v + "}\n"
	}
	var id string
	check := func(step, want string) {
		t.Helper()
		if _, err := e.Run(ctx()); err != nil {
			t.Fatal(err)
		}
		out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: id})
		if err != nil {
			t.Fatal(err)
		}
		if got := out.Stacks[0].RoleARN; got != want {
			t.Errorf("after %s: RoleARN %q, want %q", step, got, want)
		}
	}
	created, err := e.CreateStack(ctx(), CreateStackInput{StackName: "s", TemplateBody: body("v1"), RoleARN: role("a")})
	if err != nil {
		t.Fatal(err)
	}
	id = created.StackId
	check("create", role("a"))
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.UpdateStack(ctx(), UpdateStackInput{StackName: "s", TemplateBody: body("v2"), RoleARN: role("b")}))
	check("an update with a role", role("b"))
	must(e.UpdateStack(ctx(), UpdateStackInput{StackName: "s", TemplateBody: body("v3")}))
	check("an update without one", role("b"))
	must(e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "s", ChangeSetName: "c", TemplateBody: body("v4"), RoleARN: role("c")}))
	check("a change set made (not executed)", role("b"))
	must(e.ExecuteChangeSet(ctx(), ExecuteChangeSetInput{StackName: "s", ChangeSetName: "c"}))
	check("the change set executed", role("c"))
	must(e.DeleteStack(ctx(), DeleteStackInput{StackName: "s", RoleARN: role("d")}))
	check("the delete", role("d"))
}

// A RoleARN outside the API's length constraints is refused by every call
// that takes one, and the stack keeps its role.
func TestRoleARNChecked(t *testing.T) {
	e := newTestEngine(t, Options{})
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: v}\n"
	good := "arn:aws:iam::123456789012:role/a"
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "s", TemplateBody: body, RoleARN: good}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx()); err != nil {
		t.Fatal(err)
	}
	short := "1 validation error detected: Value 'x' at 'roleARN' failed to satisfy constraint: Member must have length greater than or equal to 20"
	for name, call := range map[string]func() error{
		"CreateStack": func() error {
			_, err := e.CreateStack(ctx(), CreateStackInput{StackName: "t", TemplateBody: body, RoleARN: "x"})
			return err
		},
		"UpdateStack": func() error {
			_, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "s", TemplateBody: body + " ", RoleARN: "x"})
			return err
		},
		"CreateChangeSet": func() error {
			_, err := e.CreateChangeSet(ctx(), CreateChangeSetInput{StackName: "s", ChangeSetName: "c", TemplateBody: body, RoleARN: "x"})
			return err
		},
		"DeleteStack": func() error {
			_, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "s", RoleARN: "x"})
			return err
		},
		"ContinueUpdateRollback": func() error {
			_, err := e.ContinueUpdateRollback(ctx(), ContinueUpdateRollbackInput{StackName: "s", RoleARN: "x"})
			return err
		},
		"RollbackStack": func() error {
			_, err := e.RollbackStack(ctx(), RollbackStackInput{StackName: "s", RoleARN: "x"})
			return err
		},
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), short) {
			t.Errorf("%s with RoleARN x: %v, want %q", name, err, short)
		}
	}
	long := strings.Repeat("r", 2049)
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "s", RoleARN: long}); err == nil || !strings.Contains(err.Error(), "less than or equal to 2048") {
		t.Errorf("a 2,049-character RoleARN: %v", err)
	}
	out, err := e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "s"})
	if err != nil {
		t.Fatal(err)
	}
	if st := out.Stacks[0]; st.StackStatus != "CREATE_COMPLETE" || st.RoleARN != good {
		t.Errorf("after the refusals: %s, RoleARN %q", st.StackStatus, st.RoleARN)
	}
}
