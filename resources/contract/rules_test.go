package contract_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/resources/contract"
)

const thingSchema = `{
 "typeName": "Test::Broken::Thing",
 "properties": {
  "Name": {"type": "string", "maxLength": 10},
  "Size": {"type": "integer"},
  "Secret": {"type": "string"},
  "Arn": {"type": "string"},
  "Labels": {"type": "array", "insertionOrder": false, "items": {"type": "string"}}
 },
 "additionalProperties": false,
 "required": ["Size"],
 "primaryIdentifier": ["/properties/Name"],
 "createOnlyProperties": ["/properties/Name"],
 "readOnlyProperties": ["/properties/Arn"],
 "writeOnlyProperties": ["/properties/Secret"]
}`

func thing(t *testing.T) *resources.Schema {
	t.Helper()
	s, err := resources.ParseSchema("thing.json", []byte(thingSchema))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type answer func(req *resources.Request) (*resources.ProgressEvent, error)

// broken answers every action with one function.
func broken(f answer) resources.Handler {
	h := func(_ context.Context, r *resources.Request) (*resources.ProgressEvent, error) { return f(r) }
	return resources.HandlerFuncs{CreateFunc: h, ReadFunc: h, UpdateFunc: h, DeleteFunc: h, ListFunc: h}
}

func model(kv ...any) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func ok(m map[string]any) *resources.ProgressEvent { return resources.Success(m) }

var good = model("Name", "thing1", "Size", "3", "Arn", "arn:x")

func TestEveryRuleCatchesABrokenHandler(t *testing.T) {
	type step struct {
		action  resources.Action
		desired map[string]any
		token   string
		answer  answer
	}
	one := func(a resources.Action, f answer) []step { return []step{{a, good, "t1", f}} }
	cases := []struct {
		rule  string
		steps []step
	}{
		{contract.RuleHandlerError, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return nil, errors.New("boom")
		})},
		{contract.RuleEventMissing, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) { return nil, nil })},
		{contract.RuleStatusInvalid, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return &resources.ProgressEvent{Status: "DONE", ResourceModel: good}, nil
		})},
		{contract.RuleFailedErrorCode, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return resources.Failed("Oops", "bad"), nil
		})},
		{contract.RuleFailedMessage, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return resources.Failed(resources.ErrInternalFailure, ""), nil
		})},
		{contract.RuleSuccessErrorCode, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			ev := ok(good)
			ev.ErrorCode = resources.ErrThrottling
			return ev, nil
		})},
		{contract.RuleInProgressErrorCode, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			ev := resources.InProgress(good, nil, 5)
			ev.ErrorCode = resources.ErrThrottling
			return ev, nil
		})},
		{contract.RuleInProgressResourceModels, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			ev := resources.InProgress(good, nil, 5)
			ev.ResourceModels = []map[string]any{good}
			return ev, nil
		})},
		{contract.RuleTerminalCallbackDelay, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			ev := ok(good)
			ev.CallbackDelaySeconds = 5
			return ev, nil
		})},
		{contract.RuleCallbackDelayNegative, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return resources.InProgress(good, nil, -1), nil
		})},
		{contract.RuleReadListInProgress, one(resources.ActionRead, func(*resources.Request) (*resources.ProgressEvent, error) {
			return resources.InProgress(good, nil, 5), nil
		})},
		{contract.RuleDeleteSuccessModel, one(resources.ActionDelete, func(*resources.Request) (*resources.ProgressEvent, error) {
			return ok(good), nil
		})},
		{contract.RuleModelSchema, one(resources.ActionRead, func(*resources.Request) (*resources.ProgressEvent, error) {
			return ok(model("Name", "thing1", "Size", "three")), nil
		})},
		{contract.RuleModelNull, one(resources.ActionRead, func(*resources.Request) (*resources.ProgressEvent, error) {
			return ok(model("Name", "thing1", "Arn", nil)), nil
		})},
		{contract.RulePrimaryIdentifierMissing, one(resources.ActionCreate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return resources.InProgress(model("Size", "3"), nil, 5), nil
		})},
		{contract.RulePrimaryIdentifierChanged, one(resources.ActionUpdate, func(*resources.Request) (*resources.ProgressEvent, error) {
			return ok(model("Name", "thing2", "Size", "3")), nil
		})},
		{contract.RuleWriteOnlyReturned, one(resources.ActionRead, func(*resources.Request) (*resources.ProgressEvent, error) {
			return ok(model("Name", "thing1", "Secret", "hunter2")), nil
		})},
		{contract.RuleInputNotApplied, []step{{resources.ActionCreate, model("Name", "thing1", "Size", "3", "Labels", []any{"a", "b"}), "t1",
			func(*resources.Request) (*resources.ProgressEvent, error) {
				return ok(model("Name", "thing1", "Labels", []any{"b", "c"})), nil
			}}}},
		{contract.RuleResourceModelsNotList, one(resources.ActionRead, func(*resources.Request) (*resources.ProgressEvent, error) {
			return &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModel: good, ResourceModels: []map[string]any{good}}, nil
		})},
		{contract.RuleListResourceModel, one(resources.ActionList, func(*resources.Request) (*resources.ProgressEvent, error) {
			return &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModel: good, ResourceModels: []map[string]any{}}, nil
		})},
		{contract.RuleListModelsMissing, one(resources.ActionList, func(*resources.Request) (*resources.ProgressEvent, error) {
			return &resources.ProgressEvent{Status: resources.StatusSuccess}, nil
		})},
		{contract.RuleDeletedResourceFound, []step{
			{resources.ActionDelete, good, "t1", func(*resources.Request) (*resources.ProgressEvent, error) { return ok(nil), nil }},
			{resources.ActionRead, good, "t2", func(*resources.Request) (*resources.ProgressEvent, error) { return ok(good), nil }},
		}},
		{contract.RuleCreateExisting, []step{
			{resources.ActionCreate, good, "t1", func(*resources.Request) (*resources.ProgressEvent, error) { return ok(good), nil }},
			{resources.ActionCreate, good, "t2", func(*resources.Request) (*resources.ProgressEvent, error) { return ok(good), nil }},
		}},
		// The request of token "renamed" changes the createOnly Name
		// (previousOf); the handler renames the resource in place.
		{contract.RuleCreateOnlyChanged, []step{
			{resources.ActionUpdate, good, "renamed", func(*resources.Request) (*resources.ProgressEvent, error) { return ok(good), nil }},
		}},
	}
	previousOf := map[string]map[string]any{"renamed": model("Name", "thing0", "Size", "3")}
	covered := map[string]bool{}
	for _, tc := range cases {
		covered[tc.rule] = true
		t.Run(tc.rule, func(t *testing.T) {
			var answerNow answer
			h := broken(func(r *resources.Request) (*resources.ProgressEvent, error) { return answerNow(r) })
			c := contract.Wrap(resources.NewHandlerProvider(thing(t), h), contract.Options{Mode: contract.Report})
			for _, st := range tc.steps {
				answerNow = st.answer
				req := &resources.Request{Action: st.action, DesiredResourceState: resources.StringifyModel(st.desired),
					ClientRequestToken: st.token, LogicalResourceIdentifier: "Thing", ResourceType: "Test::Broken::Thing", Attempt: 1,
					PreviousResourceState: previousOf[st.token]}
				resources.Invoke(context.Background(), c, req) //nolint:errcheck // the violation is what counts
			}
			vs := c.Violations()
			found := false
			for _, v := range vs {
				if v.Rule == tc.rule {
					found = true
					if v.Request == nil || v.Message == "" {
						t.Errorf("violation without request or message: %+v", v)
					}
					if tc.rule != contract.RuleHandlerError && v.Event == nil && tc.rule != contract.RuleEventMissing {
						t.Errorf("violation without the event: %+v", v)
					}
				}
			}
			if !found {
				t.Fatalf("rule %s not reported; got %v", tc.rule, vs)
			}
		})
	}
	for _, r := range contract.Rules() {
		if !covered[r.ID] {
			t.Errorf("rule %s has no broken-handler case", r.ID)
		}
	}
}

