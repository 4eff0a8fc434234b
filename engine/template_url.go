package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

// Templates from URLs: TemplateURL (CreateStack, UpdateStack,
// CreateChangeSet, ValidateTemplate) and the Location of AWS::Include.
// S3 is a directory (Options.S3Dir): the object KEY of bucket BUCKET is
// the file DIR/BUCKET/KEY. The URLs CloudFormation takes for an object:
//
//	https://BUCKET.s3.amazonaws.com/KEY
//	https://BUCKET.s3.REGION.amazonaws.com/KEY   (and BUCKET.s3-REGION.amazonaws.com)
//	https://s3.REGION.amazonaws.com/BUCKET/KEY   (and s3-REGION.amazonaws.com)
//	https://s3.amazonaws.com/BUCKET/KEY
//
// AWS::Include also takes s3://BUCKET/KEY; TemplateURL does not ("The
// location for an Amazon S3 bucket must start with https://"). stacksim
// adds file://PATH, a file of the machine, to both.

// Errors of a TemplateURL, in AWS's words.
const (
	msgTemplateURLUnsupported = "TemplateURL must be a supported URL."
	msgTemplateURLNoObject    = "TemplateURL must reference a valid S3 object to which you have access."
)

// S3Object is an object of S3 named by a URL.
type S3Object struct{ Bucket, Key string }

var (
	virtualHost = regexp.MustCompile(`^([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\.s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com(?:\.cn)?$`)
	pathHost    = regexp.MustCompile(`^s3(?:[.-]([a-z0-9-]+))?\.amazonaws\.com(?:\.cn)?$`)
)

// ParseS3URL reads an S3 URL of one of the forms above; s3 allows
// s3://BUCKET/KEY. ok is false when the URL is not one.
func ParseS3URL(raw string, s3 bool) (S3Object, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Port() != "" {
		return S3Object{}, false
	}
	key := strings.TrimPrefix(u.EscapedPath(), "/")
	unescaped, err := url.PathUnescape(key)
	if err != nil {
		return S3Object{}, false
	}
	key = unescaped
	host := strings.ToLower(u.Host)
	var o S3Object
	switch {
	case u.Scheme == "s3" && s3:
		o = S3Object{Bucket: u.Host, Key: key}
	case u.Scheme != "https" && u.Scheme != "http":
		return S3Object{}, false
	case virtualHost.MatchString(host) && !strings.HasPrefix(host, "s3.") && !strings.HasPrefix(host, "s3-"):
		o = S3Object{Bucket: virtualHost.FindStringSubmatch(host)[1], Key: key}
	case pathHost.MatchString(host):
		bucket, rest, _ := strings.Cut(key, "/")
		o = S3Object{Bucket: bucket, Key: rest}
	default:
		return S3Object{}, false
	}
	if o.Bucket == "" || o.Key == "" || strings.HasSuffix(o.Key, "/") {
		return S3Object{}, false
	}
	return o, true
}

