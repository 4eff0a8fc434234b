package engine

import (
	"time"

	"github.com/stacksim/stacksim/engine/store"
)

// The shapes below are CloudFormation's, field for field, with the JSON
// names the AWS CLI prints. Optional scalars are omitted when empty, as the
// CLI omits what the service does not return; lists that the service always
// returns (NotificationARNs, Tags) are always present.

// NOT_CHECKED: a stack or resource no drift detection has checked
// (api_drift.go).
const (
	DriftNotChecked = "NOT_CHECKED"
)

// StackDriftInformation is a stack's drift status.
type StackDriftInformation struct {
	StackDriftStatus   string     `json:"StackDriftStatus"`
	LastCheckTimestamp *time.Time `json:"LastCheckTimestamp,omitempty"`
}

// ResourceDriftInformation is a resource's drift status.
type ResourceDriftInformation struct {
	StackResourceDriftStatus string     `json:"StackResourceDriftStatus"`
	LastCheckTimestamp       *time.Time `json:"LastCheckTimestamp,omitempty"`
}

// Stack is one stack as DescribeStacks returns it.
type Stack struct {
	StackId               string                `json:"StackId"`
	StackName             string                `json:"StackName"`
	ChangeSetId           string                `json:"ChangeSetId,omitempty"`
	Description           string                `json:"Description,omitempty"`
	Parameters            []Parameter           `json:"Parameters,omitempty"`
	CreationTime          time.Time             `json:"CreationTime"`
	DeletionTime          *time.Time            `json:"DeletionTime,omitempty"`
	LastUpdatedTime       *time.Time            `json:"LastUpdatedTime,omitempty"`
	RollbackConfiguration RollbackConfiguration `json:"RollbackConfiguration"`
	StackStatus           string                `json:"StackStatus"`
	StackStatusReason     string                `json:"StackStatusReason,omitempty"`
	DisableRollback       bool                  `json:"DisableRollback"`
	NotificationARNs      []string              `json:"NotificationARNs"`
	TimeoutInMinutes      *int                  `json:"TimeoutInMinutes,omitempty"`
	Capabilities          []string              `json:"Capabilities,omitempty"`
	Outputs               []Output              `json:"Outputs,omitempty"`
	RoleARN               string                `json:"RoleARN,omitempty"`
	Tags                  []Tag                 `json:"Tags"`
	// EnableTerminationProtection is absent on a DELETE_COMPLETE stack, as
	// AWS shows it (LocalStack's AWS-recorded api/test_stacks.snapshot.json,
	// test_blocked_stack_deletion, stack_post_success_delete).
	EnableTerminationProtection *bool                 `json:"EnableTerminationProtection,omitempty"`
	ParentId                    string                `json:"ParentId,omitempty"`
	RootId                      string                `json:"RootId,omitempty"`
	DriftInformation            StackDriftInformation `json:"DriftInformation"`
	RetainExceptOnCreate        bool                  `json:"RetainExceptOnCreate,omitempty"`
	LastOperations              []OperationEntry      `json:"LastOperations,omitempty"`
}

// StackSummary is one stack as ListStacks returns it.
type StackSummary struct {
	StackId             string                `json:"StackId"`
	StackName           string                `json:"StackName"`
	TemplateDescription string                `json:"TemplateDescription,omitempty"`
	CreationTime        time.Time             `json:"CreationTime"`
	LastUpdatedTime     *time.Time            `json:"LastUpdatedTime,omitempty"`
	DeletionTime        *time.Time            `json:"DeletionTime,omitempty"`
	StackStatus         string                `json:"StackStatus"`
	StackStatusReason   string                `json:"StackStatusReason,omitempty"`
	ParentId            string                `json:"ParentId,omitempty"`
	RootId              string                `json:"RootId,omitempty"`
	DriftInformation    StackDriftInformation `json:"DriftInformation"`
	LastOperations      []OperationEntry      `json:"LastOperations,omitempty"`
}

