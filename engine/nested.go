package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Nested stacks. A resource of type AWS::CloudFormation::Stack is a stack
// of the account (its child): named PARENT-LOGICALID-RANDOM, with ParentId
// and RootId, its own operation, events, resources and outputs. No handler
// is called for it: the parent's step starts the child's operation (create,
// update, delete) and waits, launched, until the child's status says how it
// went. Every status change of a child wakes its parent's step (an invoke
// task of that step), which then reads the child's status:
//
//	the step's part   child status                          the step
//	create            CREATE_COMPLETE                       CREATE_COMPLETE
//	create            ROLLBACK_*, CREATE_FAILED, DELETE_*   CREATE_FAILED "Embedded stack ARN was not successfully created: REASON"
//	delete            DELETE_COMPLETE                       DELETE_COMPLETE
//	delete            DELETE_FAILED                         DELETE_FAILED "Embedded stack ARN was not successfully deleted: REASON"
//
// A step that finds the child in motion with an operation it did not start
// (the rollback of the child's own failed create, which the parent's
// rollback deletes) waits for it to come to rest, then starts its own.
// The wordings are AWS's, as recorded in public logs (see embeddedFailure).

// isNestedStack tells whether a resource type is a nested stack.
func isNestedStack(typeName string) bool { return typeName == store.StackResourceType }

// childName is the name of a nested stack, as AWS makes it:
// PARENT-LOGICALID-RANDOM, RANDOM 12 or 13 upper-case letters and digits
// (recorded: "demo-dev-JetsPreheatJob-IXX3J912KGKS",
// "smbsecassessment-rIAMStack-D5S116AA19UC"), derived from the seed, the
// parent and the logical id; the prefix is cut so that the name fits 128
// characters.
func (tx *txn) childName(parent *store.StackRecord, logicalID string) string {
	u := tx.uuid("nested-stack", parent.StackId, logicalID)
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	hex := strings.ReplaceAll(u, "-", "")
	for i := 0; i+1 < len(hex) && b.Len() < 12; i += 2 {
		n, _ := strconv.ParseUint(hex[i:i+2], 16, 8)
		b.WriteByte(alphabet[int(n)%len(alphabet)])
	}
	prefix := parent.StackName + "-" + logicalID + "-"
	if len(prefix)+b.Len() > maxStackNameLength {
		prefix = prefix[:maxStackNameLength-b.Len()-1] + "-"
	}
	return prefix + b.String()
}

// child is the nested stack a step works on (nil when it has none yet).
func (r *run) child(row *store.StepRecord) *store.StackRecord {
	if row.PhysicalID == "" {
		return nil
	}
	return r.tx.StackByID(row.PhysicalID)
}

// busy tells whether a child's operation is in motion.
func (r *run) busy(child *store.StackRecord) bool {
	if child.OperationId == "" {
		return false
	}
	op := r.tx.Operation(child.OperationId)
	return op != nil && op.InMotion && !op.Held
}

// invokeNested is the "handler call" of a nested stack's step: it starts
// the child's operation or reads how it goes.
func (r *run) invokeNested(row *store.StepRecord, s *plan.Step) error {
	child := r.child(row)
	switch row.Part {
	case partCreate:
		if child == nil {
			return r.createChild(row, s)
		}
		switch child.StackStatus {
		case statemachine.StackStatusCreateInProgress:
			return nil
		case statemachine.StackStatusCreateComplete:
			return r.createSucceeded(row, s, nestedModel(row.Props, child.StackId))
		}
		return r.partFailed(row, s, embeddedFailure(child, "created"))
	case partUpdate:
		return r.nestedUpdate(row, s, child)
	case partDelete:
		if child == nil || child.StackStatus == statemachine.StackStatusDeleteComplete {
			return r.deleteSucceeded(row, s)
		}
		if !row.ChildStarted {
			if r.busy(child) {
				return nil // its own rollback runs: the delete waits for it
			}
			return r.deleteChild(row, child)
		}
		switch child.StackStatus {
		case statemachine.StackStatusDeleteInProgress:
			return nil
		}
		return r.partFailed(row, s, embeddedFailure(child, "deleted"))
	}
	return r.partFailed(row, s, fmt.Sprintf("stacksim cannot %s a nested stack yet", row.Part))
}

// nestedModel is what the stack records of a nested stack's resource: its
// properties and the child's id (the type's primary identifier).
func nestedModel(props map[string]any, stackID string) map[string]any {
	m := make(map[string]any, len(props)+1)
	for k, v := range props {
		m[k] = v
	}
	m["StackId"] = stackID
	return m
}

