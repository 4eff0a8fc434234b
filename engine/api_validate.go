package engine

import (
	"regexp"
	"slices"
	"strings"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/template"
)

// Checks of the calls that change stacks, in AWS's words, made before
// anything changes.

var (
	stackNamePattern = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9]*$`)
	// stackNameOrARN is the pattern AWS checks a StackName against, as its
	// message shows it ("Member must satisfy regular expression pattern:
	// [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*", recorded from AWS in
	// the CDK issue aws/aws-cdk#27791's log and in the error examples of
	// tongueroo's lono and forge, for DescribeStacks and CreateStack).
	stackNameOrARN = regexp.MustCompile(`^(?:[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*)$`)
)

const stackNameOrARNText = `[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*`

// maxStackNameLength: "It must start with an alphabetic character and
// can't be longer than 128 characters" (CloudFormation user guide).
const maxStackNameLength = 128

// checkStackName checks the StackName of a stack to create: AWS answers
// "1 validation error detected: Value 'NAME' at 'stackName' failed to
// satisfy constraint: Member must satisfy regular expression pattern:
// [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*" (see stackNameOrARN;
// hashicorp/terraform-provider-aws#42668, localstack/localstack#8027). An
// ARN passes the pattern: the caller decides what it names.
func checkStackName(name string) error {
	switch {
	case name == "":
		return requiredError("stackName")
	case len(name) > maxStackNameLength && !strings.HasPrefix(name, "arn:"):
		return ValidationError("1 validation error detected: Value '%s' at 'stackName' failed to satisfy constraint: Member must have length less than or equal to %d", readfile.Excerpt(name), maxStackNameLength)
	case !stackNameOrARN.MatchString(name):
		return ValidationError("1 validation error detected: Value '%s' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: %s", readfile.Excerpt(name), stackNameOrARNText)
	}
	return nil
}

// checkName checks a change set name (the model's ChangeSetName:
// [a-zA-Z][-a-zA-Z0-9]*, at most 128).
func checkName(name, field string) error {
	switch {
	case name == "":
		return requiredError(field)
	case len(name) > maxStackNameLength:
		return ValidationError("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must have length less than or equal to %d", readfile.Excerpt(name), field, maxStackNameLength)
	case !stackNamePattern.MatchString(name):
		return ValidationError("1 validation error detected: Value '%s' at '%s' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*", readfile.Excerpt(name), field)
	}
	return nil
}

// arnNamesNoLiveStack answers a create (CreateStack, a CREATE change set)
// whose StackName is an ARN: it cannot name a new stack. An ARN of a live
// stack goes on to the caller's "already exists" answer; any other ARN is
// refused here. UNVERIFIED wording: what AWS answers a create naming the
// ARN of no live stack is not in the recorded material searched (LocalStack
// snapshots of test_stacks and test_changesets, the API reference).
func arnNamesNoLiveStack(tx *txn, name string) error {
	if !strings.HasPrefix(name, "arn:") {
		return nil
	}
	if st := tx.FindStack(name); st != nil && st.Live() {
		return nil
	}
	return stackNotFound(name)
}

// checkTemplateBody checks the template part of a request: a body, or the
// stack's template (UsePreviousTemplate), not both.
func checkTemplateBody(body string, usePrevious bool, file string) error {
	switch {
	case body == "" && !usePrevious:
		// AWS's answer to a CreateStack or UpdateStack without a template.
		return ValidationError("Either Template URL or Template Body must be specified.")
	case body != "" && usePrevious:
		// UNVERIFIED wording.
		return ValidationError("You cannot specify both a template body and UsePreviousTemplate.")
	case body != "":
		if err := template.CheckBodySize(templateFile(file), []byte(body)); err != nil {
			return templateError(err)
		}
	}
	return nil
}

func templateFile(f string) string {
	if f == "" {
		return "template"
	}
	return f
}

// knownCapabilities are the values Capabilities takes.
var knownCapabilities = []string{template.CapabilityIAM, template.CapabilityNamedIAM, template.CapabilityAutoExpand}

// checkCapabilities says whether the capabilities given acknowledge what
// the template needs: "Requires capabilities : [CAPABILITY_IAM]"
// (InsufficientCapabilitiesException). CAPABILITY_NAMED_IAM covers
// CAPABILITY_IAM.
func checkCapabilities(need template.Requirement, given []string) error {
	for _, c := range given {
		if !slices.Contains(knownCapabilities, c) {
			return enumError(c, "capabilities", knownCapabilities)
		}
	}
	var missing []string
	for _, c := range need.Capabilities {
		if slices.Contains(given, c) || (c == template.CapabilityIAM && slices.Contains(given, template.CapabilityNamedIAM)) {
			continue
		}
		missing = append(missing, c)
	}
	if len(missing) > 0 {
		return InsufficientCapabilitiesError(missing)
	}
	return nil
}

// paramValues turns a call's parameters into binding input.
func paramValues(ps []Parameter) []template.ParameterValue {
	out := make([]template.ParameterValue, len(ps))
	for i, p := range ps {
		out[i] = template.ParameterValue{Key: p.ParameterKey, Value: p.ParameterValue, UsePreviousValue: p.UsePreviousValue}
	}
	return out
}

// planError turns a planner's refusal into the API's.
func planError(err error) error {
	switch err.(type) {
	case *plan.CycleError, *plan.TypeChangeError, *plan.SkipError:
		return ValidationError("%s", err.Error())
	}
	return templateError(err)
}

// checkRoleARN checks a call's RoleARN against the API's length
// constraints (20 to 2,048 characters; "" when none is given).
func checkRoleARN(role string) error {
	switch {
	case role == "":
		return nil
	case len(role) < 20:
		return ValidationError("1 validation error detected: Value '%s' at 'roleARN' failed to satisfy constraint: Member must have length greater than or equal to 20", role)
	case len(role) > 2048:
		return ValidationError("1 validation error detected: Value '%s' at 'roleARN' failed to satisfy constraint: Member must have length less than or equal to 2048", readfile.Excerpt(role))
	}
	return nil
}

// maxNotificationARNs is how many topics a stack may notify (the API's
// NotificationARNs, a list of at most 5).
const maxNotificationARNs = 5

// checkNotificationARNs checks a call's NotificationARNs against the API's
// constraint.
func checkNotificationARNs(arns []string) error {
	if len(arns) > maxNotificationARNs {
		return ValidationError("1 validation error detected: Value at 'notificationARNs' failed to satisfy constraint: Member must have length less than or equal to %d", maxNotificationARNs)
	}
	return nil
}

// sameTags tells whether two tag lists are the same.
func sameTags(a, b []Tag) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkOnFailure checks CreateStack's OnFailure and DisableRollback.
func checkOnFailure(onFailure string, disableRollback bool) error {
	switch onFailure {
	case "", OnFailureRollback, OnFailureDoNothing, OnFailureDelete:
	default:
		return enumError(onFailure, "onFailure", []string{OnFailureDoNothing, OnFailureRollback, OnFailureDelete})
	}
	if disableRollback && onFailure != "" {
		// AWS's answer when both are given.
		return ValidationError("You can specify either DisableRollback or OnFailure, but not both.")
	}
	return nil
}

// bracketed renders names as AWS lists them in messages: [A, B].
func bracketed(names []string) string { return "[" + strings.Join(names, ", ") + "]" }
