package engine

import (
	"time"

	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources/faults"
)

// The requests and answers of the calls that change stacks, shaped after
// CloudFormation's (field names and the AWS CLI's JSON names), plus the
// stacksim Extensions every one of them carries.

// Extensions are stacksim's additions to the input of a call that changes a
// stack. None of them is CloudFormation's; none is in the JSON.
type Extensions struct {
	// TemplateFile names the template in the positions of template errors
	// (FILE:LINE:COL); "template" when empty.
	TemplateFile string `json:"-"`
	// Faults are injected into the handler calls of the operation the call
	// starts (create, update, delete, and the rollbacks and cleanups that
	// follow them by themselves). They are stored with the operation, with
	// what they have done so far, so that an operation stopped part way
	// (Step, RunUntil, a state file saved and opened again) goes on
	// exactly as it would have. A call that starts no operation
	// (CreateChangeSet, DeleteChangeSet) ignores them.
	Faults []faults.Fault `json:"-"`
}

// OnFailure values (CreateStack).
const (
	OnFailureRollback  = "ROLLBACK"
	OnFailureDoNothing = "DO_NOTHING"
	OnFailureDelete    = "DELETE"
)

// CreateStackInput is CreateStack's request.
type CreateStackInput struct {
	StackName    string `json:"StackName"`
	TemplateBody string `json:"TemplateBody,omitempty"`
	// TemplateURL names the template instead of TemplateBody: an S3 URL
	// (read from Options.S3Dir) or file://PATH (template_url.go).
	TemplateURL string      `json:"TemplateURL,omitempty"`
	Parameters  []Parameter `json:"Parameters,omitempty"`
	// DisableRollback leaves the stack in CREATE_FAILED when the create
	// fails. It may not be given with OnFailure.
	DisableRollback bool `json:"DisableRollback,omitempty"`
	// OnFailure is ROLLBACK (the default), DO_NOTHING or DELETE.
	OnFailure string `json:"OnFailure,omitempty"`
	// TimeoutInMinutes fails the create when it runs longer (0: no limit).
	TimeoutInMinutes int      `json:"TimeoutInMinutes,omitempty"`
	NotificationARNs []string `json:"NotificationARNs,omitempty"`
	// RollbackConfiguration is the stack's rollback triggers and monitoring
	// time (rollback_triggers.go): on an update, nil keeps the stack's, a
	// nil RollbackTriggers keeps its triggers and an empty one removes them.
	RollbackConfiguration       *RollbackConfiguration `json:"RollbackConfiguration,omitempty"`
	Capabilities                []string               `json:"Capabilities,omitempty"`
	RoleARN                     string                 `json:"RoleARN,omitempty"`
	Tags                        []Tag                  `json:"Tags,omitempty"`
	ClientRequestToken          string                 `json:"ClientRequestToken,omitempty"`
	EnableTerminationProtection bool                   `json:"EnableTerminationProtection,omitempty"`
	// RetainExceptOnCreate deletes resources whose DeletionPolicy is Retain
	// when the operation that created them rolls back.
	RetainExceptOnCreate bool `json:"RetainExceptOnCreate,omitempty"`
	// StackPolicyBody or StackPolicyURL sets the stack's policy
	// (api_stack_policy.go): it governs the stack's updates.
	StackPolicyBody string `json:"StackPolicyBody,omitempty"`
	StackPolicyURL  string `json:"StackPolicyURL,omitempty"`

	Extensions `json:"-"`
}

// CreateStackOutput is CreateStack's answer.
type CreateStackOutput struct {
	StackId string `json:"StackId"`
	// OperationId is the operation the call began.
	OperationId string `json:"OperationId,omitempty"`
}

