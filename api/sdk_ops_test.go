package api

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	smithy "github.com/aws/smithy-go"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/resources/faults"
)

func fastCreate(o *cfn.StackCreateCompleteWaiterOptions)        { o.MinDelay = time.Millisecond }
func fastUpdate(o *cfn.StackUpdateCompleteWaiterOptions)        { o.MinDelay = time.Millisecond }
func fastDelete(o *cfn.StackDeleteCompleteWaiterOptions)        { o.MinDelay = time.Millisecond }
func fastChangeSet(o *cfn.ChangeSetCreateCompleteWaiterOptions) { o.MinDelay = time.Millisecond }

// must returns v, or ends the test (by a panic, which fails it) on an
// error.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func wantAPIError(t *testing.T, err error, code, msg string) {
	t.Helper()
	var api smithy.APIError
	if !errors.As(err, &api) {
		t.Fatalf("want %s %q, got %v", code, msg, err)
	}
	if api.ErrorCode() != code || (msg != "" && api.ErrorMessage() != msg) {
		t.Fatalf("got %s %q, want %s %q", api.ErrorCode(), api.ErrorMessage(), code, msg)
	}
}

func loadFaults(t *testing.T, yaml string) []faults.Fault {
	t.Helper()
	inj, err := faults.Load("faults.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return inj.Faults()
}

const consumerTemplate = `Resources:
  Uses:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !ImportValue app-first
`

// Every operation stacksim serves, through the Go SDK, with its waiters.
func TestSDKEveryOperation(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	c := ts.cfn
	body := readFile(t, "testdata/params.yaml")

	v := must(c.ValidateTemplate(ctx, &cfn.ValidateTemplateInput{TemplateBody: aws.String(body)}))
	if len(v.Parameters) != 1 || aws.ToString(v.Parameters[0].ParameterKey) != "Env" || aws.ToString(v.Description) != "Two SSM parameters" {
		t.Fatalf("ValidateTemplate: %+v", v)
	}
	sum := must(c.GetTemplateSummary(ctx, &cfn.GetTemplateSummaryInput{TemplateBody: aws.String(body)}))
	if len(sum.ResourceTypes) != 1 || sum.ResourceTypes[0] != "AWS::SSM::Parameter" || aws.ToString(sum.Version) != "2010-09-09" {
		t.Fatalf("GetTemplateSummary: %+v", sum)
	}

	// A stack made through a change set, as `aws cloudformation deploy` does.
	cs := must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{
		StackName: aws.String("app"), ChangeSetName: aws.String("first"), ChangeSetType: types.ChangeSetTypeCreate,
		TemplateBody: aws.String(body), Parameters: []types.Parameter{{ParameterKey: aws.String("Env"), ParameterValue: aws.String("prod")}},
	}))
	if err := cfn.NewChangeSetCreateCompleteWaiter(c, fastChangeSet).Wait(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: cs.Id}, time.Minute); err != nil {
		t.Fatal(err)
	}
	dcs := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: aws.String("first"), StackName: aws.String("app")}))
	if dcs.Status != types.ChangeSetStatusCreateComplete || dcs.ExecutionStatus != types.ExecutionStatusAvailable || len(dcs.Changes) != 2 {
		t.Fatalf("DescribeChangeSet: %s %s %d changes", dcs.Status, dcs.ExecutionStatus, len(dcs.Changes))
	}
	if rc := dcs.Changes[0].ResourceChange; rc == nil || rc.Action != types.ChangeActionAdd || aws.ToString(rc.LogicalResourceId) != "First" {
		t.Fatalf("first change: %+v", dcs.Changes[0].ResourceChange)
	}
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")})).Stacks[0]
	if st.StackStatus != types.StackStatusReviewInProgress {
		t.Fatalf("status before execute: %s", st.StackStatus)
	}
	lcs := must(c.ListChangeSets(ctx, &cfn.ListChangeSetsInput{StackName: aws.String("app")}))
	if len(lcs.Summaries) != 1 || aws.ToString(lcs.Summaries[0].ChangeSetName) != "first" {
		t.Fatalf("ListChangeSets: %+v", lcs.Summaries)
	}
	must(c.ExecuteChangeSet(ctx, &cfn.ExecuteChangeSetInput{ChangeSetName: cs.Id, ClientRequestToken: aws.String("exec-1")}))
	if err := cfn.NewStackCreateCompleteWaiter(c, fastCreate).Wait(ctx, &cfn.DescribeStacksInput{StackName: cs.StackId}, time.Minute); err != nil {
		t.Fatal(err)
	}

	// Exports and imports.
	ex := must(c.ListExports(ctx, &cfn.ListExportsInput{}))
	if len(ex.Exports) != 1 || aws.ToString(ex.Exports[0].Name) != "app-first" || aws.ToString(ex.Exports[0].ExportingStackId) != aws.ToString(cs.StackId) {
		t.Fatalf("ListExports: %+v", ex.Exports)
	}
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("consumer"), TemplateBody: aws.String(consumerTemplate)}))
	im := must(c.ListImports(ctx, &cfn.ListImportsInput{ExportName: aws.String("app-first")}))
	if len(im.Imports) != 1 || im.Imports[0] != "consumer" {
		t.Fatalf("ListImports: %+v", im.Imports)
	}

	// Resources and the template.
	r := must(c.DescribeStackResource(ctx, &cfn.DescribeStackResourceInput{StackName: aws.String("app"), LogicalResourceId: aws.String("Second")}))
	if d := r.StackResourceDetail; d.ResourceStatus != types.ResourceStatusCreateComplete || aws.ToString(d.ResourceType) != "AWS::SSM::Parameter" || d.LastUpdatedTimestamp == nil {
		t.Fatalf("DescribeStackResource: %+v", d)
	}
	rs := must(c.DescribeStackResources(ctx, &cfn.DescribeStackResourcesInput{StackName: aws.String("app")}))
	if len(rs.StackResources) != 2 {
		t.Fatalf("DescribeStackResources: %d", len(rs.StackResources))
	}
	lr := must(c.ListStackResources(ctx, &cfn.ListStackResourcesInput{StackName: cs.StackId}))
	if len(lr.StackResourceSummaries) != 2 || aws.ToString(lr.StackResourceSummaries[0].PhysicalResourceId) == "" {
		t.Fatalf("ListStackResources: %+v", lr.StackResourceSummaries)
	}
	tpl := must(c.GetTemplate(ctx, &cfn.GetTemplateInput{StackName: cs.StackId, TemplateStage: types.TemplateStageOriginal}))
	if aws.ToString(tpl.TemplateBody) != body || len(tpl.StagesAvailable) != 2 {
		t.Fatalf("GetTemplate: %+v", tpl)
	}

	// An update with the previous template and a new parameter value.
	up := must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("app"), UsePreviousTemplate: aws.Bool(true),
		Parameters: []types.Parameter{{ParameterKey: aws.String("Env"), ParameterValue: aws.String("staging")}}}))
	if err := cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: up.StackId}, time.Minute); err != nil {
		t.Fatal(err)
	}
	_, err := c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("app"), UsePreviousTemplate: aws.Bool(true),
		Parameters: []types.Parameter{{ParameterKey: aws.String("Env"), UsePreviousValue: aws.Bool(true)}}})
	wantAPIError(t, err, "ValidationError", "No updates are to be performed.")

	// A change set with nothing to change: created, FAILED with AWS's
	// reason; the waiter fails on it.
	empty := must(c.CreateChangeSet(ctx, &cfn.CreateChangeSetInput{StackName: aws.String("app"), ChangeSetName: aws.String("nothing"),
		UsePreviousTemplate: aws.Bool(true), Parameters: []types.Parameter{{ParameterKey: aws.String("Env"), UsePreviousValue: aws.Bool(true)}}}))
	err = cfn.NewChangeSetCreateCompleteWaiter(c, fastChangeSet).Wait(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: empty.Id}, time.Minute)
	if err == nil {
		t.Fatal("ChangeSetCreateComplete succeeded on an empty change set")
	}
	d := must(c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: empty.Id}))
	if d.Status != types.ChangeSetStatusFailed || !strings.Contains(aws.ToString(d.StatusReason), "didn't contain changes") {
		t.Fatalf("empty change set: %s %q", d.Status, aws.ToString(d.StatusReason))
	}
	must(c.DeleteChangeSet(ctx, &cfn.DeleteChangeSetInput{ChangeSetName: empty.Id}))
	_, err = c.DescribeChangeSet(ctx, &cfn.DescribeChangeSetInput{ChangeSetName: aws.String("nothing"), StackName: aws.String("app")})
	var nf *types.ChangeSetNotFoundException
	if !errors.As(err, &nf) {
		t.Fatalf("deleted change set: %v", err)
	}

	// Termination protection.
	must(c.UpdateTerminationProtection(ctx, &cfn.UpdateTerminationProtectionInput{StackName: aws.String("consumer"), EnableTerminationProtection: aws.Bool(true)}))
	_, err = c.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("consumer")})
	wantAPIError(t, err, "ValidationError", "Stack [consumer] cannot be deleted while TerminationProtection is enabled")
	must(c.UpdateTerminationProtection(ctx, &cfn.UpdateTerminationProtectionInput{StackName: aws.String("consumer"), EnableTerminationProtection: aws.Bool(false)}))

	// Drift: detected at once, IN_SYNC (nothing changed the simulated
	// resources); the resource drifts a page at a time.
	det := must(c.DetectStackDrift(ctx, &cfn.DetectStackDriftInput{StackName: aws.String("app")}))
	ds := must(c.DescribeStackDriftDetectionStatus(ctx, &cfn.DescribeStackDriftDetectionStatusInput{StackDriftDetectionId: det.StackDriftDetectionId}))
	if ds.DetectionStatus != types.StackDriftDetectionStatusDetectionComplete || ds.StackDriftStatus != types.StackDriftStatusInSync || aws.ToInt32(ds.DriftedStackResourceCount) != 0 {
		t.Fatalf("drift detection: %s %s %v", ds.DetectionStatus, ds.StackDriftStatus, ds.DriftedStackResourceCount)
	}
	var drifts []types.StackResourceDrift
	for pg := cfn.NewDescribeStackResourceDriftsPaginator(c, &cfn.DescribeStackResourceDriftsInput{StackName: aws.String("app"), MaxResults: aws.Int32(1)}); pg.HasMorePages(); {
		drifts = append(drifts, must(pg.NextPage(ctx)).StackResourceDrifts...)
	}
	if len(drifts) == 0 || drifts[0].StackResourceDriftStatus != types.StackResourceDriftStatusInSync || aws.ToString(drifts[0].ExpectedProperties) == "" {
		t.Fatalf("resource drifts: %+v", drifts)
	}
	one := must(c.DetectStackResourceDrift(ctx, &cfn.DetectStackResourceDriftInput{StackName: aws.String("app"), LogicalResourceId: drifts[0].LogicalResourceId}))
	if one.StackResourceDrift.StackResourceDriftStatus != types.StackResourceDriftStatusInSync {
		t.Fatalf("DetectStackResourceDrift: %+v", one.StackResourceDrift)
	}
	dst := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("app")}))
	if di := dst.Stacks[0].DriftInformation; di.StackDriftStatus != types.StackDriftStatusInSync || di.LastCheckTimestamp == nil {
		t.Fatalf("DriftInformation: %+v", di)
	}
	// What stacksim does not serve: the model's InvalidOperationException.
	_, err = c.DetectStackSetDrift(ctx, &cfn.DetectStackSetDriftInput{StackSetName: aws.String("set")})
	var inv *types.InvalidOperationException
	if !errors.As(err, &inv) || !strings.Contains(inv.ErrorMessage(), "stacksim does not simulate StackSets") {
		t.Fatalf("DetectStackSetDrift: %v", err)
	}

	// ListStacks, and deletes.
	ls := must(c.ListStacks(ctx, &cfn.ListStacksInput{StackStatusFilter: []types.StackStatus{types.StackStatusUpdateComplete}}))
	if len(ls.StackSummaries) != 1 || aws.ToString(ls.StackSummaries[0].StackName) != "app" {
		t.Fatalf("ListStacks: %+v", ls.StackSummaries)
	}
	for _, name := range []string{"consumer", "app"} {
		must(c.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String(name)}))
		if err := cfn.NewStackDeleteCompleteWaiter(c, fastDelete).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String(name)}, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
}