// s3File is where an object is under dir, refusing keys that climb out of
// the bucket's directory.
func s3File(dir string, o S3Object) (string, bool) {
	p := filepath.Join(dir, o.Bucket, filepath.FromSlash(o.Key))
	rel, err := filepath.Rel(filepath.Join(dir, o.Bucket), p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return p, true
}

// urlTemplateLimit is the 1 MB CloudFormation reads of a template by URL;
// the error is AWS's (sizeCheck).
var urlTemplateLimit = readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template by URL"}

// readLimited reads a template file of at most max bytes (through
// internal/readfile, as every user file is read); a larger one is AWS's
// "Template may not exceed 1000000 bytes in size.".
func readLimited(path string, max int64) ([]byte, error) {
	lim := urlTemplateLimit
	lim.Max = max
	b, err := readfile.Read(path, lim)
	var tl *readfile.TooLargeError
	if errors.As(err, &tl) {
		return nil, sizeError(path)
	}
	return b, err
}

// readTemplateURL is ReadTemplateURL with the engine's S3 directory, and
// its S3 endpoints (Options.S3Endpoints) taken for S3.
func (e *Engine) readTemplateURL(raw string) (string, []byte, error) {
	return ReadTemplateURL(e.ownS3URL(raw), e.opts.S3Dir)
}

// ownS3URL turns a path-style URL of one of Options.S3Endpoints
// (ORIGIN/BUCKET/KEY: stacksim serve's own address, which CDK writes when
// AWS_ENDPOINT_URL points at it) into the S3 URL it stands for; any other
// URL is returned as it is.
func (e *Engine) ownS3URL(raw string) string {
	for _, origin := range e.opts.S3Endpoints {
		if rest, ok := strings.CutPrefix(raw, strings.TrimSuffix(origin, "/")+"/"); ok && rest != "" {
			return "https://s3.amazonaws.com/" + rest
		}
	}
	return raw
}

// ReadTemplateURL reads the template a TemplateURL names: file://PATH, or
// an S3 URL (https forms only) from s3Dir. It returns the name template
// errors carry and the body; a refusal is an *APIError in AWS's words.
func ReadTemplateURL(raw, s3Dir string) (name string, body []byte, err error) {
	if path, ok := strings.CutPrefix(raw, "file://"); ok {
		b, err := readLimited(path, template.MaxURLBodyBytes)
		var api *APIError
		if errors.As(err, &api) {
			return "", nil, err // over 1 MB
		}
		if err != nil {
			return "", nil, &APIError{Code: CodeValidationError, Message: msgTemplateURLNoObject,
				cause: fmt.Errorf("reading %s: %w", path, err)}
		}
		return path, b, sizeCheck(path, b)
	}
	o, ok := ParseS3URL(raw, false)
	if !ok {
		hint := "write https://BUCKET.s3.amazonaws.com/KEY (with --s3-dir DIR, the file DIR/BUCKET/KEY) or file://PATH"
		if strings.HasPrefix(raw, "s3://") {
			hint = "TemplateURL takes an https:// URL of the object: " + hint
		}
		return "", nil, &APIError{Code: CodeValidationError, Message: msgTemplateURLUnsupported, cause: errors.New(hint)}
	}
	path, b, err := readS3(s3Dir, o)
	var api *APIError
	if errors.As(err, &api) {
		return "", nil, err // over 1 MB
	}
	if err != nil {
		return "", nil, &APIError{Code: CodeValidationError, Message: msgTemplateURLNoObject, cause: err}
	}
	return path, b, sizeCheck(path, b)
}

// readS3 reads an object from s3Dir.
func readS3(s3Dir string, o S3Object) (string, []byte, error) {
	if s3Dir == "" {
		return "", nil, fmt.Errorf("s3://%s/%s: stacksim reads S3 objects from a directory: give --s3-dir DIR, with the object at DIR/%s/%s", o.Bucket, o.Key, o.Bucket, o.Key)
	}
	path, ok := s3File(s3Dir, o)
	if !ok {
		return "", nil, fmt.Errorf("s3://%s/%s: the key leaves the bucket", o.Bucket, o.Key)
	}
	b, err := readLimited(path, template.MaxURLBodyBytes)
	var api *APIError
	if errors.As(err, &api) {
		return "", nil, err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, fmt.Errorf("s3://%s/%s is read from %s, which does not exist", o.Bucket, o.Key, path)
	}
	if err != nil {
		return "", nil, fmt.Errorf("s3://%s/%s is read from %s: %w", o.Bucket, o.Key, path, err)
	}
	return path, b, nil
}

// sizeCheck refuses a body over the 1 MB a template from S3 may hold.
func sizeCheck(name string, b []byte) error {
	if len(b) > template.MaxURLBodyBytes {
		return sizeError(name)
	}
	return nil
}

// sizeError is AWS's refusal of a template over 1 MB.
func sizeError(name string) error {
	return templateError(&template.Error{File: name, Line: 1, Col: 1,
		Message: fmt.Sprintf("Template may not exceed %d bytes in size.", template.MaxURLBodyBytes)})
}

// templateSource resolves a call's template: TemplateBody, TemplateURL or
// (for updates) the stack's own; exactly one. It returns the body and the
// name errors carry.
func (e *Engine) templateSource(body, templateURL, file string, usePrevious bool) (string, string, error) {
	switch {
	case body != "" && templateURL != "":
		// UNVERIFIED wording.
		return "", "", ValidationError("You cannot specify both a template body and a template URL.")
	case templateURL != "" && usePrevious:
		// UNVERIFIED wording.
		return "", "", ValidationError("You cannot specify both a template URL and UsePreviousTemplate.")
	case templateURL != "":
		name, b, err := e.readTemplateURL(templateURL)
		if err != nil {
			return "", "", err
		}
		if file == "" {
			file = name
		}
		if len(b) == 0 {
			return "", "", ValidationError("Template format error: At least one Resources member must be defined.")
		}
		return string(b), file, nil
	}
	if err := checkTemplateBody(body, usePrevious, file); err != nil {
		return "", "", err
	}
	return body, file, nil
}
