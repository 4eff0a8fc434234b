package engine

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// Resource import: an IMPORT change set brings existing physical resources
// (one a stack retained, say) into a stack, new or existing. The template
// is the whole stack with the imported resources added, each with a
// DeletionPolicy; nothing else may change (AWS User Guide,
// resource-import.html: "Each resource to import must have a
// DeletionPolicy attribute"; the import's changes must be its only ones).
// Executed, each resource goes IMPORT_IN_PROGRESS "Resource import
// started." → IMPORT_COMPLETE "Resource import completed." (its handler's
// Read must find it), then UPDATE_IN_PROGRESS "Apply stack-level tags to
// imported resource if applicable." → UPDATE_COMPLETE, and the stack
// IMPORT_COMPLETE: the sequence recorded from AWS in PSCloudFormation's
// docs (fireflycons/PSCloudFormation, resource-import, 2019). A resource
// that cannot be read fails IMPORT_FAILED and the import rolls back:
// IMPORT_ROLLBACK_IN_PROGRESS, each resource released (in the account, out
// of the stack), IMPORT_ROLLBACK_COMPLETE.

const (
	reasonImportStarted   = "Resource import started."
	reasonImportCompleted = "Resource import completed."
	reasonImportTags      = "Apply stack-level tags to imported resource if applicable."
	// UNVERIFIED: the reason of an import cut short by a sibling's failure
	// (stacksim words it as a cancelled create's).
	reasonImportCancelled = "Resource import cancelled"
)

// importTargets checks ResourcesToImport as the call gives them, before
// any template is read: each names a type, a logical id (once) and an
// identifier.
func importTargets(in []ResourceToImport) error {
	if len(in) == 0 {
		// UNVERIFIED wording.
		return ValidationError("ResourcesToImport must be given for a change set of type IMPORT: name each resource to import (ResourceType, LogicalResourceId, ResourceIdentifier)")
	}
	if len(in) > 200 {
		return ValidationError("1 validation error detected: Value at 'resourcesToImport' failed to satisfy constraint: Member must have length less than or equal to 200")
	}
	seen := map[string]bool{}
	for i, r := range in {
		switch {
		case r.LogicalResourceId == "":
			return requiredError("resourcesToImport." + strconv.Itoa(i+1) + ".member.logicalResourceId")
		case r.ResourceType == "":
			return requiredError("resourcesToImport." + strconv.Itoa(i+1) + ".member.resourceType")
		case len(r.ResourceIdentifier) == 0:
			return requiredError("resourcesToImport." + strconv.Itoa(i+1) + ".member.resourceIdentifier")
		case seen[r.LogicalResourceId]:
			// UNVERIFIED wording.
			return ValidationError("Resource [%s] is named more than once in ResourcesToImport", r.LogicalResourceId)
		}
		seen[r.LogicalResourceId] = true
	}
	return nil
}

// importTargetsOf checks the resources to import against the template
// they are imported with, b: each is there, of its type, with a
// DeletionPolicy, and its identifier is its type's primary identifier.
func (e *Engine) importTargetsOf(b boundTemplate, in []ResourceToImport) ([]plan.ImportTarget, error) {
	targets := make([]plan.ImportTarget, 0, len(in))
	var noPolicy []string
	for _, r := range in {
		res := resourceOf(b, r.LogicalResourceId)
		if res == nil {
			// UNVERIFIED wording.
			return nil, ValidationError("Resource [%s] in ResourcesToImport is not in the template: add it (with a DeletionPolicy) to the template you import with", r.LogicalResourceId)
		}
		if res.Type != r.ResourceType {
			// UNVERIFIED wording.
			return nil, ValidationError("Resource [%s] in ResourcesToImport has type %s, but the template's %s is of type %s", r.LogicalResourceId, r.ResourceType, r.LogicalResourceId, res.Type)
		}
		id, err := e.importIdentifier(r)
		if err != nil {
			return nil, err
		}
		if !res.HasDeletionPolicy() {
			noPolicy = append(noPolicy, r.LogicalResourceId)
		}
		targets = append(targets, plan.ImportTarget{LogicalID: r.LogicalResourceId, ResourceType: r.ResourceType, PhysicalID: id})
	}
	if len(noPolicy) > 0 {
		// Recorded from AWS (quoted in aws-quickstart/quickstart-awx#38 and
		// webdigi/AWS-VPN-Server-Setup#87).
		return nil, ValidationError("The following resources to import [%s] must have DeletionPolicy attribute specified in the template.", strings.Join(noPolicy, ", "))
	}
	return targets, nil
}

