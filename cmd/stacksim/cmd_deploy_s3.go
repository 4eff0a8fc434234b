package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/stacksim/stacksim/internal/pkgexport"
)

// deploy --s3-bucket: as the AWS CLI's Deployer.create_changeset does,
// the template is uploaded (upload_with_dedup, HASH.template under
// --s3-prefix) and the change set made with its path-style TemplateURL
// instead of a TemplateBody. The AWS CLI requires it for a template over
// 51,200 bytes (DeployBucketRequiredError) and takes it for any.

type deployS3 struct {
	bucket, prefix, kmsKeyID string
	force                    bool
}

func (s *deployS3) flags(f *pflag.FlagSet) {
	f.StringVar(&s.bucket, "s3-bucket", "", "upload the template to this bucket of the local S3 directory (--s3-dir) and deploy it by TemplateURL; needed over 51,200 bytes")
	f.StringVar(&s.prefix, "s3-prefix", "", "a prefix of the template's key: PREFIX/HASH.template")
	f.BoolVar(&s.force, "force-upload", false, "upload the template even when an object of its key is there")
	f.StringVar(&s.kmsKeyID, "kms-key-id", "", "a KMS key to encrypt the template with (recorded with the object)")
}

// deployUploader is the uploader of deploy --s3-bucket, nil without it.
func (a *app) deployUploader(s deployS3) (*pkgexport.Uploader, error) {
	if s.bucket == "" {
		return nil, nil
	}
	if a.s3Dir == "" {
		return nil, badInput(fmt.Errorf("--s3-bucket %s: stacksim's S3 is a directory: give the global --s3-dir DIR (the bucket is the directory DIR/%s)", s.bucket, s.bucket))
	}
	if err := checkDir("--s3-dir", a.s3Dir); err != nil {
		return nil, badInput(err)
	}
	return a.uploader(s.bucket, s.prefix, s.kmsKeyID, s.force), nil
}

// uploadTemplate uploads a template as the AWS CLI does: the text it read
// (Python's universal newlines: CRLF and CR read as LF) written to a file
// and uploaded as HASH.template; it returns the object's path-style URL.
func uploadTemplate(u *pkgexport.Uploader, body string) (string, error) {
	text := strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
	s3url, err := u.UploadWithDedup([]byte(text), "template")
	if err != nil {
		return "", err
	}
	return u.PathStyleURL(strings.TrimPrefix(s3url, "s3://"+u.Bucket+"/")), nil
}