// UpdateStackInput is UpdateStack's request: a new template
// (TemplateBody) or the current one (UsePreviousTemplate), and parameter
// values (UsePreviousValue keeps a parameter's current value).
type UpdateStackInput struct {
	StackName           string      `json:"StackName"`
	TemplateBody        string      `json:"TemplateBody,omitempty"`
	TemplateURL         string      `json:"TemplateURL,omitempty"`
	UsePreviousTemplate bool        `json:"UsePreviousTemplate,omitempty"`
	Parameters          []Parameter `json:"Parameters,omitempty"`
	Capabilities        []string    `json:"Capabilities,omitempty"`
	RoleARN             string      `json:"RoleARN,omitempty"`
	NotificationARNs    []string    `json:"NotificationARNs,omitempty"`
	// RollbackConfiguration is the stack's rollback triggers and monitoring
	// time (rollback_triggers.go): on an update, nil keeps the stack's, a
	// nil RollbackTriggers keeps its triggers and an empty one removes them.
	RollbackConfiguration *RollbackConfiguration `json:"RollbackConfiguration,omitempty"`
	// Tags replace the stack's tags; nil keeps them.
	Tags []Tag `json:"Tags,omitempty"`
	// DisableRollback leaves the stack in UPDATE_FAILED when the update
	// fails (RollbackStack or another update follow).
	DisableRollback      bool   `json:"DisableRollback,omitempty"`
	ClientRequestToken   string `json:"ClientRequestToken,omitempty"`
	RetainExceptOnCreate *bool  `json:"RetainExceptOnCreate,omitempty"`
	// StackPolicyBody or StackPolicyURL is the stack's policy once the
	// update succeeds; StackPolicyDuringUpdateBody or -URL the policy this
	// update runs under instead of the stack's (api_stack_policy.go).
	StackPolicyBody             string `json:"StackPolicyBody,omitempty"`
	StackPolicyURL              string `json:"StackPolicyURL,omitempty"`
	StackPolicyDuringUpdateBody string `json:"StackPolicyDuringUpdateBody,omitempty"`
	StackPolicyDuringUpdateURL  string `json:"StackPolicyDuringUpdateURL,omitempty"`

	Extensions `json:"-"`
}

// UpdateStackOutput is UpdateStack's answer.
type UpdateStackOutput struct {
	StackId string `json:"StackId"`
	// OperationId is the operation the call began.
	OperationId string `json:"OperationId,omitempty"`
}

// DeleteStackInput is DeleteStack's request.
type DeleteStackInput struct {
	StackName string `json:"StackName"`
	// RetainResources, accepted only for a stack in DELETE_FAILED, names the
	// resources to leave in the account (DELETE_SKIPPED).
	RetainResources    []string `json:"RetainResources,omitempty"`
	RoleARN            string   `json:"RoleARN,omitempty"`
	ClientRequestToken string   `json:"ClientRequestToken,omitempty"`

	Extensions `json:"-"`
}

// DeleteStackOutput is DeleteStack's answer (AWS returns nothing).
type DeleteStackOutput struct{}

// ContinueUpdateRollbackInput is ContinueUpdateRollback's request.
type ContinueUpdateRollbackInput struct {
	StackName string `json:"StackName"`
	RoleARN   string `json:"RoleARN,omitempty"`
	// ResourcesToSkip names resources whose rollback failed: they are
	// marked UPDATE_COMPLETE without being rolled back.
	ResourcesToSkip    []string `json:"ResourcesToSkip,omitempty"`
	ClientRequestToken string   `json:"ClientRequestToken,omitempty"`

	Extensions `json:"-"`
}

// ContinueUpdateRollbackOutput is ContinueUpdateRollback's answer (AWS
// returns nothing).
type ContinueUpdateRollbackOutput struct{}

// CancelUpdateStackInput is CancelUpdateStack's request.
type CancelUpdateStackInput struct {
	StackName          string `json:"StackName"`
	ClientRequestToken string `json:"ClientRequestToken,omitempty"`

	Extensions `json:"-"`
}

// CancelUpdateStackOutput is CancelUpdateStack's answer (AWS returns
// nothing).
type CancelUpdateStackOutput struct{}

// RollbackStackInput is RollbackStack's request.
type RollbackStackInput struct {
	StackName            string `json:"StackName"`
	RoleARN              string `json:"RoleARN,omitempty"`
	ClientRequestToken   string `json:"ClientRequestToken,omitempty"`
	RetainExceptOnCreate *bool  `json:"RetainExceptOnCreate,omitempty"`

	Extensions `json:"-"`
}