// embeddedFailure is the reason of a nested stack's resource whose child
// did not get where it was asked to, in AWS's words:
//
//	Embedded stack ARN was not successfully created: The following resource(s) failed to create: [MasterServer].
//	Embedded stack ARN was not successfully updated. Currently in UPDATE_ROLLBACK_IN_PROGRESS with reason: The following resource(s) failed to update: [LambdaFunction].
//
// (both recorded: aws-parallelcluster's troubleshooting guide, boltops-tools
// jets' debugging docs). The create's reason is the child's without
// "Rollback requested by user."; the delete's is worded as the create's
// (UNVERIFIED: no recorded event).
func embeddedFailure(child *store.StackRecord, verb string) string {
	reason := strings.TrimSpace(child.StackStatusReason)
	reason = strings.TrimSpace(strings.TrimSuffix(reason, reasonRollbackRequested))
	reason = strings.TrimSpace(strings.TrimSuffix(reason, reasonDeleteRequested))
	if verb == "updated" {
		return fmt.Sprintf("Embedded stack %s was not successfully updated. Currently in %s with reason: %s", child.StackId, child.StackStatus, reason)
	}
	return fmt.Sprintf("Embedded stack %s was not successfully %s: %s", child.StackId, verb, reason)
}

// childInput is what a nested stack's properties ask of its child.
type childInput struct {
	TemplateURL      string
	Parameters       []Parameter
	TimeoutInMinutes int
	NotificationARNs []string
	Tags             []Tag
}

// childInputOf reads a nested stack's resolved (stringified) properties;
// parentTags are the parent stack's.
func childInputOf(state map[string]any, parentTags []Tag) (childInput, string) {
	var in childInput
	in.TemplateURL, _ = state["TemplateURL"].(string)
	if in.TemplateURL == "" {
		return in, "Property TemplateURL cannot be empty."
	}
	if ps, ok := state["Parameters"].(map[string]any); ok {
		keys := make([]string, 0, len(ps))
		for k := range ps {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			in.Parameters = append(in.Parameters, Parameter{ParameterKey: k, ParameterValue: fmt.Sprint(ps[k])})
		}
	}
	if v, ok := state["TimeoutInMinutes"]; ok {
		n, err := strconv.Atoi(fmt.Sprint(v))
		if err != nil || n < 1 {
			return in, fmt.Sprintf("Value of property TimeoutInMinutes must be an integer of at least 1, not %v", v)
		}
		in.TimeoutInMinutes = n
	}
	if list, ok := state["NotificationARNs"].([]any); ok {
		for _, a := range list {
			in.NotificationARNs = append(in.NotificationARNs, fmt.Sprint(a))
		}
	}
	in.Tags = childTags(parentTags, state["Tags"])
	return in, ""
}

// childTags are a child's stack tags: the parent's (CloudFormation
// propagates a stack's tags to the resources it makes, nested stacks
// among them: AWS::CloudFormation::Stack's documentation), then the
// resource's own Tags, which win for a key both have.
func childTags(parent []Tag, own any) []Tag {
	var out []Tag
	at := map[string]int{}
	add := func(k, v string) {
		if i, ok := at[k]; ok {
			out[i].Value = v
			return
		}
		at[k] = len(out)
		out = append(out, Tag{Key: k, Value: v})
	}
	for _, t := range parent {
		add(t.Key, t.Value)
	}
	if list, ok := own.([]any); ok {
		for _, e := range list {
			if m, ok := e.(map[string]any); ok {
				add(fmt.Sprint(m["Key"]), fmt.Sprint(m["Value"]))
			}
		}
	}
	return out
}

// failReason is the text of an error that refuses a child's operation, as
// the nested stack's resource reports it.
func failReason(err error) string {
	if api, ok := err.(*APIError); ok {
		return api.Message
	}
	return err.Error()
}

