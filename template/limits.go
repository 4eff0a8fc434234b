package template

import "fmt"

// CloudFormation's template quotas (cloudformation-limits.html).
const (
	// MaxBodyBytes is the largest body --template-body (TemplateBody) takes.
	MaxBodyBytes = 51200
	// MaxURLBodyBytes is the largest template CloudFormation reads from S3
	// (TemplateURL); Parse refuses anything larger.
	MaxURLBodyBytes = 1000000
	MaxResources    = 500
	MaxParameters   = 200
	MaxOutputs      = 200
	MaxMappings     = 200
	// MaxMappingAttributes is the number of attributes in one mapping.
	MaxMappingAttributes = 200
	// MaxNameLength bounds logical IDs and the names of parameters,
	// mappings and outputs.
	MaxNameLength = 255
	// MaxDescriptionBytes bounds the template's Description.
	MaxDescriptionBytes = 1024
	// MaxParameterValueBytes bounds a parameter value.
	MaxParameterValueBytes = 4096
)

// CheckBodySize returns the error AWS gives when a TemplateBody is larger
// than MaxBodyBytes; callers of the TemplateBody form (the CLI's
// --template-body) check it before Parse.
func CheckBodySize(file string, body []byte) error {
	if len(body) <= MaxBodyBytes {
		return nil
	}
	return BodySizeError(file, int64(len(body)))
}

// BodySizeError is CheckBodySize's error for a body of size bytes, for a
// reader that refused the file unread (size -1: not known, more than
// MaxBodyBytes).
func BodySizeError(file string, size int64) error {
	body := fmt.Sprintf("the body is %d bytes", size)
	if size < 0 {
		body = fmt.Sprintf("the body is more than %d bytes", MaxBodyBytes)
	}
	return &Error{
		File: file, Line: 1, Col: 1,
		Message: fmt.Sprintf("1 validation error detected: Value at 'templateBody' failed to satisfy constraint: "+
			"Member must have length less than or equal to %d", MaxBodyBytes),
		Detail: fmt.Sprintf("%s; a larger template, up to %d bytes, is given by URL: "+
			"--template-url file://PATH, or --template-url https://BUCKET.s3.amazonaws.com/KEY with --s3-dir DIR holding DIR/BUCKET/KEY", body, MaxURLBodyBytes),
	}
}
