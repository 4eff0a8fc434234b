// Package javapattern runs the regular expressions CloudFormation reads as
// Java's (java.util.regex): the patterns of registry schemas, which its
// validator (everit) searches for, and a template parameter's
// AllowedPattern, which a value must match whole.
//
// Most are also Go (RE2) expressions and run on regexp, in linear time.
// About one registry pattern in eleven, and many AllowedPatterns, are not:
// lookarounds ("^(?!aws:)", "(?=^.{3,63}$)..."), \uXXXX escapes, \A and
// \Z, repetition counts above 1,000, Java's POSIX classes (\p{Graph},
// \p{Print}). Those run on github.com/dlclark/regexp2, a backtracking
// engine with .NET's syntax, which Java's shares but for the POSIX
// classes and a few escapes (Compile rewrites them). A match that exceeds
// regexp2's backtracking stack (a count, not a time: deterministic) is
// taken as matching, the answer of a check that cannot say.
//
// GoForm is a Go expression close to one Go refuses, for generators that
// walk Go's syntax tree (resources' values, the corpus's parameters):
// what they make from it is checked against the pattern itself.
//
// It is a leaf: it knows the two engines and nothing of schemas or
// templates.
package javapattern
