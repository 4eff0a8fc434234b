package api

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// S3 on the same port, as much as a client needs to stage templates: the
// objects of bucket B are the files DIR/B/KEY of the directory that stands
// for S3 (--s3-dir), the same files TemplateURL, AWS::Include and
// `stacksim package` read and write. A bucket exists when the account has
// it (an AWS::S3::Bucket a stack made: CDK's staging bucket, which `cdk
// bootstrap` makes) or when DIR/B is a directory. Requests are path-style
// (/BUCKET/KEY: what the SDKs send to an endpoint that is an IP address),
// told apart by their SigV4 scope (…/s3/aws4_request).
//
// Served: CreateBucket, DeleteBucket and ListBuckets (s3_buckets.go),
// GetBucketLocation, HeadBucket, GetBucketEncryption,
// GetBucketVersioning, ListObjectsV2 (and the older ListObjects),
// PutObject (aws-chunked bodies included), GetObject, HeadObject,
// DeleteObject, and multipart uploads (s3_multipart.go). Anything else
// answers NotImplemented.

const (
	s3Service   = "s3"
	s3Namespace = "http://s3.amazonaws.com/doc/2006-03-01/"
	// s3MaxKeys is a list's page size at most (S3's).
	s3MaxKeys = 1000
	// s3MaxBodyBytes caps the body of one PutObject or UploadPart (held in
	// memory): CDK uploads an asset over 5 MB in parts.
	s3MaxBodyBytes = 512 << 20
	// s3TimeLayout is S3's timestamps in XML (LastModified, CreationDate).
	s3TimeLayout = "2006-01-02T15:04:05.000Z"
	// uploadsDir is where the parts of multipart uploads wait, under the S3
	// directory: no bucket's name starts with a dot.
	uploadsDir = ".stacksim-uploads"
)

// s3Error is an S3 error answer.
type s3Error struct {
	status  int
	code    string
	message string
	// bucket or key the error is about, when there is one.
	bucket, key string
}

func (s *Server) writeS3Error(w http.ResponseWriter, r *http.Request, e *s3Error, id string) int {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString("<Error><Code>")
	_ = xml.EscapeText(&b, []byte(e.code))
	b.WriteString("</Code><Message>")
	_ = xml.EscapeText(&b, []byte(e.message))
	b.WriteString("</Message>")
	if e.bucket != "" {
		b.WriteString("<BucketName>")
		_ = xml.EscapeText(&b, []byte(e.bucket))
		b.WriteString("</BucketName>")
	}
	if e.key != "" {
		b.WriteString("<Key>")
		_ = xml.EscapeText(&b, []byte(e.key))
		b.WriteString("</Key>")
	}
	b.WriteString("<RequestId>" + id + "</RequestId></Error>")
	h := w.Header()
	h.Set("x-amz-request-id", id)
	if r.Method == http.MethodHead {
		w.WriteHeader(e.status) // a HEAD answer has no body
		return e.status
	}
	h.Set("Content-Type", "application/xml")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(e.status)
	_, _ = w.Write(b.Bytes())
	return e.status
}

func (s *Server) writeS3XML(w http.ResponseWriter, status int, v any, id string) int {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	if err := xml.NewEncoder(&b).Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
	}
	h := w.Header()
	h.Set("Content-Type", "application/xml")
	h.Set("x-amz-request-id", id)
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
	return status
}

// bucketName is S3's rule for a bucket's name.
var bucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)

