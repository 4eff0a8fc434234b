package pkgexport

import "fmt"

// The AWS CLI's errors of package, in its words
// (awscli/customizations/cloudformation/exceptions.py and
// awscli/customizations/s3uploader.py).

// InvalidTemplatePathError: the template file does not exist.
type InvalidTemplatePathError struct{ Path string }

func (e *InvalidTemplatePathError) Error() string {
	return "Invalid template path " + e.Path
}

// ExportFailedError wraps what went wrong exporting one property.
type ExportFailedError struct {
	ResourceID, Property, Value string
	Err                         error
}

func (e *ExportFailedError) Error() string {
	return fmt.Sprintf("Unable to upload artifact %s referenced by %s parameter of %s resource.\n%v",
		e.Value, e.Property, e.ResourceID, e.Err)
}

func (e *ExportFailedError) Unwrap() error { return e.Err }

// InvalidLocalPathError: a property names a file or folder that is not
// there.
type InvalidLocalPathError struct{ ResourceID, Property, Path string }

func (e *InvalidLocalPathError) Error() string {
	return fmt.Sprintf("Parameter %s of resource %s refers to a file or folder that does not exist %s",
		e.Property, e.ResourceID, e.Path)
}

// InvalidTemplateURLError: a nested stack's TemplateURL is neither a URL
// nor a template file.
type InvalidTemplateURLError struct{ ResourceID, Property, Path string }

func (e *InvalidTemplateURLError) Error() string {
	return fmt.Sprintf("%s parameter of %s resource is invalid. It must be a S3 URL or path to CloudFormation template file. Actual: %s",
		e.Property, e.ResourceID, e.Path)
}

// InvalidForEachError: an Fn::ForEach resource entry is not a list of
// three.
type InvalidForEachError struct{ ResourceID string }

func (e *InvalidForEachError) Error() string {
	return fmt.Sprintf(`The value of %s has an invalid "Fn::ForEach::" format: Must be a list of three entries`, e.ResourceID)
}

// NoSuchBucketError: the bucket is not there. Dir is stacksim's S3
// directory, named in a hint after the AWS CLI's words.
type NoSuchBucketError struct{ Bucket, Dir string }

func (e *NoSuchBucketError) Error() string {
	return fmt.Sprintf("S3 Bucket does not exist. Execute the command to create a new bucket\naws s3 mb s3://%s\n"+
		"(stacksim's S3 is the directory --s3-dir %s: the bucket %s is its directory %s; create it with mkdir)",
		e.Bucket, e.Dir, e.Bucket, joinSlash(e.Dir, e.Bucket))
}
