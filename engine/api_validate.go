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

var stackNamePattern = regexp.MustCompile(`^[a-zA-Z][-a-zA-Z0-9]*$`)

// maxStackNameLength: "It must start with an alphabetic character and
// can't be longer than 128 characters" (CloudFormation user guide).
const maxStackNameLength = 128

// checkStackName checks the name of a stack to create: AWS answers
// "1 validation error detected: Value 'NAME' at 'stackName' failed to
// satisfy constraint: Member must satisfy regular expression pattern:
// [a-zA-Z][-a-zA-Z0-9]*" (hashicorp/terraform-provider-aws#42668,
// localstack/localstack#8027).
func checkStackName(name string) error {
	return checkName(name, "stackName")
}

// checkName checks a stack or change set name.
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
