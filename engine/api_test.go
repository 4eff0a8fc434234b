package engine

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// apiWorld is a small account: "web" (CREATE_COMPLETE, two resources, an
// export), "worker" (importing it), a deleted "old", and "old" again.
type apiWorld struct {
	e                      *Engine
	web, worker, old, old2 *store.StackRecord
}

func newAPIWorld(t *testing.T, opts Options) *apiWorld {
	t.Helper()
	e := newTestEngine(t, opts)
	s := seed(t, e)
	w := &apiWorld{e: e}
	w.old = s.stack("old")
	s.resource(w.old, "Gone", "AWS::SNS::Topic", "arn:aws:sns:us-east-1:123456789012:gone", statemachine.ResourceStatusDeleteComplete, "")
	s.advance(time.Minute)
	w.old = s.setStatus(w.old, statemachine.StackStatusDeleteComplete, "")
	s.advance(time.Minute)
	w.web = s.stack("web", func(st *store.StackRecord) {
		st.Description = "The web tier"
		st.Parameters = []store.ParamValue{{Key: "DbPassword", Value: "s3cret", NoEcho: true}, {Key: "Env", Value: "prod"}}
		st.Capabilities = []string{"CAPABILITY_IAM"}
		st.TimeoutInMinutes = 15
		st.NotificationARNs = []string{"arn:aws:sns:us-east-1:123456789012:ops"}
		st.Tags = []Tag{{Key: "team", Value: "web"}}
		st.Outputs = []Output{{OutputKey: "Url", OutputValue: "https://web", ExportName: "web-url"}}
		st.TemplateBody = "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n"
		st.ProcessedTemplateBody = `{"Resources":{"Bucket":{"Type":"AWS::S3::Bucket"}}}`
	})
	s.resource(w.web, "Bucket", "AWS::S3::Bucket", "web-bucket-abc", statemachine.ResourceStatusCreateComplete, "")
	s.resource(w.web, "Alarm", "AWS::CloudWatch::Alarm", "web-alarm-xyz", statemachine.ResourceStatusCreateComplete, "")
	s.do(func(tx *txn) error {
		r := tx.Resource(w.web.Num, "Bucket").Clone()
		r.Metadata = `{"Owner":"web"}`
		r.Description = "the bucket"
		tx.PutResource(r)
		return tx.PutExport(&store.ExportRecord{Name: "web-url", Value: "https://web", StackId: w.web.StackId})
	})
	w.web = s.setStatus(w.web, statemachine.StackStatusCreateComplete, "")
	s.advance(time.Minute)
	w.worker = s.stack("worker")
	s.do(func(tx *txn) error { tx.SetImports(w.worker.StackId, []string{"web-url"}); return nil })
	w.worker = s.setStatus(w.worker, statemachine.StackStatusCreateComplete, "")
	s.advance(time.Minute)
	w.old2 = s.stack("old")
	return w
}

// wantAPIError checks that err is an *APIError with code and message.
func wantAPIError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("want %s %q, got %v", code, msg, err)
	}
	if ae.Code != code || ae.Message != msg {
		t.Fatalf("got %s %q, want %s %q", ae.Code, ae.Message, code, msg)
	}
}