func TestStrictModeFailsTheEvent(t *testing.T) {
	h := broken(func(*resources.Request) (*resources.ProgressEvent, error) {
		return ok(model("Name", "thing1", "Size", "3", "Secret", "s")), nil
	})
	c := contract.Wrap(resources.NewHandlerProvider(thing(t), h), contract.Options{Mode: contract.Strict})
	ev, err := resources.Invoke(context.Background(), c, &resources.Request{Action: resources.ActionRead, DesiredResourceState: good})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Status != resources.StatusFailed || ev.ErrorCode != resources.ErrHandlerInternalFailure || !strings.Contains(ev.Message, "[write-only-returned]") {
		t.Fatalf("strict: %v", ev)
	}
}

func TestGoodHandlerHasNoViolations(t *testing.T) {
	h := broken(func(r *resources.Request) (*resources.ProgressEvent, error) {
		switch r.Action {
		case resources.ActionDelete:
			return ok(nil), nil
		case resources.ActionList:
			return &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModels: []map[string]any{good}}, nil
		case resources.ActionCreate:
			if r.CallbackContext == nil {
				return resources.InProgress(model("Name", "thing1", "Size", 3), map[string]any{"step": "2"}, 10), nil
			}
		}
		return ok(model("Name", "thing1", "Size", 3, "Arn", "arn:x", "Labels", []any{"b", "a"})), nil
	})
	c := contract.Wrap(resources.NewHandlerProvider(thing(t), h), contract.Options{})
	in := model("Name", "thing1", "Size", "3", "Labels", []any{"a", "b"}, "Secret", "s")
	for _, a := range resources.Actions() {
		if _, err := resources.Drive(context.Background(), c, &resources.Request{Action: a, DesiredResourceState: in, ClientRequestToken: "t"}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if vs := c.Violations(); len(vs) > 0 {
		t.Fatalf("violations: %v", vs)
	}
}

// TestModelCheckedOnceIsNotTrustedWhenItChanges: the checker does not walk
// again a model it found valid when the handler answers the very same map
// for the same resource, but a different map — an invalid one, or one of
// another resource — is checked, and a delete forgets what it knew.
func TestModelCheckedOnceIsNotTrustedWhenItChanges(t *testing.T) {
	valid := model("Name", "thing1", "Size", 3, "Arn", "arn:x")
	invalid := model("Name", "thing1-much-too-long", "Size", 3, "Arn", "arn:x")
	var answers []map[string]any
	h := broken(func(r *resources.Request) (*resources.ProgressEvent, error) {
		m := answers[0]
		answers = answers[1:]
		if r.Action == resources.ActionDelete {
			return ok(nil), nil
		}
		return ok(m), nil
	})
	c := contract.Wrap(resources.NewHandlerProvider(thing(t), h), contract.Options{})
	call := func(a resources.Action, logical string, m map[string]any) int {
		t.Helper()
		answers = append(answers, m)
		before := len(c.Violations())
		if _, err := resources.Invoke(context.Background(), c, &resources.Request{Action: a, LogicalResourceIdentifier: logical,
			DesiredResourceState: model("Name", "thing1", "Size", 3), ClientRequestToken: "t-" + string(a)}); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, v := range c.Violations()[before:] {
			if v.Rule == contract.RuleModelSchema {
				n++
			}
		}
		return n
	}
	for _, s := range []struct {
		action  resources.Action
		logical string
		m       map[string]any
		want    int
	}{
		{resources.ActionCreate, "A", valid, 0},
		{resources.ActionRead, "A", valid, 0},   // the same map: known valid
		{resources.ActionRead, "A", invalid, 1}, // another map: checked
		{resources.ActionRead, "B", invalid, 1}, // another resource
		{resources.ActionRead, "A", valid, 0},
		{resources.ActionDelete, "A", nil, 0},
	} {
		if got := call(s.action, s.logical, s.m); got != s.want {
			t.Errorf("%s of %s: %d model-schema violations, want %d", s.action, s.logical, got, s.want)
		}
	}
}