// RollbackStackOutput is RollbackStack's answer.
type RollbackStackOutput struct {
	StackId string `json:"StackId"`
	// OperationId is the operation the call began.
	OperationId string `json:"OperationId,omitempty"`
}

// Change set types, statuses and execution statuses.
const (
	ChangeSetTypeCreate = "CREATE"
	ChangeSetTypeUpdate = "UPDATE"
	ChangeSetTypeImport = "IMPORT"

	ChangeSetStatusCreatePending    = "CREATE_PENDING"
	ChangeSetStatusCreateInProgress = "CREATE_IN_PROGRESS"
	ChangeSetStatusCreateComplete   = "CREATE_COMPLETE"
	ChangeSetStatusDeletePending    = "DELETE_PENDING"
	ChangeSetStatusDeleteComplete   = "DELETE_COMPLETE"
	ChangeSetStatusFailed           = "FAILED"

	ExecutionStatusUnavailable       = "UNAVAILABLE"
	ExecutionStatusAvailable         = "AVAILABLE"
	ExecutionStatusExecuteInProgress = "EXECUTE_IN_PROGRESS"
	ExecutionStatusExecuteComplete   = "EXECUTE_COMPLETE"
	ExecutionStatusExecuteFailed     = "EXECUTE_FAILED"
	ExecutionStatusObsolete          = "OBSOLETE"
)

// CreateChangeSetInput is CreateChangeSet's request.
type CreateChangeSetInput struct {
	StackName           string      `json:"StackName"`
	ChangeSetName       string      `json:"ChangeSetName"`
	TemplateBody        string      `json:"TemplateBody,omitempty"`
	TemplateURL         string      `json:"TemplateURL,omitempty"`
	UsePreviousTemplate bool        `json:"UsePreviousTemplate,omitempty"`
	Parameters          []Parameter `json:"Parameters,omitempty"`
	Capabilities        []string    `json:"Capabilities,omitempty"`
	RoleARN             string      `json:"RoleARN,omitempty"`
	NotificationARNs    []string    `json:"NotificationARNs,omitempty"`
	Tags                []Tag       `json:"Tags,omitempty"`
	Description         string      `json:"Description,omitempty"`
	// RollbackConfiguration is what the stack takes when the change set
	// runs, as UpdateStack's (CreateStack's for a CREATE change set).
	RollbackConfiguration *RollbackConfiguration `json:"RollbackConfiguration,omitempty"`
	// ChangeSetType is CREATE (a new stack), UPDATE (the default) or IMPORT
	// (existing resources come into the stack: ResourcesToImport).
	ChangeSetType string `json:"ChangeSetType,omitempty"`
	// ResourcesToImport are the resources an IMPORT change set imports.
	ResourcesToImport       []ResourceToImport `json:"ResourcesToImport,omitempty"`
	ClientToken             string             `json:"ClientToken,omitempty"`
	IncludeNestedStacks     bool               `json:"IncludeNestedStacks,omitempty"`
	OnStackFailure          string             `json:"OnStackFailure,omitempty"`
	ImportExistingResources bool               `json:"ImportExistingResources,omitempty"`

	Extensions `json:"-"`
}

// ResourceToImport is one resource an IMPORT change set imports: its
// logical id and type in the template, and the values of its type's
// primary identifier properties that name the existing resource
// ({"BucketName": "my-bucket"}).
type ResourceToImport struct {
	ResourceType       string            `json:"ResourceType"`
	LogicalResourceId  string            `json:"LogicalResourceId"`
	ResourceIdentifier map[string]string `json:"ResourceIdentifier"`
}

// CreateChangeSetOutput is CreateChangeSet's answer.
type CreateChangeSetOutput struct {
	Id      string `json:"Id"`
	StackId string `json:"StackId"`
}