// StackEvent is one entry of a stack's event history (DescribeStackEvents).
// A stack's own events have the stack name as LogicalResourceId, the stack
// ARN as PhysicalResourceId and AWS::CloudFormation::Stack as ResourceType.
// PhysicalResourceId is always present: "" before a resource has one, as
// AWS shows it.
type StackEvent struct {
	StackId              string    `json:"StackId"`
	EventId              string    `json:"EventId"`
	StackName            string    `json:"StackName"`
	OperationId          string    `json:"OperationId,omitempty"`
	LogicalResourceId    string    `json:"LogicalResourceId"`
	PhysicalResourceId   string    `json:"PhysicalResourceId"`
	ResourceType         string    `json:"ResourceType"`
	Timestamp            time.Time `json:"Timestamp"`
	ResourceStatus       string    `json:"ResourceStatus"`
	ResourceStatusReason string    `json:"ResourceStatusReason,omitempty"`
	ResourceProperties   string    `json:"ResourceProperties,omitempty"`
	ClientRequestToken   string    `json:"ClientRequestToken,omitempty"`
	// DetailedStatus is VALIDATION_FAILED on the event of a resource whose
	// properties failed validation before any handler ran (AWS's
	// StackEvent documentation; derived from the reason, stackEventOf).
	DetailedStatus string `json:"DetailedStatus,omitempty"`
}

// IsStackEvent reports whether the event is about the stack itself rather
// than one of its resources.
func (e StackEvent) IsStackEvent() bool {
	return e.ResourceType == StackResourceType && e.PhysicalResourceId == e.StackId
}

// StackResource is one resource as DescribeStackResources returns it.
type StackResource struct {
	StackName            string                   `json:"StackName"`
	StackId              string                   `json:"StackId"`
	LogicalResourceId    string                   `json:"LogicalResourceId"`
	PhysicalResourceId   string                   `json:"PhysicalResourceId,omitempty"`
	ResourceType         string                   `json:"ResourceType"`
	Timestamp            time.Time                `json:"Timestamp"`
	ResourceStatus       string                   `json:"ResourceStatus"`
	ResourceStatusReason string                   `json:"ResourceStatusReason,omitempty"`
	Description          string                   `json:"Description,omitempty"`
	DriftInformation     ResourceDriftInformation `json:"DriftInformation"`
}

// StackResourceDetail is one resource as DescribeStackResource returns it.
type StackResourceDetail struct {
	StackName            string                   `json:"StackName"`
	StackId              string                   `json:"StackId"`
	LogicalResourceId    string                   `json:"LogicalResourceId"`
	PhysicalResourceId   string                   `json:"PhysicalResourceId,omitempty"`
	ResourceType         string                   `json:"ResourceType"`
	LastUpdatedTimestamp time.Time                `json:"LastUpdatedTimestamp"`
	ResourceStatus       string                   `json:"ResourceStatus"`
	ResourceStatusReason string                   `json:"ResourceStatusReason,omitempty"`
	Description          string                   `json:"Description,omitempty"`
	Metadata             string                   `json:"Metadata,omitempty"`
	DriftInformation     ResourceDriftInformation `json:"DriftInformation"`
}

// StackResourceSummary is one resource as ListStackResources returns it.
type StackResourceSummary struct {
	LogicalResourceId    string                   `json:"LogicalResourceId"`
	PhysicalResourceId   string                   `json:"PhysicalResourceId,omitempty"`
	ResourceType         string                   `json:"ResourceType"`
	LastUpdatedTimestamp time.Time                `json:"LastUpdatedTimestamp"`
	ResourceStatus       string                   `json:"ResourceStatus"`
	ResourceStatusReason string                   `json:"ResourceStatusReason,omitempty"`
	DriftInformation     ResourceDriftInformation `json:"DriftInformation"`
}

// Export is one exported output value (ListExports).
type Export struct {
	ExportingStackId string `json:"ExportingStackId"`
	Name             string `json:"Name"`
	Value            string `json:"Value"`
}

// StackResourceType is the type the stack's own events carry.
const StackResourceType = store.StackResourceType
