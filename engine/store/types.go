package store

import (
	"fmt"
	"strconv"
	"strings"
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
	// RollbackTriggers: nil is "not given" (a call's configuration that
	// keeps the stack's triggers), an empty list "none" (one that removes
	// them). omitzero keeps the two apart in the state file.
	RollbackTriggers        []RollbackTrigger `json:"RollbackTriggers,omitzero"`
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

// OpTag names one of a stack's operations as AWS counts them (the
// OperationId of its events, DescribeStacks' LastOperations): its number
// on the stack, from 1, and its type. An automatic rollback, a
// RollbackStack and a ContinueUpdateRollback are operations of their own,
// as a change set's creation of a stack is. 0 is no operation (events of
// state files written before operations were counted). In a state file
// it reads "3 UPDATE_STACK".
type OpTag uint32

// The operation types of AWS's OperationType, in the order of their codes.
var opTypes = [...]string{"", "CREATE_STACK", "UPDATE_STACK", "DELETE_STACK", "CONTINUE_ROLLBACK", "ROLLBACK", "CREATE_CHANGESET"}

const opTypeBits = 3

// NewOpTag is operation number n of a stack, of type typ (one of AWS's
// OperationType values); ok is false for an unknown type or n 0.
func NewOpTag(n uint32, typ string) (OpTag, bool) {
	for code, t := range opTypes {
		if code > 0 && t == typ && n > 0 && n < 1<<(32-opTypeBits) {
			return OpTag(n<<opTypeBits | uint32(code)), true
		}
	}
	return 0, false
}

// Number is the operation's number on its stack.
func (t OpTag) Number() uint32 { return uint32(t) >> opTypeBits }

// Type is the operation's OperationType ("" for no operation).
func (t OpTag) Type() string {
	if code := uint32(t) & (1<<opTypeBits - 1); int(code) < len(opTypes) {
		return opTypes[code]
	}
	return ""
}

// String is the tag as a state file writes it: "3 UPDATE_STACK", or ""
// for no operation.
func (t OpTag) String() string {
	if t == 0 {
		return ""
	}
	return strconv.FormatUint(uint64(t.Number()), 10) + " " + t.Type()
}

// ParseOpTag reads what String writes ("" is no operation).
func ParseOpTag(s string) (OpTag, error) {
	if s == "" {
		return 0, nil
	}
	num, typ, ok := strings.Cut(s, " ")
	n, err := strconv.ParseUint(num, 10, 32)
	if ok && err == nil {
		if t, ok := NewOpTag(uint32(n), typ); ok {
			return t, nil
		}
	}
	return 0, fmt.Errorf("operation %q is not a number and an operation type (\"3 UPDATE_STACK\")", s)
}

// MarshalText writes the tag as String does.
func (t OpTag) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads the tag as ParseOpTag does.
func (t *OpTag) UnmarshalText(b []byte) error {
	v, err := ParseOpTag(string(b))
	*t = v
	return err
}