// serveS3 answers an S3 request.
func (s *Server) serveS3(w http.ResponseWriter, r *http.Request, id string) (string, int) {
	bucket, key, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	op := s3Operation(r, bucket, key)
	fail := func(e *s3Error) (string, int) { return op, s.writeS3Error(w, r, e, id) }
	dir := s.e.S3Dir()
	if dir == "" {
		return fail(&s3Error{status: http.StatusNotImplemented, code: "NotImplemented",
			message: "stacksim serve has no S3: start it with --s3-dir DIR (the objects of bucket B are then the files DIR/B/KEY)"})
	}
	if bucket == "" {
		if r.Method == http.MethodGet {
			return "ListBuckets", s.listBuckets(w, r, dir, id)
		}
		return fail(&s3Error{status: http.StatusNotImplemented, code: "NotImplemented",
			message: "stacksim serves buckets and their objects (path-style requests, /BUCKET/KEY) and ListBuckets (GET /), not " + r.Method + " /"})
	}
	if !bucketName.MatchString(bucket) {
		return fail(&s3Error{status: http.StatusBadRequest, code: "InvalidBucketName", message: "The specified bucket is not valid.", bucket: bucket})
	}
	if key == "" && op == "CreateBucket" {
		return op, s.createBucket(w, r, dir, bucket, id)
	}
	exists, err := s.bucketExists(r, dir, bucket)
	if err != nil {
		return fail(&s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()})
	}
	if !exists {
		return fail(&s3Error{status: http.StatusNotFound, code: "NoSuchBucket", message: "The specified bucket does not exist", bucket: bucket})
	}
	bdir := filepath.Join(dir, bucket)
	if key != "" {
		file, ok := objectPath(bdir, key)
		if !ok {
			return fail(&s3Error{status: http.StatusBadRequest, code: "InvalidArgument",
				message: "stacksim keeps an object as a file under its bucket's directory: a key with an empty, . or .. segment has no such file", key: key})
		}
		return op, s.serveObject(w, r, op, bucket, key, file, id)
	}
	switch op {
	case "HeadBucket":
		w.Header().Set("x-amz-request-id", id)
		w.Header().Set("x-amz-bucket-region", s.e.Region())
		w.WriteHeader(http.StatusOK)
		return op, http.StatusOK
	case "GetBucketLocation":
		loc := s.e.Region()
		if loc == "us-east-1" {
			loc = "" // S3's answer for us-east-1
		}
		return op, s.writeS3XML(w, http.StatusOK, struct {
			XMLName xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ LocationConstraint"`
			Value   string   `xml:",chardata"`
		}{Value: loc}, id)
	case "GetBucketEncryption":
		// S3 encrypts every new object with SSE-S3 by default (since 2023).
		type rule struct {
			Algorithm string `xml:"ApplyServerSideEncryptionByDefault>SSEAlgorithm"`
		}
		return op, s.writeS3XML(w, http.StatusOK, struct {
			XMLName xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ServerSideEncryptionConfiguration"`
			Rule    rule     `xml:"Rule"`
		}{Rule: rule{Algorithm: "AES256"}}, id)
	case "GetBucketVersioning":
		return op, s.writeS3XML(w, http.StatusOK, struct {
			XMLName xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ VersioningConfiguration"`
		}{}, id)
	case "ListObjectsV2", "ListObjects":
		return op, s.listObjects(w, r, op, bucket, bdir, id)
	case "DeleteBucket":
		return op, s.deleteBucket(w, r, dir, bucket, id)
	}
	return fail(&s3Error{status: http.StatusNotImplemented, code: "NotImplemented",
		message: fmt.Sprintf("stacksim serves the buckets and objects of its S3 directory (CreateBucket, DeleteBucket, ListBuckets, PutObject, GetObject, HeadObject, DeleteObject, ListObjectsV2, GetBucketLocation, HeadBucket), not %s", op)})
}

// s3Operation names a request as S3's API does.
func s3Operation(r *http.Request, bucket, key string) string {
	q := r.URL.Query()
	if key != "" {
		switch r.Method {
		case http.MethodPut:
			if r.Header.Get("x-amz-copy-source") != "" {
				return "CopyObject"
			}
			if q.Has("uploadId") || q.Has("partNumber") {
				return "UploadPart"
			}
			return "PutObject"
		case http.MethodGet:
			return "GetObject"
		case http.MethodHead:
			return "HeadObject"
		case http.MethodDelete:
			if q.Has("uploadId") {
				return "AbortMultipartUpload"
			}
			return "DeleteObject"
		case http.MethodPost:
			if q.Has("uploadId") {
				return "CompleteMultipartUpload"
			}
			return "CreateMultipartUpload"
		}
		return r.Method + " object"
	}
	for _, sub := range []string{"location", "encryption", "versioning", "policy", "acl", "tagging", "cors", "lifecycle", "uploads"} {
		if q.Has(sub) && r.Method == http.MethodGet {
			switch sub {
			case "location":
				return "GetBucketLocation"
			case "encryption":
				return "GetBucketEncryption"
			case "versioning":
				return "GetBucketVersioning"
			}
			return "GetBucket" + strings.ToUpper(sub[:1]) + sub[1:]
		}
		if q.Has(sub) && (r.Method == http.MethodPut || r.Method == http.MethodDelete) {
			verb := "PutBucket"
			if r.Method == http.MethodDelete {
				verb = "DeleteBucket"
			}
			return verb + strings.ToUpper(sub[:1]) + sub[1:] // PutBucketPolicy, DeleteBucketTagging...
		}
	}
	switch r.Method {
	case http.MethodHead:
		return "HeadBucket"
	case http.MethodGet:
		if q.Get("list-type") == "2" {
			return "ListObjectsV2"
		}
		return "ListObjects"
	case http.MethodPut:
		return "CreateBucket"
	case http.MethodDelete:
		return "DeleteBucket"
	}
	return r.Method + " bucket"
}

