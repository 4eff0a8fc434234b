package store

import (
	"time"
)

// Tag is a stack tag.
type Tag struct {
	Key   string `json:"Key"`
	Value string `json:"Value"`
}

// Parameter is a stack parameter as DescribeStacks shows it (a NoEcho value
// reads "****"), or as CreateStack and UpdateStack take it.
type Parameter struct {
	ParameterKey     string `json:"ParameterKey"`
	ParameterValue   string `json:"ParameterValue,omitempty"`
	UsePreviousValue bool   `json:"UsePreviousValue,omitempty"`
	// ResolvedValue is the value an SSM parameter type resolved to.
	ResolvedValue string `json:"ResolvedValue,omitempty"`
}

// Output is a stack output.
type Output struct {
	OutputKey   string `json:"OutputKey"`
	OutputValue string `json:"OutputValue"`
	Description string `json:"Description,omitempty"`
	ExportName  string `json:"ExportName,omitempty"`
}

// RollbackTrigger is a CloudWatch alarm that rolls an operation back.
type RollbackTrigger struct {
	Arn  string `json:"Arn"`
	Type string `json:"Type"`
}

// RollbackConfiguration is a stack's rollback triggers. DescribeStacks
// always shows it, as {} when it is empty.
type RollbackConfiguration struct {
	RollbackTriggers        []RollbackTrigger `json:"RollbackTriggers,omitempty"`
	MonitoringTimeInMinutes *int              `json:"MonitoringTimeInMinutes,omitempty"`
}

// ContractViolation is one breach of the resource handler contract that
// the contract checker found during an operation (Options.Contract).
type ContractViolation struct {
	Rule              string    `json:"Rule"`
	Message           string    `json:"Message"`
	LogicalResourceId string    `json:"LogicalResourceId,omitempty"`
	ResourceType      string    `json:"ResourceType,omitempty"`
	Action            string    `json:"Action,omitempty"`
	Timestamp         time.Time `json:"Timestamp"`
}

// StackResourceType is the type the stack's own events carry.
const StackResourceType = "AWS::CloudFormation::Stack"
