package plan

import "strings"

// Deployed is a stack as it stands: its resources as the last operation
// left them.
type Deployed struct {
	// Resources in the order of the template they were deployed with (ties
	// of the cleanup and delete order follow it).
	Resources []DeployedResource `json:"resources"`
	// Parameters are the values the stack's parameters had (as given, what
	// template.BoundParameter.Value holds), to tell which parameters an
	// update changes (ChangeSource ParameterReference). nil: not known; then
	// every parameter a changed property refers to is named.
	Parameters map[string]string `json:"parameters,omitempty"`
}

// DeployedResource is one resource of a deployed stack.
type DeployedResource struct {
	LogicalID  string `json:"logicalId"`
	Type       string `json:"type"`
	PhysicalID string `json:"physicalId,omitempty"`
	// Status is the resource's status (CREATE_COMPLETE, UPDATE_FAILED, ...).
	Status string `json:"status"`
	// Properties as last applied, resolved.
	Properties map[string]any `json:"properties,omitempty"`
	// Metadata, CreationPolicy and UpdatePolicy as last applied, resolved
	// (nil when the template set none).
	Metadata       any `json:"metadata,omitempty"`
	CreationPolicy any `json:"creationPolicy,omitempty"`
	UpdatePolicy   any `json:"updatePolicy,omitempty"`
	// DeletionPolicy and UpdateReplacePolicy in effect ("" reads as
	// "Delete").
	DeletionPolicy      string `json:"deletionPolicy,omitempty"`
	UpdateReplacePolicy string `json:"updateReplacePolicy,omitempty"`
	// DependsOn are the resource's effective dependencies in the template it
	// was deployed with (template.Bound.DependsOn).
	DependsOn []string `json:"dependsOn,omitempty"`
}

// Resource statuses the planner looks at.
const (
	statusCreateFailed   = "CREATE_FAILED"
	statusUpdateFailed   = "UPDATE_FAILED"
	statusDeleteComplete = "DELETE_COMPLETE"
	statusDeleteFailed   = "DELETE_FAILED"
	statusDeleteSkipped  = "DELETE_SKIPPED"
	statusImportFailed   = "IMPORT_FAILED"
)

// gone tells whether the resource is no longer the stack's: deleted, or
// retained out of its scope.
func (r *DeployedResource) gone() bool {
	return r.Status == statusDeleteComplete || r.Status == statusDeleteSkipped
}

// neverCreated tells whether the resource has no physical resource: its
// create failed (or never ran) before the handler named one.
func (r *DeployedResource) neverCreated() bool { return r.PhysicalID == "" }

// neverAdopted tells whether the resource's import failed (or was cut
// short) in a create or update that disabled rollback: the physical
// resource it names was never the stack's.
func (r *DeployedResource) neverAdopted() bool { return r.Status == statusImportFailed }

// deleteFailed tells whether a delete of the resource was tried and
// failed: a custom resource is sent its Delete even without a physical
// id (a rollback after its Create got no answer), and one that failed
// is sent it again, or retained, like any other.
func (r *DeployedResource) deleteFailed() bool { return r.Status == statusDeleteFailed }

// IsCustom tells whether a type is a custom resource:
// AWS::CloudFormation::CustomResource or Custom::NAME.
func IsCustom(typeName string) bool {
	return typeName == "AWS::CloudFormation::CustomResource" || strings.HasPrefix(typeName, "Custom::")
}

// isNestedStack tells whether a type is a nested stack, which a parent
// update always updates (ChangeSource Automatic).
func isNestedStack(typeName string) bool { return typeName == "AWS::CloudFormation::Stack" }

// policy reads a DeletionPolicy or UpdateReplacePolicy, "" being "Delete".
func policy(p string) string {
	if p == "" {
		return "Delete"
	}
	return p
}

// deletion is the action that takes a resource out of the stack under a
// DeletionPolicy, outside the rollback of its own creation:
// RetainExceptOnCreate retains.
func deletion(p string) Action {
	switch policy(p) {
	case "Retain", "RetainExceptOnCreate":
		return Retain
	case "Snapshot":
		return Snapshot
	}
	return Delete
}

// policyAction is the change set's PolicyAction of a delete action.
func policyAction(a Action) string {
	switch a {
	case Retain:
		return PolicyRetain
	case Snapshot:
		return PolicySnapshot
	case Delete, Forget:
		return PolicyDelete
	}
	return ""
}

// replacePolicyAction is the change set's PolicyAction of a replacement
// under an UpdateReplacePolicy.
func replacePolicyAction(updateReplacePolicy string) string {
	switch policy(updateReplacePolicy) {
	case "Retain":
		return PolicyReplaceAndRetain
	case "Snapshot":
		return PolicyReplaceAndSnapshot
	}
	return PolicyReplaceAndDelete
}