// DescribeChangeSetInput is DescribeChangeSet's request: a change set by
// ARN, or by name with its stack.
type DescribeChangeSetInput struct {
	ChangeSetName string `json:"ChangeSetName"`
	StackName     string `json:"StackName,omitempty"`
	NextToken     string `json:"NextToken,omitempty"`
	// IncludePropertyValues adds BeforeValue and AfterValue to the details.
	IncludePropertyValues bool `json:"IncludePropertyValues,omitempty"`
}

// DescribeChangeSetOutput is DescribeChangeSet's answer.
type DescribeChangeSetOutput struct {
	ChangeSetName         string                `json:"ChangeSetName"`
	ChangeSetId           string                `json:"ChangeSetId"`
	StackId               string                `json:"StackId"`
	StackName             string                `json:"StackName"`
	Description           string                `json:"Description,omitempty"`
	Parameters            []Parameter           `json:"Parameters,omitempty"`
	CreationTime          time.Time             `json:"CreationTime"`
	ExecutionStatus       string                `json:"ExecutionStatus"`
	Status                string                `json:"Status"`
	StatusReason          string                `json:"StatusReason,omitempty"`
	NotificationARNs      []string              `json:"NotificationARNs"`
	RollbackConfiguration RollbackConfiguration `json:"RollbackConfiguration"`
	Capabilities          []string              `json:"Capabilities"`
	Tags                  []Tag                 `json:"Tags,omitempty"`
	Changes               []plan.Change         `json:"Changes"`
	NextToken             string                `json:"NextToken,omitempty"`
	IncludeNestedStacks   bool                  `json:"IncludeNestedStacks"`
	OnStackFailure        string                `json:"OnStackFailure,omitempty"`
	// ImportExistingResources: the change set imports the resources of its
	// template that exist already.
	ImportExistingResources bool `json:"ImportExistingResources,omitempty"`
	// ParentChangeSetId and RootChangeSetId are set on the change set of
	// a nested stack (IncludeNestedStacks).
	ParentChangeSetId string `json:"ParentChangeSetId,omitempty"`
	RootChangeSetId   string `json:"RootChangeSetId,omitempty"`
}

// ExecuteChangeSetInput is ExecuteChangeSet's request.
type ExecuteChangeSetInput struct {
	ChangeSetName      string `json:"ChangeSetName"`
	StackName          string `json:"StackName,omitempty"`
	ClientRequestToken string `json:"ClientRequestToken,omitempty"`
	// DisableRollback leaves the stack in CREATE_FAILED or UPDATE_FAILED
	// when the operation fails.
	DisableRollback      bool  `json:"DisableRollback,omitempty"`
	RetainExceptOnCreate *bool `json:"RetainExceptOnCreate,omitempty"`

	Extensions `json:"-"`
}

// ExecuteChangeSetOutput is ExecuteChangeSet's answer (AWS returns
// nothing).
type ExecuteChangeSetOutput struct{}

// DeleteChangeSetInput is DeleteChangeSet's request.
type DeleteChangeSetInput struct {
	ChangeSetName string `json:"ChangeSetName"`
	StackName     string `json:"StackName,omitempty"`

	Extensions `json:"-"`
}

// DeleteChangeSetOutput is DeleteChangeSet's answer (AWS returns nothing).
type DeleteChangeSetOutput struct{}

// ListChangeSetsInput is ListChangeSets' request.
type ListChangeSetsInput struct {
	StackName string `json:"StackName"`
	NextToken string `json:"NextToken,omitempty"`
}

// ChangeSetSummary is one change set as ListChangeSets shows it.
type ChangeSetSummary struct {
	StackId             string    `json:"StackId"`
	StackName           string    `json:"StackName"`
	ChangeSetId         string    `json:"ChangeSetId"`
	ChangeSetName       string    `json:"ChangeSetName"`
	ExecutionStatus     string    `json:"ExecutionStatus"`
	Status              string    `json:"Status"`
	StatusReason        string    `json:"StatusReason,omitempty"`
	CreationTime        time.Time `json:"CreationTime"`
	Description         string    `json:"Description,omitempty"`
	IncludeNestedStacks bool      `json:"IncludeNestedStacks"`
	// ImportExistingResources: as DescribeChangeSet's.
	ImportExistingResources bool   `json:"ImportExistingResources,omitempty"`
	ParentChangeSetId       string `json:"ParentChangeSetId,omitempty"`
	RootChangeSetId         string `json:"RootChangeSetId,omitempty"`
}

