// Package readfile reads what the user hands stacksim — templates,
// parameter and fault files, scenarios, schemas, golden logs, the state
// file, stdin through file:///dev/stdin — with a limit, and refuses what
// is larger with a *TooLargeError that says what the limit is and what to
// do. Every reader of a user's file goes through Read (or ReadFrom for a
// stream), so no input can make stacksim read until memory runs out:
// a regular file is refused by its size before a byte is read; anything
// else (a pipe, /dev/zero, a terminal) is read up to the limit and no
// further.
//
// Excerpt caps what an error message quotes of an input, so that a large
// input is never echoed back whole.
//
// The limits themselves belong to the packages that read each kind of
// file (template.MaxBodyBytes, faults.MaxFileBytes, scenario.MaxFileBytes,
// statefile.MaxFileBytes, ...); README.md lists them.
//
// It is a leaf: it imports nothing of this module and knows no file
// format.
package readfile