// Rollbacks: a failed update rolls back (the waiter fails), a failed
// rollback is continued with ResourcesToSkip, a failed update with
// rollback disabled is rolled back by RollbackStack.
func TestSDKRollbackOperations(t *testing.T) {
	ts := newTestServer(t, nil, Options{Faults: loadFaults(t, `
faults:
  - match: {logicalId: Flaky, action: update}
    fail: {code: InvalidRequest, message: refused}
    times: always
  - match: {logicalId: Once, action: update, phase: forward}
    fail: {code: InvalidRequest, message: refused}
    times: always
`)})
	ctx := context.Background()
	c := ts.cfn
	tpl := func(id, value string) string {
		return "Resources:\n  " + id + ":\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: " + value + "\n"
	}
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("flaky"), TemplateBody: aws.String(tpl("Flaky", "a"))}))
	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("flaky"), TemplateBody: aws.String(tpl("Flaky", "b"))}))
	err := cfn.NewStackUpdateCompleteWaiter(c, fastUpdate).Wait(ctx, &cfn.DescribeStacksInput{StackName: aws.String("flaky")}, time.Minute)
	if err == nil {
		t.Fatal("StackUpdateComplete succeeded on a failed update")
	}
	st := must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("flaky")})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateRollbackFailed {
		t.Fatalf("status %s", st.StackStatus)
	}
	must(c.ContinueUpdateRollback(ctx, &cfn.ContinueUpdateRollbackInput{StackName: aws.String("flaky"), ResourcesToSkip: []string{"Flaky"}}))
	st = must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("flaky")})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateRollbackComplete {
		t.Fatalf("after ContinueUpdateRollback: %s", st.StackStatus)
	}
	if len(st.LastOperations) != 1 || st.LastOperations[0].OperationType != types.OperationTypeContinueRollback {
		t.Fatalf("LastOperations after ContinueUpdateRollback: %+v", st.LastOperations)
	}
	// DescribeEvents through its paginator: one operation's events, then
	// the failures of the whole stack, each with its operation.
	var ofContinue []types.OperationEvent
	for p := cfn.NewDescribeEventsPaginator(c, &cfn.DescribeEventsInput{OperationId: st.LastOperations[0].OperationId}); p.HasMorePages(); {
		ofContinue = append(ofContinue, must(p.NextPage(ctx)).OperationEvents...)
	}
	if len(ofContinue) == 0 || ofContinue[0].OperationStatus != types.BeaconStackOperationStatusSucceeded || ofContinue[0].ResourceStatus != "UPDATE_ROLLBACK_COMPLETE" {
		t.Fatalf("the events of the continuation: %+v", ofContinue)
	}
	failed := must(c.DescribeEvents(ctx, &cfn.DescribeEventsInput{StackName: aws.String("flaky"), Filters: &types.EventFilter{FailedEvents: aws.Bool(true)}}))
	var kinds []string
	for _, ev := range failed.OperationEvents {
		kinds = append(kinds, string(ev.OperationType)+"/"+string(ev.EventType)+"/"+string(ev.ResourceStatus))
	}
	if want := "ROLLBACK/STACK_EVENT/UPDATE_ROLLBACK_FAILED ROLLBACK/PROVISIONING_ERROR/UPDATE_FAILED UPDATE_STACK/PROVISIONING_ERROR/UPDATE_FAILED"; strings.Join(kinds, " ") != want {
		t.Fatalf("the failures of flaky: %s, want %s", strings.Join(kinds, " "), want)
	}
	var ve smithy.APIError
	if _, err := c.DescribeEvents(ctx, &cfn.DescribeEventsInput{}); !errors.As(err, &ve) || ve.ErrorCode() != "ValidationError" {
		t.Fatalf("DescribeEvents of nothing: %v", err)
	}

	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("once"), TemplateBody: aws.String(tpl("Once", "a"))}))
	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("once"), TemplateBody: aws.String(tpl("Once", "b")), DisableRollback: aws.Bool(true)}))
	st = must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String("once")})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateFailed {
		t.Fatalf("update with rollback disabled: %s", st.StackStatus)
	}
	rb := must(c.RollbackStack(ctx, &cfn.RollbackStackInput{StackName: aws.String("once")}))
	st = must(c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: rb.StackId})).Stacks[0]
	if st.StackStatus != types.StackStatusUpdateRollbackComplete {
		t.Fatalf("after RollbackStack: %s", st.StackStatus)
	}
	// The operation ids the calls answered are the stack's last ones.
	if len(st.LastOperations) != 2 || aws.ToString(rb.OperationId) == "" || aws.ToString(st.LastOperations[0].OperationId) != aws.ToString(rb.OperationId) ||
		st.LastOperations[0].OperationType != types.OperationTypeRollback || st.LastOperations[1].OperationType != types.OperationTypeUpdateStack {
		t.Fatalf("LastOperations after RollbackStack %s: %+v", aws.ToString(rb.OperationId), st.LastOperations)
	}
	evs := must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("once")})).StackEvents
	if aws.ToString(evs[0].OperationId) != aws.ToString(rb.OperationId) {
		t.Fatalf("the newest event is of operation %s, not the rollback's %s", aws.ToString(evs[0].OperationId), aws.ToString(rb.OperationId))
	}
	summaries := must(c.ListStacks(ctx, &cfn.ListStacksInput{})).StackSummaries
	for _, s := range summaries {
		if len(s.LastOperations) == 0 {
			t.Fatalf("ListStacks: %s has no LastOperations", aws.ToString(s.StackName))
		}
	}
}

