// Package stackpolicy reads CloudFormation stack policies and decides, for
// one update action on one resource, whether a policy allows it — as
// AWS documents it (AWS CloudFormation User Guide, "Prevent updates to
// stack resources", protect-stack-resources.html):
//
//   - A policy is a JSON object whose Statement is a list of statements (or
//     one). Each has an Effect (Allow or Deny), an Action or a NotAction
//     (Update:Modify, Update:Replace, Update:Delete, or a pattern of them:
//     Update:*), a Principal that must be "*", a Resource or a NotResource
//     ("*" or LogicalResourceId/NAME, NAME a pattern), and optionally a
//     Condition: StringEquals or StringLike on the key ResourceType (one
//     value or a list). Patterns take * (any run) and ? (any one
//     character).
//   - Once a stack has a policy, every update action is denied unless a
//     statement allows it; a statement that denies it wins over any that
//     allows it. A policy without statements ({}) protects nothing: with
//     {} set, AWS lets an update through (LocalStack's AWS-validated
//     test_update_with_empty_policy).
//   - Anything else is refused with AWS's "Error validating stack policy:
//     Invalid stack policy" (LocalStack's AWS-recorded
//     tests/aws/services/cloudformation/api/test_stack_policies.snapshot.json:
//     a body that is not JSON, a Principal other than "*", an Action
//     Delete:*): InvalidMessage; the *Error says what stacksim found wrong.
//
// A denial's reason is worded as AWS words it: "Action denied by stack
// policy: Statement [#1] does not allow [Update:*] for resource [*];"
// (statements numbered from 1, the statement's own Action and Resource
// lists; recorded from AWS in the awscfncli README, 2017, and a 2025 AWS CLI
// transcript with [Update:Replace] ... [LogicalResourceId/VPC]). An action
// no statement allows is "Action not allowed by stack policy: ..."
// (LocalStack's test_stack_policies.py matches that prefix; the rest of
// that reason is stacksim's, UNVERIFIED).
//
// The package knows no stacks, templates or engine: the engine asks it
// which update actions of a plan are allowed.
package stackpolicy