// importPlan turns p, the create (new stack) or update plan of an IMPORT
// change set's template b against st, into the import's plan, refusing in
// AWS's words what an import may not do: a resource already in a stack,
// any other change, a change of the outputs. old is the stack's template
// before (nil for a new stack). ExecuteChangeSet checks again: the
// account may have moved on since the change set was made.
func importPlan(tx *txn, st *store.StackRecord, b, old boundTemplate, p *plan.Plan, targets []plan.ImportTarget) (*plan.Plan, error) {
	var taken []string
	for _, t := range targets {
		if rec := tx.Resource(st.Num, t.LogicalID); (rec != nil && rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete) || ownedByStack(tx, t.ResourceType, t.PhysicalID) {
			taken = append(taken, t.LogicalID)
			continue
		}
		if isNestedStack(t.ResourceType) {
			nested, err := nestableStack(tx, st, t)
			if err != nil {
				return nil, err
			}
			if !nested {
				taken = append(taken, t.LogicalID)
			}
		}
	}
	if len(taken) > 0 {
		// Recorded from AWS (aws-cloudformation/cloudformation-coverage-
		// roadmap#1607).
		return nil, ValidationError("Resources [%s] passed in ResourceToImport are already in a stack and cannot be imported.", strings.Join(taken, ", "))
	}
	ip, err := plan.ForImport(p, targets)
	if refusal, ok := err.(*plan.ImportRefusal); ok {
		if len(refusal.Changed) > 0 {
			// UNVERIFIED wording (as remembered from the console).
			return nil, ValidationError("You have modified resources [%s] in your template that are not being imported. Update, create or delete operations cannot be executed during import operations.", strings.Join(refusal.Changed, ", "))
		}
		return nil, ValidationError("Resources [%s] passed in ResourceToImport are already in a stack and cannot be imported.", strings.Join(refusal.NotAdded, ", "))
	}
	if err != nil {
		return nil, internalf("stack %s: planning the import: %w", st.StackName, err)
	}
	if !sameOutputs(old, b) {
		// Recorded from AWS (awslabs/aws-security-assessment-solution#6).
		return nil, ValidationError("As part of the import operation, you cannot modify or add [Outputs]")
	}
	return ip, nil
}

// executeImport starts an IMPORT change set's import on st (a stack under
// review, made by the change set, or a stable one): the template bound and
// checked again, the stack IMPORT_IN_PROGRESS. It returns the stack as the
// import leaves it (not yet stored) and the operation.
func (e *Engine) executeImport(tx *txn, st *store.StackRecord, cs *store.ChangeSetRecord, token string, in ExecuteChangeSetInput) (*store.StackRecord, *store.OperationRecord, error) {
	how := prepareHow{processed: true, changeSet: true, ssm: storedSSM(cs.Parameters)}
	var c *store.StackRecord
	var b, old boundTemplate
	var p *plan.Plan
	var err error
	if st.StackStatus == statemachine.StackStatusReviewInProgress {
		c = st.Clone()
		if b, p, err = e.prepareCreate(tx, c, csSubmission(cs), cs.Given, cs.Capabilities, how); err != nil {
			return nil, nil, err
		}
	} else {
		u := updateRequest{Sub: csSubmission(cs), How: how, Params: cs.Given, Caps: cs.Capabilities, Tags: cs.Tags,
			NotificationARNs: cs.NotificationARNs, RoleARN: cs.RoleARN}
		if c, p, err = e.prepareUpdate(tx, st, u, false); err != nil {
			return nil, nil, err
		}
		if b, err = e.currentTemplate(c); err != nil {
			return nil, nil, err
		}
		if old, err = e.currentTemplate(st); err != nil {
			return nil, nil, err
		}
	}
	ip, err := importPlan(tx, st, b, old, p, cs.Imports)
	if err != nil {
		return nil, nil, err
	}
	to, err := statemachine.FireStack(c.StackName, c.StackStatus, statemachine.StackImport)
	if err != nil {
		return nil, nil, internalf("%w", err)
	}
	c.StackStatus, c.StackStatusReason, c.ClientRequestToken = to, reasonUserInitiated, in.ClientRequestToken
	c.LastUpdatedTime = tx.now()
	c.RollbackDisabledFailure = false
	tx.stackEvent(c, to, reasonUserInitiated)
	return c, e.newOperation(tx, c, KindExecuteChangeSet, token, ip, in.Extensions), nil
}