// bucketExists: the account has the bucket, or its directory exists.
func (s *Server) bucketExists(r *http.Request, dir, bucket string) (bool, error) {
	if st, err := os.Stat(filepath.Join(dir, bucket)); err == nil && st.IsDir() {
		return true, nil
	}
	return s.e.BucketExists(r.Context(), bucket)
}

// objectPath is the file of key under the bucket's directory; false for a
// key that names no file there (an empty, . or .. segment, a NUL).
func objectPath(bdir, key string) (string, bool) {
	if strings.ContainsRune(key, 0) || strings.HasSuffix(key, "/") {
		return "", false
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
	}
	return filepath.Join(bdir, filepath.FromSlash(key)), true
}

func etagOf(data []byte) string {
	sum := md5.Sum(data)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// serveObject answers a request of one object.
func (s *Server) serveObject(w http.ResponseWriter, r *http.Request, op, bucket, key, file, id string) int {
	h := w.Header()
	h.Set("x-amz-request-id", id)
	switch op {
	case "PutObject":
		data, err := readObjectBody(w, r, s3MaxBodyBytes)
		if err != nil {
			return s.writeS3Error(w, r, &s3Error{status: http.StatusBadRequest, code: "IncompleteBody", message: err.Error(), key: key}, id)
		}
		if err := writeFileAtomic(file, data); err != nil {
			return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error(), key: key}, id)
		}
		h.Set("ETag", etagOf(data))
		h.Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
		return http.StatusOK
	case "GetObject", "HeadObject":
		data, err := os.ReadFile(file)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || isDirErr(file) {
				return s.writeS3Error(w, r, &s3Error{status: http.StatusNotFound, code: "NoSuchKey", message: "The specified key does not exist.", key: key}, id)
			}
			return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error(), key: key}, id)
		}
		h.Set("ETag", etagOf(data))
		h.Set("Last-Modified", s.e.Now().UTC().Format(http.TimeFormat))
		h.Set("Content-Type", "binary/octet-stream")
		h.Set("Content-Length", strconv.Itoa(len(data)))
		w.WriteHeader(http.StatusOK)
		if op == "GetObject" {
			_, _ = w.Write(data)
		}
		return http.StatusOK
	case "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload", "AbortMultipartUpload":
		return s.multipart(w, r, op, bucket, key, file, id)
	case "DeleteObject":
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error(), key: key}, id)
		}
		w.WriteHeader(http.StatusNoContent)
		return http.StatusNoContent
	}
	return s.writeS3Error(w, r, &s3Error{status: http.StatusNotImplemented, code: "NotImplemented",
		message: fmt.Sprintf("stacksim serves PutObject, GetObject, HeadObject, DeleteObject and multipart uploads of an object, not %s", op), key: key}, id)
}

func isDirErr(file string) bool {
	st, err := os.Stat(file)
	return err == nil && st.IsDir()
}

// readObjectBody reads a PutObject's body, capped, decoding the
// aws-chunked encoding the SDKs use for streamed and checksummed uploads.
func readObjectBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		return nil, fmt.Errorf("the body could not be read: %w", err)
	}
	chunked := strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") ||
		strings.HasPrefix(r.Header.Get("x-amz-content-sha256"), "STREAMING-")
	if !chunked {
		return raw, nil
	}
	data, err := decodeAWSChunked(raw)
	if err != nil {
		return nil, err
	}
	if want := r.Header.Get("x-amz-decoded-content-length"); want != "" && want != strconv.Itoa(len(data)) {
		return nil, fmt.Errorf("the aws-chunked body holds %d bytes, x-amz-decoded-content-length says %s", len(data), want)
	}
	return data, nil
}

// decodeAWSChunked decodes an aws-chunked body: chunks of
// HEXSIZE[;chunk-signature=SIG]\r\nDATA\r\n, the last of size 0, then
// trailing headers (a checksum) and \r\n.
func decodeAWSChunked(raw []byte) ([]byte, error) {
	br := bufio.NewReader(bytes.NewReader(raw))
	var out bytes.Buffer
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("the aws-chunked body ends inside a chunk header")
		}
		sizeText, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), ";")
		size, err := strconv.ParseInt(strings.TrimSpace(sizeText), 16, 64)
		if err != nil || size < 0 || size > int64(len(raw)) {
			return nil, fmt.Errorf("the aws-chunked body has a chunk size %q that is not a hexadecimal size", sizeText)
		}
		if size == 0 {
			return out.Bytes(), nil // trailers (a checksum) follow; they are not kept
		}
		if _, err := io.CopyN(&out, br, size); err != nil {
			return nil, fmt.Errorf("the aws-chunked body ends inside a chunk of %d bytes", size)
		}
		if crlf, err := br.ReadString('\n'); err != nil || strings.TrimRight(crlf, "\r\n") != "" {
			return nil, fmt.Errorf("a chunk of the aws-chunked body does not end with CRLF")
		}
	}
}

