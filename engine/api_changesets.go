package engine

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/statemachine"
)

// Change sets: an operation planned and shown (DescribeChangeSet) before it
// runs (ExecuteChangeSet). In virtual time a change set is made at once:
// CREATE_COMPLETE and AVAILABLE, or FAILED when it changes nothing.

// noChangesReason is a change set's StatusReason when it changes nothing
// (BEHAVIOUR.md §9).
const noChangesReason = "The submitted information didn't contain changes. Submit different information to create a change set."

// CreateChangeSet plans a create (ChangeSetType CREATE, on a new stack
// name: the stack is made in REVIEW_IN_PROGRESS) or an update (UPDATE) and
// keeps it for DescribeChangeSet and ExecuteChangeSet.
func (e *Engine) CreateChangeSet(ctx context.Context, in CreateChangeSetInput) (*CreateChangeSetOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if err := checkName(in.ChangeSetName, "changeSetName"); err != nil {
		return nil, err
	}
	if err := checkRoleARN(in.RoleARN); err != nil {
		return nil, err
	}
	if err := checkNotificationARNs(in.NotificationARNs); err != nil {
		return nil, err
	}
	if err := e.checkRollbackConfiguration(in.RollbackConfiguration); err != nil {
		return nil, err
	}
	csType := in.ChangeSetType
	switch csType {
	case "":
		csType = ChangeSetTypeUpdate
	case ChangeSetTypeCreate, ChangeSetTypeUpdate:
		if len(in.ResourcesToImport) > 0 {
			// UNVERIFIED wording.
			return nil, ValidationError("ResourcesToImport can be given only with ChangeSetType IMPORT")
		}
	case ChangeSetTypeImport:
		if err := importTargets(in.ResourcesToImport); err != nil {
			return nil, err
		}
	default:
		return nil, enumError(csType, "changeSetType", []string{ChangeSetTypeCreate, ChangeSetTypeUpdate, ChangeSetTypeImport})
	}
	if in.ImportExistingResources && csType == ChangeSetTypeImport {
		// UNVERIFIED wording.
		return nil, ValidationError("ImportExistingResources can be given only with ChangeSetType CREATE or UPDATE: an IMPORT change set names its resources in ResourcesToImport")
	}
	if csType == ChangeSetTypeCreate {
		if err := checkStackName(in.StackName); err != nil {
			return nil, err
		}
	}
	body, file, err := e.templateSource(in.TemplateBody, in.TemplateURL, in.TemplateFile, in.UsePreviousTemplate)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *CreateChangeSetOutput
	err = e.update(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		// An IMPORT change set on a name with no stack (or one only under
		// review) makes the stack, as a CREATE one does.
		newStack := csType == ChangeSetTypeCreate ||
			csType == ChangeSetTypeImport && (st == nil || !st.Live() || st.StackStatus == statemachine.StackStatusReviewInProgress)
		if newStack {
			if csType == ChangeSetTypeImport {
				if err := checkStackName(in.StackName); err != nil {
					return err
				}
			}
			if err := arnNamesNoLiveStack(tx, in.StackName); err != nil {
				return err
			}
		}
		if first := tx.changeSetRetry(st, in); first != nil {
			out = &CreateChangeSetOutput{Id: first.Id, StackId: first.StackId}
			return nil
		}
		info := statemachine.StackInfo{StackName: in.StackName, ChangeSetType: statemachine.ChangeSetType(csType), ChangeSetName: in.ChangeSetName}
		if st != nil {
			info.StackID, info.Status = st.StackId, st.StackStatus
			info.DisableRollback, info.OnFailureDoNothing = st.RollbackDisabledFailure, st.CreatedWithDoNothing
		}
		if err := statemachine.CheckOperation(statemachine.CreateChangeSet, info); err != nil {
			return apiError(err)
		}
		if st != nil && st.Live() {
			for _, cs := range tx.ChangeSetsOf(st.StackId) {
				// An executed change set no longer holds its name: AWS
				// accepts a new change set of the same name once the
				// first has run (a user's log: create, execute, create
				// again with the same name and no changes gave FAILED
				// "The submitted information didn't contain changes",
				// github.com/elias5000/clouds-aws issue 9). aws
				// cloudformation deploy names its change sets by the
				// second, so two deploys within one second need it.
				if cs.Name == in.ChangeSetName && !executed(cs) {
					// UNVERIFIED wording.
					return newAPIError(CodeAlreadyExists, "ChangeSet [%s] already exists", in.ChangeSetName)
				}
			}
		}
		cs := &store.ChangeSetRecord{Name: in.ChangeSetName, Type: csType, CreationTime: tx.now(), Description: in.Description,
			Given: in.Parameters, Capabilities: in.Capabilities, Tags: in.Tags, NotificationARNs: in.NotificationARNs, RoleARN: in.RoleARN,
			OnStackFailure: in.OnStackFailure, Status: ChangeSetStatusCreateComplete, ExecutionStatus: ExecutionStatusAvailable,
			ClientToken: in.ClientToken, ImportExisting: in.ImportExistingResources, RollbackConfiguration: in.RollbackConfiguration}
		var p *plan.Plan
		var bound, old boundTemplate   // an IMPORT change set's template, and the stack's before
		var desired *store.StackRecord // the stack as an UPDATE change set leaves it
		// Imports of exports that do not exist yet are accepted, the
		// change set AVAILABLE with a warning as its reason; executing it
		// checks them again (missingImports.reason).
		missing := &missingImports{}
		if newStack {
			if st == nil || st.StackStatus == statemachine.StackStatusDeleteComplete {
				if err := e.checkStackLimit(tx); err != nil {
					return err
				}
				st = &store.StackRecord{StackId: tx.newStackID(in.StackName), StackName: in.StackName, CreationTime: tx.now(),
					NotificationARNs: in.NotificationARNs, Tags: in.Tags, Capabilities: in.Capabilities, RoleARN: in.RoleARN}
				var err error
				if bound, p, err = e.prepareCreate(tx, st, submission{File: file, Original: body}, in.Parameters, in.Capabilities, prepareHow{changeSet: true, contexts: true, missing: missing}); err != nil {
					if !failTransformed(cs, err) {
						return err
					}
					st.TemplateBody, st.TemplateFile = body, file
				}
				cs.TemplateBody, cs.ProcessedTemplateBody, cs.TemplateFile, cs.Parameters = st.TemplateBody, st.ProcessedTemplateBody, st.TemplateFile, st.Parameters
				to, err := statemachine.FireStack(st.StackName, statemachine.NotExist, statemachine.StackReview)
				if err != nil {
					return internalf("%w", err)
				}
				st.StackStatus, st.StackStatusReason = to, reasonUserInitiated
				st.ClientRequestToken = in.ClientToken
				st.Parameters, st.ResourceOrder = nil, nil
				st.TemplateBody, st.ProcessedTemplateBody, st.TemplateFile = "", "", "" // the change set's, until it runs
				if err := tx.PutStack(st); err != nil {
					return err
				}
				tx.stackEvent(st, to, reasonUserInitiated)
				// The event counted the change set's creation as the new
				// stack's first operation: store the record that says so.
				st = st.Clone()
				if err := tx.PutStack(st); err != nil {
					return err
				}
				cs.Operations = []store.OpTag{currentOperation(st)}
			} else {
				probe := st.Clone()
				var err error
				if bound, p, err = e.prepareCreate(tx, probe, submission{File: file, Original: body}, in.Parameters, in.Capabilities, prepareHow{changeSet: true, contexts: true, missing: missing}); err != nil {
					if !failTransformed(cs, err) {
						return err
					}
					probe.TemplateBody, probe.TemplateFile = body, file
				}
				cs.TemplateBody, cs.ProcessedTemplateBody, cs.TemplateFile, cs.Parameters = probe.TemplateBody, probe.ProcessedTemplateBody, probe.TemplateFile, probe.Parameters
			}
		} else {
			u := updateRequest{Sub: submission{File: file, Original: body}, How: prepareHow{changeSet: true, contexts: true, missing: missing}, UsePrevious: in.UsePreviousTemplate,
				Params: in.Parameters, Caps: in.Capabilities, Tags: in.Tags, NotificationARNs: in.NotificationARNs,
				RollbackConfiguration: in.RollbackConfiguration}
			c, up, err := e.prepareUpdate(tx, st, u, false)
			switch {
			case err == nil:
				p, desired = up, c
				if csType == ChangeSetTypeImport || cs.ImportExisting {
					if bound, err = e.currentTemplate(c); err != nil {
						return err
					}
					if old, err = e.currentTemplate(st); err != nil {
						return err
					}
				}
				cs.TemplateBody, cs.ProcessedTemplateBody, cs.TemplateFile, cs.Parameters = c.TemplateBody, c.ProcessedTemplateBody, c.TemplateFile, c.Parameters
				noChange := !p.HasChanges() || changesOnlyNested(p) && !e.stackChanges(tx, st, c, p, u.How)
				if noChange && sameTags(c.Tags, st.Tags) && !notificationsChange(st, in.NotificationARNs) {
					cs.Status, cs.StatusReason, cs.ExecutionStatus = ChangeSetStatusFailed, noChangesReason, ExecutionStatusUnavailable
				}
			case failTransformed(cs, err):
				cs.TemplateBody, cs.TemplateFile = body, file
				if in.UsePreviousTemplate {
					cs.TemplateBody, cs.TemplateFile = st.TemplateBody, st.TemplateFile
				}
			default:
				return err
			}
		}
		if csType == ChangeSetTypeImport && p != nil && bound != nil {
			targets, err := e.importTargetsOf(bound, in.ResourcesToImport)
			if err != nil {
				return err
			}
			if p, err = importPlan(tx, st, bound, old, p, targets); err != nil {
				return err
			}
			cs.Imports = targets
		}
		if cs.Status == ChangeSetStatusCreateComplete {
			p = e.withExistingImports(tx, cs, bound, p)
		}
		if p != nil && cs.StatusReason != noChangesReason {
			cs.Changes = plan.Changes(p)
		}
		if reason := missing.reason(); reason != "" && cs.Status == ChangeSetStatusCreateComplete {
			cs.StatusReason = reason
		}
		cs.StackId, cs.StackName = st.StackId, st.StackName
		cs.Id = tx.newChangeSetID(st.StackName, in.ChangeSetName)
		tx.Meta.IDs++
		cs.Seq = tx.Meta.IDs
		cs.IncludeNestedStacks = in.IncludeNestedStacks
		if in.IncludeNestedStacks && desired != nil && cs.Status == ChangeSetStatusCreateComplete {
			if err := e.nestedChangeSets(tx, st, desired, cs, cs.Id); err != nil {
				return err
			}
			if len(cs.Changes) == 0 && sameTags(desired.Tags, st.Tags) && !notificationsChange(st, in.NotificationARNs) {
				cs.Status, cs.StatusReason, cs.ExecutionStatus = ChangeSetStatusFailed, noChangesReason, ExecutionStatusUnavailable
			}
		}
		tx.Put(cs)
		out = &CreateChangeSetOutput{Id: cs.Id, StackId: st.StackId}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// failTransformed makes a change set whose template's transforms failed
// FAILED, with the transform's message as its reason, as CloudFormation
// does ("Transform 123456789012::Count failed with: ..."): the call is
// accepted, the change set cannot be executed. It tells whether err was
// such a failure.
func failTransformed(cs *store.ChangeSetRecord, err error) bool {
	var api *APIError
	if !errors.As(err, &api) || !api.transform {
		return false
	}
	cs.Status, cs.StatusReason, cs.ExecutionStatus = ChangeSetStatusFailed, api.Message, ExecutionStatusUnavailable
	return true
}

// csSubmission is the template a change set processed.
func csSubmission(cs *store.ChangeSetRecord) submission {
	return submission{File: cs.TemplateFile, Original: cs.TemplateBody, Processed: cs.ProcessedTemplateBody, Expanded: cs.ProcessedTemplateBody != ""}
}

// findChangeSet finds a change set by ARN, or by name within a stack.
func (tx *txn) findChangeSet(name, stackName string) (*store.ChangeSetRecord, error) {
	if strings.HasPrefix(name, "arn:") {
		if cs := tx.ChangeSet(name); cs != nil {
			return cs, nil
		}
		return nil, ChangeSetNotFoundError(name)
	}
	if stackName == "" {
		// AWS requires the stack when the change set is named.
		return nil, ValidationError("StackName must be specified if ChangeSetName is not specified as an ARN.")
	}
	st := tx.FindStack(stackName)
	if st == nil {
		// A stack that does not exist (or, by name, one deleted):
		// DescribeChangeSet and DeleteChangeSet answer "Stack [NAME] does
		// not exist" (ValidationError), not ChangeSetNotFound (API.md,
		// messages recorded from AWS).
		return nil, stackNotFound(stackName)
	}
	// By name, the newest change set of that name (an executed one's name
	// may be taken again).
	var found *store.ChangeSetRecord
	for _, cs := range tx.ChangeSetsOf(st.StackId) {
		if cs.Name == name {
			found = cs
		}
	}
	if found == nil {
		return nil, ChangeSetNotFoundError(name)
	}
	return found, nil
}

// executed: the change set ran (or is running no more).
func executed(cs *store.ChangeSetRecord) bool {
	return cs.ExecutionStatus == ExecutionStatusExecuteComplete || cs.ExecutionStatus == ExecutionStatusExecuteFailed
}

// DescribeChangeSet describes a change set: its status and its changes
// (with BeforeValue and AfterValue when IncludePropertyValues is set), a
// page at a time.
func (e *Engine) DescribeChangeSet(ctx context.Context, in DescribeChangeSetInput) (*DescribeChangeSetOutput, error) {
	if in.ChangeSetName == "" {
		return nil, requiredError("changeSetName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DescribeChangeSetOutput
	err := e.view(func(tx *txn) error {
		cs, err := tx.findChangeSet(in.ChangeSetName, in.StackName)
		if err != nil {
			return err
		}
		changes := cs.Changes
		if !in.IncludePropertyValues {
			changes = plan.WithoutValues(changes)
		}
		start, err := pageOffset(in.NextToken, "DescribeChangeSet", cs.Id, len(changes))
		if err != nil {
			return err
		}
		end := min(start+e.pageSize(), len(changes))
		out = &DescribeChangeSetOutput{
			ChangeSetName: cs.Name, ChangeSetId: cs.Id, StackId: cs.StackId, StackName: cs.StackName,
			Description: cs.Description, Parameters: publicParameters(cs.Parameters), CreationTime: cs.CreationTime,
			ExecutionStatus: cs.ExecutionStatus, Status: cs.Status, StatusReason: cs.StatusReason,
			NotificationARNs: nonNil(cs.NotificationARNs), Capabilities: nonNil(cs.Capabilities), Tags: cs.Tags,
			Changes: append([]plan.Change{}, changes[start:end]...), OnStackFailure: cs.OnStackFailure,
			IncludeNestedStacks: cs.IncludeNestedStacks, ParentChangeSetId: cs.ParentChangeSetId, RootChangeSetId: cs.RootChangeSetId,
			ImportExistingResources: cs.ImportExisting,
			RollbackConfiguration:   cloneRollbackConfiguration(mergeRollbackConfiguration(RollbackConfiguration{}, cs.RollbackConfiguration)),
		}
		if end < len(changes) {
			out.NextToken = encodeToken("DescribeChangeSet", cs.Id, strconv.Itoa(end))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ExecuteChangeSet runs a change set: the create or update it planned,
// exactly as CreateStack or UpdateStack would; the stack's other change
// sets become OBSOLETE.
func (e *Engine) ExecuteChangeSet(ctx context.Context, in ExecuteChangeSetInput) (*ExecuteChangeSetOutput, error) {
	if in.ChangeSetName == "" {
		return nil, requiredError("changeSetName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.update(func(tx *txn) error {
		cs, err := tx.findChangeSet(in.ChangeSetName, in.StackName)
		if err != nil {
			return err
		}
		st := tx.StackByID(cs.StackId)
		if st == nil {
			return ChangeSetNotFoundError(in.ChangeSetName)
		}
		if retry, err := tx.retryOf(KindExecuteChangeSet, st, in.ClientRequestToken); retry || err != nil {
			return err
		}
		info := st.Info()
		info.ChangeSetType, info.ChangeSetName = statemachine.ChangeSetType(cs.Type), cs.Name
		if err := statemachine.CheckOperation(statemachine.ExecuteChangeSet, info); err != nil {
			return apiError(err)
		}
		if cs.ParentChangeSetId != "" {
			// UNVERIFIED wording: the change set of a nested stack runs
			// with its root's ("you can only execute the root change
			// set": AWS User Guide, change-sets-for-nested-stacks).
			return InvalidChangeSetStatusError("ChangeSet [%s] is the change set of a nested stack: execute its root change set [%s]", cs.Id, cs.RootChangeSetId)
		}
		if cs.Status == ChangeSetStatusFailed {
			// Recorded from AWS (an InvalidChangeSetStatus error quoted in
			// imaman/bigband's source: "ChangeSet [arn:aws:cloudformation:
			// eu-west-2:...] cannot be executed in its current status of
			// [FAILED]"; LocalStack's provider answers the same).
			return InvalidChangeSetStatusError("ChangeSet [%s] cannot be executed in its current status of [%s]", cs.Id, cs.Status)
		}
		if cs.ExecutionStatus != ExecutionStatusAvailable {
			// UNVERIFIED wording for a change set that did not fail but is
			// not AVAILABLE (OBSOLETE, EXECUTE_COMPLETE...): searched
			// LocalStack's test_changesets snapshots and the code corpus
			// for "cannot be executed in its current", which show only the
			// FAILED status above.
			return InvalidChangeSetStatusError("ChangeSet [%s] cannot be executed in its current execution status of [%s]", cs.Id, cs.ExecutionStatus)
		}
		token := in.ClientRequestToken
		if token == "" {
			token = tx.newToken("ExecuteChangeSet", st.StackName, cs.Name)
		}
		var op *store.OperationRecord
		c := st.Clone()
		if cs.Type == ChangeSetTypeImport {
			if c, op, err = e.executeImport(tx, st, cs, token, in); err != nil {
				return err
			}
			st = c
		} else if cs.Type == ChangeSetTypeCreate {
			b, p, err := e.prepareCreate(tx, c, csSubmission(cs), cs.Given, cs.Capabilities,
				prepareHow{processed: true, changeSet: true, ssm: storedSSM(cs.Parameters)})
			if err != nil {
				return err
			}
			p = e.withExistingImports(tx, cs, b, p)
			to, err := statemachine.FireStack(c.StackName, c.StackStatus, statemachine.StackCreate)
			if err != nil {
				return internalf("%w", err)
			}
			c.StackStatus, c.StackStatusReason, c.ClientRequestToken = to, reasonUserInitiated, in.ClientRequestToken
			// A stack created through a change set shows LastUpdatedTime
			// (its execution), one created by CreateStack none: LocalStack's
			// AWS-recorded api/test_stacks.snapshot.json (deploy_cfn_template
			// executes a change set: CREATE_COMPLETE with ChangeSetId and
			// LastUpdatedTime; test_blocked_stack_deletion's CreateStack:
			// neither).
			c.LastUpdatedTime = tx.now()
			c.RollbackConfiguration = mergeRollbackConfiguration(c.RollbackConfiguration, cs.RollbackConfiguration)
			c.OnFailure = OnFailureRollback
			switch cs.OnStackFailure {
			case OnFailureDoNothing:
				c.OnFailure, c.CreatedWithDoNothing, c.DisableRollback = OnFailureDoNothing, true, true
			case OnFailureDelete:
				c.OnFailure = OnFailureDelete
			}
			if in.DisableRollback {
				c.DisableRollback = true
			}
			tx.stackEvent(c, to, reasonUserInitiated)
			op = e.newOperation(tx, c, KindExecuteChangeSet, token, p, in.Extensions)
			op.OnFailure = c.OnFailure
			op.DisableRollback = in.DisableRollback
		} else {
			u := updateRequest{Sub: csSubmission(cs), How: prepareHow{processed: true, changeSet: true, ssm: storedSSM(cs.Parameters)},
				Params: cs.Given, Caps: cs.Capabilities, Tags: cs.Tags, NotificationARNs: cs.NotificationARNs, RoleARN: cs.RoleARN,
				RollbackConfiguration: cs.RollbackConfiguration}
			c, p, err := e.prepareUpdate(tx, st, u, false)
			if err != nil {
				return err
			}
			if cs.ImportExisting {
				b, err := e.currentTemplate(c)
				if err != nil {
					return err
				}
				p = e.withExistingImports(tx, cs, b, p)
			}
			if op, err = e.startUpdate(tx, c, p, token, in.ClientRequestToken, KindExecuteChangeSet, in.Extensions); err != nil {
				return err
			}
			op.DisableRollback = in.DisableRollback
			st = c
		}
		if cs.Type != ChangeSetTypeCreate {
			c = st
		}
		if in.RetainExceptOnCreate != nil {
			c.RetainExceptOnCreate = *in.RetainExceptOnCreate
		}
		op.RetainExceptOnCreate = c.RetainExceptOnCreate
		op.ImportExisting = cs.ImportExisting
		op.ChangeSetId = cs.Id
		c.ChangeSetId = cs.Id
		x := cs.Clone()
		x.ExecutionStatus = ExecutionStatusExecuteInProgress
		x.Operations = append(slices.Clip(x.Operations), currentOperation(c))
		tx.Put(x)
		e.obsoleteChangeSets(tx, c.StackId, cs.Id)
		return e.beginOperation(tx, c, op)
	})
	if err != nil {
		return nil, err
	}
	return &ExecuteChangeSetOutput{}, nil
}

// obsoleteChangeSets marks the stack's change sets, but keep, OBSOLETE:
// the stack they were made against has moved on.
func (e *Engine) obsoleteChangeSets(tx *txn, stackID, keep string) {
	for _, cs := range tx.ChangeSetsOf(stackID) {
		if cs.Id == keep || cs.Status == ChangeSetStatusFailed || cs.ExecutionStatus == ExecutionStatusObsolete ||
			cs.ExecutionStatus == ExecutionStatusExecuteComplete || cs.ExecutionStatus == ExecutionStatusExecuteFailed ||
			cs.ExecutionStatus == ExecutionStatusExecuteInProgress {
			continue
		}
		c := cs.Clone()
		c.ExecutionStatus = ExecutionStatusObsolete
		tx.Put(c)
	}
}

// DeleteChangeSet deletes a change set (not one being executed).
func (e *Engine) DeleteChangeSet(ctx context.Context, in DeleteChangeSetInput) (*DeleteChangeSetOutput, error) {
	if in.ChangeSetName == "" {
		return nil, requiredError("changeSetName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	err := e.update(func(tx *txn) error {
		cs, err := tx.findChangeSet(in.ChangeSetName, in.StackName)
		if IsCode(err, CodeChangeSetNotFound) && !strings.HasPrefix(in.ChangeSetName, "arn:") {
			// A name the stack has no change set of: nothing to delete, and
			// no error. CDK deletes a change set of a fresh name "if it
			// exists" before each deploy and diff, and stops on any error
			// (aws-cdk's cleanupOldChangeset; API.md: "must succeed when it
			// does not exist").
			return nil
		}
		if err != nil {
			return err
		}
		if cs.ExecutionStatus == ExecutionStatusExecuteInProgress {
			// UNVERIFIED wording.
			return InvalidChangeSetStatusError("Cannot delete ChangeSet [%s] in its current execution status of [%s]", cs.Id, cs.ExecutionStatus)
		}
		for _, n := range tx.nestedChangeSetsOf(cs) {
			tx.Del(store.TChangeSets, n.Key())
		}
		tx.Del(store.TChangeSets, cs.Key())
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &DeleteChangeSetOutput{}, nil
}

// ListChangeSets lists a stack's change sets, in the order they were made.
func (e *Engine) ListChangeSets(ctx context.Context, in ListChangeSetsInput) (*ListChangeSetsOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListChangeSetsOutput{Summaries: []ChangeSetSummary{}}
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		all := tx.ChangeSetsOf(st.StackId)
		start, err := pageOffset(in.NextToken, "ListChangeSets", st.StackId, len(all))
		if err != nil {
			return err
		}
		end := min(start+e.pageSize(), len(all))
		for _, cs := range all[start:end] {
			out.Summaries = append(out.Summaries, ChangeSetSummary{StackId: cs.StackId, StackName: cs.StackName,
				ChangeSetId: cs.Id, ChangeSetName: cs.Name, ExecutionStatus: cs.ExecutionStatus, Status: cs.Status,
				StatusReason: cs.StatusReason, CreationTime: cs.CreationTime, Description: cs.Description,
				IncludeNestedStacks: cs.IncludeNestedStacks, ParentChangeSetId: cs.ParentChangeSetId, RootChangeSetId: cs.RootChangeSetId,
				ImportExistingResources: cs.ImportExisting})
		}
		if end < len(all) {
			out.NextToken = encodeToken("ListChangeSets", st.StackId, strconv.Itoa(end))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