func TestDescribeStacks(t *testing.T) {
	w := newAPIWorld(t, Options{})
	out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "web"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "describe-stacks-web.json", mustJSON(t, out))
	st := out.Stacks[0]
	if st.Parameters[0].ParameterValue != "****" || st.Parameters[1].ParameterValue != "prod" {
		t.Fatalf("parameters %+v", st.Parameters)
	}

	for _, c := range []struct {
		name, in, wantID string
		err              string
	}{
		{"by name", "web", w.web.StackId, ""},
		{"by id", w.web.StackId, w.web.StackId, ""},
		{"deleted by id", w.old.StackId, w.old.StackId, ""},
		{"name reused", "old", w.old2.StackId, ""},
		{"missing", "nope", "", "Stack with id nope does not exist"},
		{"missing id", w.web.StackId + "x", "", "Stack with id " + w.web.StackId + "x does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: c.in})
			if c.err != "" {
				wantAPIError(t, err, CodeValidationError, c.err)
				return
			}
			if err != nil || len(out.Stacks) != 1 || out.Stacks[0].StackId != c.wantID {
				t.Fatalf("%+v %v", out, err)
			}
		})
	}

	deleted, _ := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: w.old.StackId})
	if d := deleted.Stacks[0]; d.StackStatus != "DELETE_COMPLETE" || d.DeletionTime == nil {
		t.Fatalf("deleted stack %+v", d)
	}

	// Every live stack, newest first, a page at a time.
	w2 := newAPIWorld(t, Options{PageSize: 2})
	var names []string
	token := ""
	for pages := 0; ; pages++ {
		out, err := w2.e.DescribeStacks(ctx(), DescribeStacksInput{NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range out.Stacks {
			names = append(names, s.StackName)
		}
		if token = out.NextToken; token == "" {
			break
		}
	}
	if want := []string{"old", "worker", "web"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("stacks %v, want %v", names, want)
	}
	_, err = w2.e.DescribeStacks(ctx(), DescribeStacksInput{NextToken: "garbage"})
	wantAPIError(t, err, CodeValidationError, invalidToken().Message)
}

func TestListStacks(t *testing.T) {
	w := newAPIWorld(t, Options{PageSize: 3})
	list := func(filter ...string) []string {
		t.Helper()
		var got []string
		token := ""
		for {
			out, err := w.e.ListStacks(ctx(), ListStacksInput{StackStatusFilter: filter, NextToken: token})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range out.StackSummaries {
				got = append(got, s.StackName+":"+s.StackStatus)
			}
			if token = out.NextToken; token == "" {
				return got
			}
		}
	}
	if got, want := list(), []string{"old:CREATE_IN_PROGRESS", "worker:CREATE_COMPLETE", "web:CREATE_COMPLETE", "old:DELETE_COMPLETE"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("all: %v", got)
	}
	if got, want := list("DELETE_COMPLETE", "CREATE_IN_PROGRESS"), []string{"old:CREATE_IN_PROGRESS", "old:DELETE_COMPLETE"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("filtered: %v", got)
	}
	if got := list("ROLLBACK_FAILED"); len(got) != 0 {
		t.Fatalf("none expected: %v", got)
	}
	_, err := w.e.ListStacks(ctx(), ListStacksInput{StackStatusFilter: []string{"CREATE_COMPLETE", "DONE"}})
	if !IsCode(err, CodeValidationError) || !strings.Contains(err.Error(), "Value 'DONE' at 'stackStatusFilter'") ||
		!strings.Contains(err.Error(), "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS") {
		t.Fatalf("bad filter: %v", err)
	}
	out, _ := w.e.ListStacks(ctx(), ListStacksInput{StackStatusFilter: []string{"DELETE_COMPLETE"}})
	golden(t, "list-stacks-deleted.json", mustJSON(t, out))
}

func TestDescribeStackEventsErrors(t *testing.T) {
	w := newAPIWorld(t, Options{PageSize: 1})
	_, err := w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "nope"})
	wantAPIError(t, err, CodeValidationError, "Stack [nope] does not exist")
	_, err = w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{})
	wantAPIError(t, err, CodeValidationError, requiredError("stackName").Message)
	// A deleted stack's events: by id only.
	out, err := w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: w.old.StackId})
	if err != nil || out.StackEvents[0].ResourceStatus != "DELETE_COMPLETE" {
		t.Fatalf("%+v %v", out, err)
	}
	// A token is good for its stack only.
	page, _ := w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web"})
	_, err = w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "worker", NextToken: page.NextToken})
	wantAPIError(t, err, CodeValidationError, invalidToken().Message)
	_, err = w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "web", NextToken: encodeToken("ListExports", "x")})
	wantAPIError(t, err, CodeValidationError, invalidToken().Message)
}

func TestDescribeStackResource(t *testing.T) {
	w := newAPIWorld(t, Options{})
	out, err := w.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "web", LogicalResourceId: "Bucket"})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "describe-stack-resource.json", mustJSON(t, out))
	for _, c := range []struct {
		name, stack, logical, msg string
	}{
		{"no resource", "web", "Nope", "Resource Nope does not exist for stack web"},
		{"no stack", "nope", "Bucket", "Stack 'nope' does not exist"},
		{"deleted by name", "old", "Gone", "Resource Gone does not exist for stack old"},
		{"missing logical id", "web", "", requiredError("logicalResourceId").Message},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := w.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: c.stack, LogicalResourceId: c.logical})
			wantAPIError(t, err, CodeValidationError, c.msg)
		})
	}
	if out, err := w.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: w.old.StackId, LogicalResourceId: "Gone"}); err != nil ||
		out.StackResourceDetail.ResourceStatus != "DELETE_COMPLETE" {
		t.Fatalf("deleted stack by id: %+v %v", out, err)
	}
}