// writeFileAtomic writes data to file (its directories made), through a
// temporary file renamed over it: a reader never sees half an object.
func writeFileAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".put-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil { // as any file written by hand
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// s3Object is one object of a list.
type s3Object struct {
	Key          string `xml:"Key"`
	LastModified string `xml:"LastModified"`
	ETag         string `xml:"ETag"`
	Size         int64  `xml:"Size"`
	StorageClass string `xml:"StorageClass"`
}

// listObjects answers ListObjectsV2 (and ListObjects): the bucket's
// objects under Prefix, in key order, MaxKeys at most, from
// StartAfter/ContinuationToken (V2) or Marker.
func (s *Server) listObjects(w http.ResponseWriter, r *http.Request, op, bucket, bdir, id string) int {
	q := r.URL.Query()
	prefix := q.Get("prefix")
	maxKeys := s3MaxKeys
	if v := q.Get("max-keys"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return s.writeS3Error(w, r, &s3Error{status: http.StatusBadRequest, code: "InvalidArgument", message: "Provided max-keys not an integer or within integer range"}, id)
		}
		maxKeys = min(n, s3MaxKeys)
	}
	after := q.Get("start-after")
	if t := q.Get("continuation-token"); t != "" {
		after = t
	}
	if op == "ListObjects" {
		after = q.Get("marker")
	}
	var keys []string
	err := filepath.WalkDir(bdir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == bdir {
				return filepath.SkipAll // a bucket of the account with no object yet
			}
			return err
		}
		if d.IsDir() || strings.HasPrefix(d.Name(), ".put-") {
			return nil
		}
		rel, err := filepath.Rel(bdir, p)
		if err != nil {
			return err
		}
		key := filepath.ToSlash(rel)
		if strings.HasPrefix(key, prefix) && key > after {
			keys = append(keys, key)
		}
		return nil
	})
	if err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	sort.Strings(keys)
	truncated := len(keys) > maxKeys
	if truncated {
		keys = keys[:maxKeys]
	}
	modified := s.e.Now().UTC().Format(s3TimeLayout)
	contents := make([]s3Object, 0, len(keys))
	for _, k := range keys {
		data, err := os.ReadFile(filepath.Join(bdir, filepath.FromSlash(k)))
		if err != nil {
			continue // removed meanwhile
		}
		contents = append(contents, s3Object{Key: k, LastModified: modified, ETag: etagOf(data), Size: int64(len(data)), StorageClass: "STANDARD"})
	}
	type result struct {
		XMLName               xml.Name   `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ListBucketResult"`
		Name                  string     `xml:"Name"`
		Prefix                string     `xml:"Prefix"`
		Marker                *string    `xml:"Marker,omitempty"`
		NextMarker            string     `xml:"NextMarker,omitempty"`
		KeyCount              *int       `xml:"KeyCount,omitempty"`
		MaxKeys               int        `xml:"MaxKeys"`
		IsTruncated           bool       `xml:"IsTruncated"`
		ContinuationToken     string     `xml:"ContinuationToken,omitempty"`
		NextContinuationToken string     `xml:"NextContinuationToken,omitempty"`
		StartAfter            string     `xml:"StartAfter,omitempty"`
		Contents              []s3Object `xml:"Contents"`
	}
	out := result{Name: bucket, Prefix: prefix, MaxKeys: maxKeys, IsTruncated: truncated, Contents: contents}
	if op == "ListObjectsV2" {
		n := len(contents)
		out.KeyCount = &n
		out.ContinuationToken, out.StartAfter = q.Get("continuation-token"), q.Get("start-after")
		if truncated && len(keys) > 0 {
			out.NextContinuationToken = keys[len(keys)-1]
		}
	} else {
		m := q.Get("marker")
		out.Marker = &m
		if truncated && len(keys) > 0 {
			out.NextMarker = keys[len(keys)-1]
		}
	}
	return s.writeS3XML(w, http.StatusOK, out, id)
}