// ListChangeSetsOutput is ListChangeSets' answer.
type ListChangeSetsOutput struct {
	Summaries []ChangeSetSummary `json:"Summaries"`
	NextToken string             `json:"NextToken,omitempty"`
}

// ValidateTemplateInput is ValidateTemplate's request.
type ValidateTemplateInput struct {
	TemplateBody string `json:"TemplateBody,omitempty"`
	TemplateURL  string `json:"TemplateURL,omitempty"`

	Extensions `json:"-"`
}

// TemplateParameter is one parameter as ValidateTemplate describes it.
type TemplateParameter struct {
	ParameterKey string `json:"ParameterKey"`
	DefaultValue string `json:"DefaultValue,omitempty"`
	NoEcho       bool   `json:"NoEcho"`
	Description  string `json:"Description,omitempty"`
}

// ValidateTemplateOutput is ValidateTemplate's answer.
type ValidateTemplateOutput struct {
	Parameters         []TemplateParameter `json:"Parameters"`
	Description        string              `json:"Description,omitempty"`
	Capabilities       []string            `json:"Capabilities,omitempty"`
	CapabilitiesReason string              `json:"CapabilitiesReason,omitempty"`
	DeclaredTransforms []string            `json:"DeclaredTransforms,omitempty"`
}

// DescribeStackOperationInput is DescribeStackOperation's request (a
// stacksim extension): the operation in motion on a stack, or its last
// one, or one by id.
type DescribeStackOperationInput struct {
	StackName   string `json:"StackName"`
	OperationId string `json:"OperationId,omitempty"`
}

// FaultFiring is one injected fault taking effect.
type FaultFiring struct {
	Fault             string `json:"Fault"`
	Kind              string `json:"Kind"`
	ResourceType      string `json:"ResourceType"`
	LogicalResourceId string `json:"LogicalResourceId"`
	Action            string `json:"Action"`
	Phase             string `json:"Phase"`
	Attempt           int    `json:"Attempt"`
}

// StackOperation describes one operation of a stack (a stacksim
// extension): what started it, where it is, the contract violations its
// handlers committed and the faults that fired.
type StackOperation struct {
	OperationId string `json:"OperationId"`
	StackId     string `json:"StackId"`
	StackName   string `json:"StackName"`
	// Operation is the call that started it: CreateStack, UpdateStack,
	// DeleteStack, ExecuteChangeSet, ContinueUpdateRollback, RollbackStack,
	// CancelUpdateStack.
	Operation          string     `json:"Operation"`
	ClientRequestToken string     `json:"ClientRequestToken"`
	StartTime          time.Time  `json:"StartTime"`
	EndTime            *time.Time `json:"EndTime,omitempty"`
	// InMotion: the operation has not come to rest.
	InMotion bool `json:"InMotion"`
	// Phase is the stack status the operation is running in (or ended in).
	Phase string `json:"Phase,omitempty"`
	// Plan is the plan being run, for people (plan.Plan.String), when the
	// operation is in motion or may be continued.
	Plan                   string              `json:"Plan,omitempty"`
	ContractViolationCount int                 `json:"ContractViolationCount"`
	ContractViolations     []ContractViolation `json:"ContractViolations,omitempty"`
	FaultsFired            []FaultFiring       `json:"FaultsFired,omitempty"`
}

// DescribeStackOperationOutput is DescribeStackOperation's answer.
type DescribeStackOperationOutput struct {
	Operation StackOperation `json:"Operation"`
}

// ListStackOperationsInput is ListStackOperations' request (a stacksim
// extension).
type ListStackOperationsInput struct {
	StackName string `json:"StackName"`
}

// ListStackOperationsOutput lists a stack's operations, oldest first.
type ListStackOperationsOutput struct {
	Operations []StackOperation `json:"Operations"`
}