// createChild creates the child of a nested stack's step: the stack
// (CREATE_IN_PROGRESS "User Initiated") and its create, which runs on the
// loop beside the parent's; the resource is "Resource creation Initiated"
// with the child's ARN as physical id.
func (r *run) createChild(row *store.StepRecord, s *plan.Step) error {
	in, reason := childInputOf(row.Desired, r.st.Tags)
	if reason != "" {
		return r.partFailed(row, s, reason)
	}
	file, body, err := r.e.readTemplateURL(in.TemplateURL)
	file = childTemplateName(in.TemplateURL, file)
	if err == nil && len(body) == 0 {
		err = ValidationError("Template format error: At least one Resources member must be defined.")
	}
	if err == nil {
		err = r.e.checkStackLimit(r.tx)
	}
	if err != nil {
		return r.partFailed(row, s, failReason(err))
	}
	tx := r.tx
	parent := r.st
	root := parent.RootId
	if root == "" {
		root = parent.StackId
	}
	name := tx.childName(parent, s.LogicalID)
	st := &store.StackRecord{
		StackId:          tx.newStackID(name),
		StackName:        name,
		CreationTime:     tx.now(),
		NotificationARNs: in.NotificationARNs,
		Capabilities:     parent.Capabilities,
		Tags:             in.Tags,
		RoleARN:          parent.RoleARN,
		TimeoutInMinutes: in.TimeoutInMinutes,
		OnFailure:        OnFailureRollback,
		ParentId:         parent.StackId,
		RootId:           root,
		ParentLogicalId:  s.LogicalID,
		// A nested stack has its root's termination protection (the
		// parent's is the root's): "Enabling or disabling termination
		// protection on a stack passes the same choice on to any nested
		// stacks" (User Guide, using-cfn-protect-stacks).
		EnableTerminationProtection: parent.EnableTerminationProtection,
	}
	b, p, err := r.e.prepareCreate(tx, st, submission{File: file, Original: string(body)}, in.Parameters, parent.Capabilities, prepareHow{})
	if err != nil {
		return r.partFailed(row, s, failReason(err))
	}
	if r.op.ImportExisting {
		p = plan.WithImports(p, r.e.existingImports(tx, b, p))
	}
	// A child's events carry the token the caller gave the root's
	// operation, when it gave one; its handler requests the operation's.
	st.ClientRequestToken = r.stack().ClientRequestToken
	to, err := statemachine.FireStack(st.StackName, statemachine.NotExist, statemachine.StackCreate)
	if err != nil {
		return internalf("%w", err)
	}
	st.StackStatus, st.StackStatusReason = to, reasonUserInitiated
	if err := tx.PutStack(st); err != nil {
		return err
	}
	tx.stackEvent(st, to, reasonUserInitiated)
	op := r.e.newOperation(tx, st, KindCreateStack, r.op.ClientRequestToken, p, Extensions{Faults: r.op.Faults})
	op.OnFailure = OnFailureRollback
	op.ForParent = true
	op.ImportExisting = r.op.ImportExisting
	r.inheritRollback(op)
	if op.DisableRollback {
		st.DisableRollback = true
		if err := tx.PutStack(st); err != nil {
			return err
		}
	}
	if err := r.e.beginOperation(tx, st.Clone(), op); err != nil {
		return err
	}
	row.ChildStarted = true
	row.Initiated = true
	row.PhysicalID = st.StackId
	row.Entry.NewPhysicalID = st.StackId
	rec := r.current(s.LogicalID)
	if rec == nil {
		return internalf("stack %s: %s lost its record while it was created", r.st.StackName, s.LogicalID)
	}
	c := rec.Clone()
	c.PhysicalResourceId = st.StackId
	r.event(c, reasonInitiated, row.Props)
	r.put(c)
	r.putRow(row)
	return nil
}

// deleteChild starts the deletion of a step's child (DELETE_IN_PROGRESS
// "User Initiated", as a DeleteStack of it would).
func (r *run) deleteChild(row *store.StepRecord, child *store.StackRecord) error {
	tx := r.tx
	if err := statemachine.CheckOperation(statemachine.DeleteStack, child.Info()); err != nil {
		if statemachine.IsNoOp(err) {
			return nil // being deleted already: its end wakes the step
		}
		s := r.step(int(row.Index))
		return r.partFailed(row, s, failReason(apiError(err)))
	}
	c := child.Clone()
	to, err := statemachine.FireStack(c.StackName, c.StackStatus, statemachine.StackDelete)
	if err != nil {
		return internalf("%w", err)
	}
	if child.OperationId != "" {
		r.e.closeOperation(tx, child)
		c.OperationId = ""
	}
	c.StackStatus, c.StackStatusReason, c.ClientRequestToken = to, reasonUserInitiated, r.stack().ClientRequestToken
	enteredStatus(c, to, tx.now())
	tx.stackEvent(c, to, reasonUserInitiated)
	p, err := r.e.deletePlan(tx, c, nil)
	if err != nil {
		return err
	}
	op := r.e.newOperation(tx, c, KindDeleteStack, r.op.ClientRequestToken, p, Extensions{Faults: r.op.Faults})
	op.ForParent = true
	if err := r.e.beginOperation(tx, c, op); err != nil {
		return err
	}
	row.ChildStarted = true
	r.putRow(row)
	return nil
}