func TestDescribeStackResources(t *testing.T) {
	w := newAPIWorld(t, Options{})
	ids := func(out *DescribeStackResourcesOutput) []string {
		var got []string
		for _, r := range out.StackResources {
			got = append(got, r.StackName+"/"+r.LogicalResourceId)
		}
		return got
	}
	for _, c := range []struct {
		name string
		in   DescribeStackResourcesInput
		want []string
		err  string
	}{
		{"stack", DescribeStackResourcesInput{StackName: "web"}, []string{"web/Alarm", "web/Bucket"}, ""},
		{"logical", DescribeStackResourcesInput{StackName: "web", LogicalResourceId: "Bucket"}, []string{"web/Bucket"}, ""},
		{"physical", DescribeStackResourcesInput{PhysicalResourceId: "web-alarm-xyz"}, []string{"web/Alarm", "web/Bucket"}, ""},
		{"physical and logical", DescribeStackResourcesInput{PhysicalResourceId: "web-alarm-xyz", LogicalResourceId: "Bucket"}, []string{"web/Bucket"}, ""},
		{"physical of a deleted stack", DescribeStackResourcesInput{PhysicalResourceId: "arn:aws:sns:us-east-1:123456789012:gone"}, []string{"old/Gone"}, ""},
		{"unknown physical", DescribeStackResourcesInput{PhysicalResourceId: "nope"}, nil, "Stack for nope does not exist"},
		{"unknown stack", DescribeStackResourcesInput{StackName: "nope"}, nil, "Stack with id nope does not exist"},
		{"unknown logical", DescribeStackResourcesInput{StackName: "web", LogicalResourceId: "X"}, nil, "Resource X does not exist for stack web"},
		{"neither", DescribeStackResourcesInput{}, nil, "Either StackName or PhysicalResourceId must be specified"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := w.e.DescribeStackResources(ctx(), c.in)
			if c.err != "" {
				wantAPIError(t, err, CodeValidationError, c.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(out); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	out, _ := w.e.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: "web"})
	golden(t, "describe-stack-resources.json", mustJSON(t, out))

	// At most 100, as AWS.
	big := newTestEngine(t, Options{})
	s := seed(t, big)
	st := s.stack("big")
	s.do(func(tx *txn) error {
		for i := 0; i < 130; i++ {
			tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: fmt.Sprintf("R%03d", i), ResourceType: "T"})
		}
		return nil
	})
	if out, _ := big.DescribeStackResources(ctx(), DescribeStackResourcesInput{StackName: "big"}); len(out.StackResources) != 100 {
		t.Fatalf("%d resources", len(out.StackResources))
	}
}

func TestListStackResources(t *testing.T) {
	e := newTestEngine(t, Options{PageSize: 50})
	s := seed(t, e)
	st := s.stack("big")
	other := s.stack("other")
	s.do(func(tx *txn) error {
		for i := 129; i >= 0; i-- {
			tx.PutResource(&store.ResourceRecord{Num: st.Num, StackId: st.StackId, LogicalResourceId: fmt.Sprintf("R%03d", i),
				PhysicalResourceId: fmt.Sprint("p", i), ResourceType: "T", ResourceStatus: statemachine.ResourceStatusCreateComplete})
		}
		tx.PutResource(&store.ResourceRecord{Num: other.Num, StackId: other.StackId, LogicalResourceId: "A", ResourceType: "T"})
		return nil
	})
	var got []string
	token, pages := "", 0
	for {
		out, err := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "big", NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, r := range out.StackResourceSummaries {
			got = append(got, r.LogicalResourceId)
		}
		if token = out.NextToken; token == "" {
			break
		}
	}
	if len(got) != 130 || pages != 3 || got[0] != "R000" || got[129] != "R129" {
		t.Fatalf("%d resources in %d pages: %v...", len(got), pages, got[:3])
	}
	_, err := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "nope"})
	wantAPIError(t, err, CodeValidationError, "Stack with id nope does not exist")
	first, _ := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "big"})
	_, err = e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "other", NextToken: first.NextToken})
	wantAPIError(t, err, CodeValidationError, invalidToken().Message)
	one, _ := e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "other"})
	golden(t, "list-stack-resources.json", mustJSON(t, one))
}