// resourceOf is the template resource of a logical id in a binding (nil
// when the binding has none: absent, or its condition false).
func resourceOf(b boundTemplate, logicalID string) *template.Resource {
	t := b.Template()
	if t == nil || !b.Enabled(logicalID) {
		return nil
	}
	return t.Resource(logicalID)
}

// importIdentifier checks a resource to import's identifier against its
// type's primary identifier and returns the physical id it names (the
// values in the schema's order, joined with "|").
func (e *Engine) importIdentifier(r ResourceToImport) (string, error) {
	if isNestedStack(r.ResourceType) {
		// An existing stack, nested (ops_import_nested.go): its StackId.
		id := r.ResourceIdentifier["StackId"]
		if len(r.ResourceIdentifier) != 1 || id == "" {
			got := make([]string, 0, len(r.ResourceIdentifier))
			for k := range r.ResourceIdentifier {
				got = append(got, k)
			}
			slices.Sort(got)
			return "", ValidationError("Resource [%s] of type %s is identified by [StackId]: its ResourceIdentifier gives [%s]", r.LogicalResourceId, r.ResourceType, strings.Join(got, ", "))
		}
		return id, nil
	}
	if plan.IsCustom(r.ResourceType) {
		// "Custom resources aren't supported for import" (AWS's list of
		// the types that support it has none).
		return "", ValidationError("Resource [%s] of type %s cannot be imported: custom resources do not support import", r.LogicalResourceId, r.ResourceType)
	}
	p, err := e.providerOf(r.ResourceType)
	if err != nil {
		return "", ValidationError("Resource [%s] of type %s cannot be imported: %v", r.LogicalResourceId, r.ResourceType, err)
	}
	s := p.Schema()
	if s == nil || len(s.PrimaryIdentifier) == 0 {
		return "", ValidationError("Resource [%s] of type %s cannot be imported: the type has no primary identifier", r.LogicalResourceId, r.ResourceType)
	}
	want := make([]string, 0, len(s.PrimaryIdentifier))
	parts := make([]string, 0, len(s.PrimaryIdentifier))
	for _, ptr := range s.PrimaryIdentifier {
		name := strings.TrimPrefix(ptr, "/properties/")
		want = append(want, name)
		parts = append(parts, r.ResourceIdentifier[name])
	}
	if len(r.ResourceIdentifier) != len(want) || slices.Contains(parts, "") {
		got := make([]string, 0, len(r.ResourceIdentifier))
		for k := range r.ResourceIdentifier {
			got = append(got, k)
		}
		sort.Strings(got)
		// UNVERIFIED wording.
		return "", ValidationError("Resource [%s] of type %s is identified by [%s]: its ResourceIdentifier gives [%s]", r.LogicalResourceId, r.ResourceType, strings.Join(want, ", "), strings.Join(got, ", "))
	}
	return strings.Join(parts, "|"), nil
}

// ownedByStack tells whether a physical resource belongs to a live stack:
// a resource of it names it, and it was not released since.
func ownedByStack(tx *txn, typeName, physicalID string) bool {
	o := tx.Object(typeName, physicalID)
	if o == nil || o.StackID == "" || tx.Released(typeName, physicalID) != nil {
		return false
	}
	st := tx.StackByID(o.StackID)
	if st == nil || !st.Live() {
		return false
	}
	rec := tx.Resource(st.Num, o.LogicalID)
	return rec != nil && rec.PhysicalResourceId == physicalID && rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete
}

// sameOutputs tells whether two bindings have the same Outputs section
// (a nil old binding has none).
func sameOutputs(old, b boundTemplate) bool {
	var before []*template.Output
	if old != nil {
		before = old.Outputs()
	}
	after := b.Outputs()
	if len(before) != len(after) {
		return false
	}
	byName := make(map[string]*template.Output, len(before))
	for _, o := range before {
		byName[o.Name] = o
	}
	for _, o := range after {
		prev := byName[o.Name]
		if prev == nil || prev.Node == nil || o.Node == nil || !bytes.Equal(prev.Node.JSON(), o.Node.JSON()) {
			return false
		}
	}
	return true
}
