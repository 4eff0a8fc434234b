// Package pkgexport does what `aws cloudformation package` does to a
// template: the local artefacts its resources name (a Lambda function's
// Code, a SAM function's CodeUri, a nested stack's TemplateURL, the
// Location of AWS::Include, and the other properties of the AWS CLI's
// artifact_exporter.py) are zipped or copied into S3 under the MD5 of
// their content, and the template is rewritten to name the S3 objects,
// in the forms the AWS CLI writes (an S3Bucket/S3Key map, an s3:// URI,
// a path-style https URL).
//
// S3 is a directory, as everywhere in stacksim: the object KEY of bucket
// BUCKET is the file DIR/BUCKET/KEY. The rewritten template is written as
// the AWS CLI (v1) writes it: PyYAML's block style (pyyaml.go) or
// Python's json.dumps with an indent of four (pyjson.go).
//
// It owns the export rules, the uploader and the two writers. It knows
// nothing of stacks, the engine or the command line: it reads a template
// with template.ParseTree and writes files.
package pkgexport