// wakeParent, when st is a nested stack whose status just changed, queues
// a call of the parent's step that waits on it.
func (r *run) wakeParent(st *store.StackRecord) {
	if st.ParentId == "" {
		return
	}
	parent := r.tx.StackByID(st.ParentId)
	if parent == nil || parent.OperationId == "" {
		return
	}
	op := r.tx.Operation(parent.OperationId)
	if op == nil || !op.InMotion {
		return
	}
	if op.Plan != nil && op.Phase < len(op.Plan.Phases()) && op.Plan.Phases()[op.Phase].IsCleanup() {
		// The parent's cleanup ends once its children's have.
		r.tx.Schedule(&Task{Kind: taskPhaseEnd, StackId: parent.StackId, OperationId: op.Id, Data: []byte(strconv.Itoa(op.PhaseGen))})
	}
	for _, row := range r.tx.StepsOf(op.Id) {
		if row.LogicalId != st.ParentLogicalId || row.State != store.StepRunning || !row.Launched {
			continue
		}
		if row.PhysicalID != "" && row.PhysicalID != st.StackId {
			continue
		}
		t := &Task{Kind: taskInvoke, StackId: parent.StackId, OperationId: op.Id, Attempt: row.Attempt}
		t.SetStep(row.Index, row.Gen)
		r.tx.Schedule(t)
	}
}

// childOutput answers Fn::GetAtt NESTED.Outputs.NAME from the child's
// outputs, and the type's other attributes from its record.
func (l liveResolver) nestedAttribute(rec *store.ResourceRecord, attribute string) (any, error) {
	child := l.tx.StackByID(rec.PhysicalResourceId)
	if child == nil {
		return nil, fmt.Errorf("Resource %s has no physical resource", rec.LogicalResourceId)
	}
	if name, ok := strings.CutPrefix(attribute, "Outputs."); ok {
		for _, o := range child.Outputs {
			if o.OutputKey == name {
				return o.OutputValue, nil
			}
		}
		if l.unknown && child.StackStatus.InMotion() {
			return template.Unknown{LogicalID: rec.LogicalResourceId, Attribute: attribute}, nil
		}
		// UNVERIFIED wording: an output the child does not have.
		return nil, fmt.Errorf("Template error: resource %s does not support attribute type %s in Fn::GetAtt", rec.LogicalResourceId, attribute)
	}
	switch attribute {
	case "StackId":
		return child.StackId, nil
	case "StackStatus":
		return string(child.StackStatus), nil
	}
	return nil, resources.UnsupportedAttributeError(rec.ResourceType, attribute)
}

// cancelChild stops the operation a cancelled step of a nested stack
// started: its steps in flight are cancelled and, its phase ended, it
// rolls back (UNVERIFIED: the reason AWS gives the child; stacksim gives
// the child the cancelled step's own, "Resource creation cancelled" or
// "Resource update cancelled").
func (r *run) cancelChild(row *store.StepRecord) error {
	child := r.child(row)
	if child == nil || !row.ChildStarted || !r.busy(child) {
		return nil
	}
	op := r.tx.Operation(child.OperationId)
	cr := &run{e: r.e, ctx: r.ctx, tx: r.tx, st: child, op: op}
	if op.Plan != nil {
		cr.idx = r.e.planIndexOf(op.Plan)
	}
	switch cr.phase() {
	case plan.PhaseCreate:
		if err := cr.stopPhase(reasonCreateCancelled); err != nil {
			return err
		}
	case plan.PhaseUpdate:
		cr.oper().Cancelled = true
		if err := cr.stopPhase(reasonUpdateCancelled); err != nil {
			return err
		}
	default:
		return nil // a rollback, a cleanup or a delete goes on to its end
	}
	if cr.op.Running == 0 {
		cr.schedulePhaseEnd()
	}
	return cr.flush()
}

// inheritRollback gives a child's create or update the parent
// operation's DisableRollback: a child whose resource fails then stops in
// CREATE_FAILED or UPDATE_FAILED with what it made, as its parent does,
// and the parent's RollbackStack rolls it back. UNVERIFIED: AWS documents
// that preserving provisioned resources applies to the whole stack
// hierarchy, but no recorded nested event stream was found.
func (r *run) inheritRollback(op *store.OperationRecord) {
	if r.op.DisableRollback && (r.phase() == plan.PhaseCreate || r.phase() == plan.PhaseUpdate) {
		op.DisableRollback = true
	}
}

// childTemplateName names a nested stack's template in the positions of
// its errors and in the child's record: its S3 URL, not the file of the
// S3 directory it was read from (a state stays the same whichever
// directory --s3-dir names); a file:// URL's path.
func childTemplateName(url, file string) string {
	if strings.HasPrefix(url, "file://") {
		return file
	}
	return url
}