// Paginators follow NextToken across pages.
func TestSDKPaginators(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1, PageSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	ts := newTestServer(t, e, Options{})
	ctx := context.Background()
	c := ts.cfn
	body := readFile(t, "testdata/params.yaml")
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String(name), TemplateBody: aws.String(strings.ReplaceAll(body, "${AWS::StackName}-first", name+"-x"))}))
	}
	var stacks, pages int
	for p := cfn.NewDescribeStacksPaginator(c, &cfn.DescribeStacksInput{}); p.HasMorePages(); pages++ {
		stacks += len(must(p.NextPage(ctx)).Stacks)
	}
	if stacks != 5 || pages != 2 {
		t.Fatalf("DescribeStacks: %d stacks in %d pages", stacks, pages)
	}
	var events []types.StackEvent
	for p := cfn.NewDescribeStackEventsPaginator(c, &cfn.DescribeStackEventsInput{StackName: aws.String("a")}); p.HasMorePages(); {
		events = append(events, must(p.NextPage(ctx)).StackEvents...)
	}
	if len(events) != 8 || aws.ToString(events[7].LogicalResourceId) != "a" || events[7].ResourceStatus != types.ResourceStatusCreateInProgress {
		t.Fatalf("DescribeStackEvents: %d events, last %+v", len(events), events[len(events)-1])
	}
	var summaries int
	for p := cfn.NewListStacksPaginator(c, &cfn.ListStacksInput{}); p.HasMorePages(); {
		summaries += len(must(p.NextPage(ctx)).StackSummaries)
	}
	if summaries != 5 {
		t.Fatalf("ListStacks: %d", summaries)
	}
	var exports int
	for p := cfn.NewListExportsPaginator(c, &cfn.ListExportsInput{}); p.HasMorePages(); {
		exports += len(must(p.NextPage(ctx)).Exports)
	}
	if exports != 5 {
		t.Fatalf("ListExports: %d", exports)
	}
	var resources int
	for p := cfn.NewListStackResourcesPaginator(c, &cfn.ListStackResourcesInput{StackName: aws.String("a")}); p.HasMorePages(); {
		resources += len(must(p.NextPage(ctx)).StackResourceSummaries)
	}
	if resources != 2 {
		t.Fatalf("ListStackResources: %d", resources)
	}
}

