package pkgexport

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Uploader stores artefacts in the local S3 directory as the AWS CLI's
// S3Uploader stores them in S3 (awscli/customizations/s3uploader.py):
// under the MD5 of their bytes (upload_with_dedup), after PREFIX/ when a
// prefix is given, skipped when an object of that key is there already
// (head_object) unless Force, with a progress line on Progress for each
// object written.
type Uploader struct {
	Dir      string // the local S3 directory: object KEY of BUCKET is Dir/BUCKET/KEY
	Bucket   string
	Prefix   string
	KMSKeyID string            // recorded with the object (ServerSideEncryption aws:kms)
	Metadata map[string]string // recorded with the object
	Force    bool
	Endpoint string    // the S3 endpoint of path-style URLs: https://s3.amazonaws.com
	Progress io.Writer // where "Uploading to ..." goes (the AWS CLI's stderr); nil for none
}

// Endpoint is the endpoint botocore gives the S3 client of a region, the
// base of the path-style URLs package writes (to_path_style_s3_url):
// https://s3.amazonaws.com for us-east-1 (botocore's global endpoint),
// https://s3.REGION.amazonaws.com elsewhere (.com.cn in China). Checked
// with boto3 1.x: boto3.client('s3', region_name=R).meta.endpoint_url.
func Endpoint(region string) string {
	switch {
	case region == "" || region == "us-east-1":
		return "https://s3.amazonaws.com"
	case strings.HasPrefix(region, "cn-"):
		return "https://s3." + region + ".amazonaws.com.cn"
	}
	return "https://s3." + region + ".amazonaws.com"
}

// UploadWithDedup stores data under its MD5 (hex), with ".ext" when ext
// is given, and returns the object's s3://BUCKET/KEY URL.
func (u *Uploader) UploadWithDedup(data []byte, ext string) (string, error) {
	sum := md5.Sum(data)
	key := hex.EncodeToString(sum[:])
	if ext != "" {
		key += "." + ext
	}
	return u.upload(data, key)
}

// PathStyleURL is the https URL of an object of the bucket, as
// to_path_style_s3_url writes it: ENDPOINT/BUCKET/KEY.
func (u *Uploader) PathStyleURL(key string) string {
	return u.Endpoint + "/" + u.Bucket + "/" + key
}

// bucketName is botocore's check of a bucket's name
// (^[a-zA-Z0-9.\-_]{1,255}$), with S3's rule that it starts with a letter
// or a digit: no "." or "..", which would leave the S3 directory, and no
// ".metadata", where stacksim keeps the objects' records.
var bucketName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9.\-_]{0,254}$`) })

func (u *Uploader) upload(data []byte, key string) (string, error) {
	if u.Prefix != "" {
		key = u.Prefix + "/" + key
	}
	url := "s3://" + u.Bucket + "/" + key
	if !bucketName().MatchString(u.Bucket) {
		return "", fmt.Errorf("Parameter validation failed:\nInvalid bucket name %q: a bucket's name is letters, digits, '.', '-' and '_' (botocore's check), starting with a letter or a digit (S3's)", u.Bucket)
	}
	bucketDir := filepath.Join(u.Dir, u.Bucket)
	if st, err := os.Stat(bucketDir); err != nil || !st.IsDir() {
		return "", &NoSuchBucketError{Bucket: u.Bucket, Dir: u.Dir}
	}
	path := filepath.Join(bucketDir, filepath.FromSlash(key))
	if rel, err := filepath.Rel(bucketDir, path); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("s3://%s/%s: the key leaves the bucket; give an --s3-prefix without ..", u.Bucket, key)
	}
	if !u.Force {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return url, nil // "File with same data already exists"
		}
	}
	if err := writeAtomically(path, data); err != nil {
		return "", fmt.Errorf("writing s3://%s/%s to %s: %w", u.Bucket, key, path, err)
	}
	if err := u.record(key, data); err != nil {
		return "", err
	}
	// ProgressPercentage: "\rUploading to KEY  SEEN / SIZE  (PCT%)" with
	// SIZE a Python float. stacksim writes the object at once: one line,
	// at 100%. UNVERIFIED: what the AWS CLI prints for an empty file (it
	// divides by the size); stacksim prints nothing.
	if u.Progress != nil && len(data) > 0 {
		fmt.Fprintf(u.Progress, "\rUploading to %s  %d / %d.0  (100.00%%)", key, len(data), len(data))
	}
	return url, nil
}

// objectRecord is what S3 would keep of an upload besides its bytes: the
// put_object arguments the AWS CLI passes (ServerSideEncryption AES256,
// or aws:kms with SSEKMSKeyId; Metadata) and the ETag (the MD5 of a
// one-part upload). stacksim keeps it beside the buckets, in
// DIR/.metadata/BUCKET/KEY.json (a bucket's name cannot start with a dot).
type objectRecord struct {
	ETag                 string            `json:"ETag"`
	ContentLength        int               `json:"ContentLength"`
	ServerSideEncryption string            `json:"ServerSideEncryption"`
	SSEKMSKeyID          string            `json:"SSEKMSKeyId,omitempty"`
	Metadata             map[string]string `json:"Metadata,omitempty"`
}

// MetadataPath is where the record of an object is kept.
func MetadataPath(dir, bucket, key string) string {
	return filepath.Join(dir, ".metadata", bucket, filepath.FromSlash(key)+".json")
}

func (u *Uploader) record(key string, data []byte) error {
	sum := md5.Sum(data)
	r := objectRecord{ETag: `"` + hex.EncodeToString(sum[:]) + `"`, ContentLength: len(data),
		ServerSideEncryption: "AES256", Metadata: u.Metadata}
	if u.KMSKeyID != "" {
		r.ServerSideEncryption, r.SSEKMSKeyID = "aws:kms", u.KMSKeyID
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	path := MetadataPath(u.Dir, u.Bucket, key)
	if err := writeAtomically(path, append(b, '\n')); err != nil {
		return fmt.Errorf("recording the metadata of s3://%s/%s in %s: %w", u.Bucket, key, path, err)
	}
	return nil
}

// writeAtomically writes a file through a temporary file and a rename, so
// that a reader never sees half an object.
func writeAtomically(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".upload-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		_ = os.Remove(f.Name())
		return err
	}
	return nil
}

func joinSlash(dir, name string) string {
	if dir == "" {
		return name
	}
	return strings.TrimSuffix(dir, "/") + "/" + name
}
