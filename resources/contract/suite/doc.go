// Package suite runs the contract test suite of `cfn test` (the
// CloudFormation CLI's src/rpdk/core/contract/suite) against any
// resources.Provider, offline and deterministically: the same tests, in
// the same order, with the same fixtures (a created, a deleted and an
// updated resource shared by the tests of each group), the same inputs (a
// resource-type project's inputs/inputs_N_{create,update,invalid}.json,
// or inputs generated from the schema), and stacksim's contract checker
// on, so that every violation of the handler contract fails the test in
// which it happened, with its rule ID.
//
// Callbacks are delivered at once: their delays are counted as virtual
// time, checked against the schema's handler timeouts and reported with
// each test, beside the real time spent in the handler.
//
// It must not know about stacks, the engine or the command line.
package suite