func TestGetTemplate(t *testing.T) {
	w := newAPIWorld(t, Options{})
	for _, c := range []struct {
		name string
		in   GetTemplateInput
		want string
		code string
		err  string
	}{
		{"original", GetTemplateInput{StackName: "web"}, "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n", "", ""},
		{"processed", GetTemplateInput{StackName: "web", TemplateStage: "Processed"}, `{"Resources":{"Bucket":{"Type":"AWS::S3::Bucket"}}}`, "", ""},
		{"processed without transform", GetTemplateInput{StackName: "worker", TemplateStage: "Processed"}, `{"Resources":{}}`, "", ""},
		{"deleted by id", GetTemplateInput{StackName: w.old.StackId}, `{"Resources":{}}`, "", ""},
		{"missing", GetTemplateInput{StackName: "nope"}, "", CodeValidationError, "Stack with id nope does not exist"},
		{"bad stage", GetTemplateInput{StackName: "web", TemplateStage: "Final"}, "", CodeValidationError,
			"1 validation error detected: Value 'Final' at 'templateStage' failed to satisfy constraint: Member must satisfy enum value set: [Original, Processed]"},
		{"change set", GetTemplateInput{StackName: "web", ChangeSetName: "cs"}, "", CodeChangeSetNotFound, "ChangeSet [cs] does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := w.e.GetTemplate(ctx(), c.in)
			if c.code != "" {
				wantAPIError(t, err, c.code, c.err)
				return
			}
			if err != nil || out.TemplateBody != c.want || len(out.StagesAvailable) != 2 {
				t.Fatalf("%+v %v", out, err)
			}
		})
	}
}

func TestListExportsAndImports(t *testing.T) {
	e := newTestEngine(t, Options{PageSize: 2})
	s := seed(t, e)
	a := s.stack("a")
	var importers []*store.StackRecord
	for _, n := range []string{"c1", "c3", "c2"} {
		importers = append(importers, s.stack(n))
	}
	gone := s.stack("gone")
	s.do(func(tx *txn) error {
		for i := 4; i >= 0; i-- {
			if err := tx.PutExport(&store.ExportRecord{Name: fmt.Sprint("x", i), Value: fmt.Sprint("v", i), StackId: a.StackId}); err != nil {
				return err
			}
		}
		for _, st := range importers {
			tx.SetImports(st.StackId, []string{"x1", "x2"})
		}
		tx.SetImports(gone.StackId, []string{"x3"})
		return nil
	})
	s.setStatus(gone, statemachine.StackStatusDeleteComplete, "")

	var names []string
	token := ""
	for {
		out, err := e.ListExports(ctx(), ListExportsInput{NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range out.Exports {
			names = append(names, x.Name+"="+x.Value)
			if x.ExportingStackId != a.StackId {
				t.Fatal(x)
			}
		}
		if token = out.NextToken; token == "" {
			break
		}
	}
	if want := []string{"x0=v0", "x1=v1", "x2=v2", "x3=v3", "x4=v4"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("exports %v", names)
	}

	var imps []string
	token = ""
	for {
		out, err := e.ListImports(ctx(), ListImportsInput{ExportName: "x1", NextToken: token})
		if err != nil {
			t.Fatal(err)
		}
		imps = append(imps, out.Imports...)
		if token = out.NextToken; token == "" {
			break
		}
	}
	if want := []string{"c1", "c2", "c3"}; !reflect.DeepEqual(imps, want) {
		t.Fatalf("imports %v", imps)
	}
	for _, name := range []string{"x0", "x3", "nope"} {
		_, err := e.ListImports(ctx(), ListImportsInput{ExportName: name})
		wantAPIError(t, err, CodeValidationError, "Export '"+name+"' is not imported by any stack.")
	}
	_, err := e.ListImports(ctx(), ListImportsInput{})
	wantAPIError(t, err, CodeValidationError, requiredError("exportName").Message)
}

// A refused call changes nothing: the state is the same, byte for byte,
// after every call that answers an error.
func TestRefusedCallsChangeNothing(t *testing.T) {
	w := newAPIWorld(t, Options{})
	before := state(t, w.e)
	calls := map[string]func() error{
		"DescribeStacks": func() error { _, err := w.e.DescribeStacks(ctx(), DescribeStacksInput{StackName: "x"}); return err },
		"ListStacks": func() error {
			_, err := w.e.ListStacks(ctx(), ListStacksInput{StackStatusFilter: []string{"X"}})
			return err
		},
		"DescribeStackEvents": func() error {
			_, err := w.e.DescribeStackEvents(ctx(), DescribeStackEventsInput{StackName: "x"})
			return err
		},
		"DescribeStackResource": func() error {
			_, err := w.e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "web", LogicalResourceId: "x"})
			return err
		},
		"DescribeStackResources": func() error {
			_, err := w.e.DescribeStackResources(ctx(), DescribeStackResourcesInput{PhysicalResourceId: "x"})
			return err
		},
		"ListStackResources": func() error {
			_, err := w.e.ListStackResources(ctx(), ListStackResourcesInput{StackName: "web", NextToken: "x"})
			return err
		},
		"GetTemplate": func() error { _, err := w.e.GetTemplate(ctx(), GetTemplateInput{StackName: "x"}); return err },
		"ListExports": func() error { _, err := w.e.ListExports(ctx(), ListExportsInput{NextToken: "x"}); return err },
		"ListImports": func() error { _, err := w.e.ListImports(ctx(), ListImportsInput{ExportName: "x"}); return err },
		"SetClock":    func() error { return w.e.SetClock(DefaultEpoch) },
		"update": func() error {
			w.e.mu.Lock()
			defer w.e.mu.Unlock()
			return w.e.update(func(tx *txn) error {
				st := tx.StackByName("web").Clone()
				st.StackStatus = statemachine.StackStatusUpdateInProgress
				tx.stackEvent(st, st.StackStatus, "User Initiated")
				tx.Schedule(&Task{Kind: "x"})
				tx.newToken("x")
				if err := tx.PutStack(st); err != nil {
					return err
				}
				return apiError(statemachine.CheckOperation(statemachine.RollbackStack, st.Info()))
			})
		},
	}
	for name, call := range calls {
		if err := call(); err == nil {
			t.Fatalf("%s was not refused", name)
		}
		if after := state(t, w.e); string(after) != string(before) {
			t.Fatalf("%s changed the state:\n%s", name, lineDiff(string(before), string(after)))
		}
	}
}

