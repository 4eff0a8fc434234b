package plan

import "strings"

// CycleError says resources depend on each other in a circle. Each cycle
// lists its resources in template order.
type CycleError struct {
	Cycles [][]string
}

func (e *CycleError) Error() string {
	parts := make([]string, len(e.Cycles))
	for i, c := range e.Cycles {
		parts[i] = "Circular dependency between resources: [" + strings.Join(c, ", ") + "]"
	}
	return strings.Join(parts, "; ")
}

// TypeChangeError says an update changes the type of resources, which
// CloudFormation refuses (a ValidationError of UpdateStack).
type TypeChangeError struct {
	LogicalIDs []string
}

func (e *TypeChangeError) Error() string {
	return "Update of resource type is not permitted. The new template modifies resource type of the following resources: [" +
		strings.Join(e.LogicalIDs, ", ") + "]"
}

// SkipError says ContinueRollback was asked to skip resources that have no
// rollback action left to skip. The engine, which checks ResourcesToSkip
// against the stack first, reports it as a ValidationError.
type SkipError struct {
	LogicalIDs []string
}

func (e *SkipError) Error() string {
	return "ResourcesToSkip: [" + strings.Join(e.LogicalIDs, ", ") +
		"] cannot be skipped: no rollback action of theirs is left to skip. Skip only resources whose rollback failed."
}
