// Package transforms runs the transforms of a template, as CloudFormation
// does before it reads the template: macros of the account (an
// AWS::CloudFormation::Macro whose function is a command, a URL or a Go
// function), AWS::Serverless-2016-10-31 (AWS's own SAM translator,
// aws-sam-translator, run as a Python subprocess, one long-lived worker
// per Translator when Persistent: SAM is never reimplemented here),
// AWS::Include (a snippet read from S3) and the order
// of AWS::LanguageExtensions among them.
//
// It owns the order CloudFormation applies them in (template-macros.html,
// "macro evaluation order": snippet-level Fn::Transform from the most
// deeply nested outward, the ones at one place in the order listed, then
// the Transform section's in the order listed; a macro's output is not
// processed again), the macro event and the checks of its answer, and
// AWS's words when one fails ("Transform 123456789012::Count failed
// with: ...", "No transform named ... found.").
//
// It must not know about stacks or the store: the account's macros, S3 and
// the parameter values reach it through Env. Its input and output are
// template trees (template.Node), whose member order it keeps.
package transforms