func TestAPIError(t *testing.T) {
	err := statemachine.CheckOperation(statemachine.CreateStack, statemachine.StackInfo{StackName: "web", Status: statemachine.StackStatusCreateComplete})
	mapped := apiError(err)
	wantAPIError(t, mapped, CodeAlreadyExists, "Stack [web] already exists")
	if got := mapped.Error(); got != "AlreadyExistsException: Stack [web] already exists" {
		t.Fatal(got)
	}
	var ae *APIError
	errors.As(mapped, &ae)
	if got := ae.CLIMessage("CreateStack"); got != "An error occurred (AlreadyExistsException) when calling the CreateStack operation: Stack [web] already exists" {
		t.Fatal(got)
	}
	if !IsCode(fmt.Errorf("wrapped: %w", mapped), CodeAlreadyExists) || IsCode(mapped, CodeValidationError) {
		t.Fatal("IsCode")
	}
	if other := errors.New("x"); apiError(other) != other {
		t.Fatal("apiError changed a foreign error")
	}
	for _, c := range []struct {
		err  *APIError
		code string
		msg  string
	}{
		{AlreadyExistsError("s"), CodeAlreadyExists, "Stack [s] already exists"},
		{ChangeSetNotFoundError("cs"), CodeChangeSetNotFound, "ChangeSet [cs] does not exist"},
		{InsufficientCapabilitiesError([]string{"CAPABILITY_IAM", "CAPABILITY_AUTO_EXPAND"}), CodeInsufficientCapabilities,
			"Requires capabilities : [CAPABILITY_IAM, CAPABILITY_AUTO_EXPAND]"},
		{LimitExceededError("Limit of %d stacks exceeded", 2000), CodeLimitExceeded, "Limit of 2000 stacks exceeded"},
		{TokenAlreadyExistsError("t"), CodeTokenAlreadyExists, "t"},
		{InvalidChangeSetStatusError("c"), CodeInvalidChangeSetStatus, "c"},
		{StackNotFoundError("s"), CodeStackNotFound, "s"},
		{ValidationError("100%% sure"), CodeValidationError, "100%% sure"},
		{ValidationError("%d%% sure", 100), CodeValidationError, "100% sure"},
	} {
		if c.err.Code != c.code || c.err.Message != c.msg {
			t.Errorf("got %s %q, want %s %q", c.err.Code, c.err.Message, c.code, c.msg)
		}
	}
	ie := internalf("bad %s", "thing")
	if !strings.Contains(ie.Error(), "a bug") || !strings.Contains(ie.Error(), "bad thing") {
		t.Fatal(ie)
	}
}
