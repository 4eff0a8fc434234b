// Package nearest finds the known name closest to a misspelt one, for the
// "did you mean" of a refusal (a fault file's key, a settings file's).
//
// It is a leaf: it knows no file format of stacksim's.
package nearest