// A retried call with its ClientRequestToken is answered as the first was.
func TestSDKClientRequestToken(t *testing.T) {
	ts := newTestServer(t, nil, Options{})
	ctx := context.Background()
	in := &cfn.CreateStackInput{StackName: aws.String("app"), TemplateBody: aws.String(readFile(t, "testdata/params.yaml")), ClientRequestToken: aws.String("tf-1")}
	first := must(ts.cfn.CreateStack(ctx, in))
	again := must(ts.cfn.CreateStack(ctx, in))
	if aws.ToString(again.StackId) != aws.ToString(first.StackId) {
		t.Fatalf("retry answered %s, first %s", aws.ToString(again.StackId), aws.ToString(first.StackId))
	}
	ev := must(ts.cfn.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: first.StackId}))
	for _, x := range ev.StackEvents {
		if aws.ToString(x.ClientRequestToken) != "tf-1" {
			t.Fatalf("event %s %s: token %q", aws.ToString(x.LogicalResourceId), x.ResourceStatus, aws.ToString(x.ClientRequestToken))
		}
	}
	_, err := ts.cfn.DeleteStack(ctx, &cfn.DeleteStackInput{StackName: aws.String("app"), ClientRequestToken: aws.String("tf-1")})
	var tok *types.TokenAlreadyExistsException
	if !errors.As(err, &tok) {
		t.Fatalf("DeleteStack with the create's token: %v", err)
	}
}
