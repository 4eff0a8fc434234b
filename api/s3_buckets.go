package api

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The buckets themselves, as `aws s3 mb`, `aws s3 rb` and `aws s3 ls`
// (with no bucket) call them: CreateBucket makes the bucket's directory
// under the S3 directory, DeleteBucket removes it when it is empty, and
// ListBuckets lists the directories and the account's buckets (those its
// stacks made). stacksim keeps no dates for S3: a bucket's CreationDate is
// the virtual time of the call, as an object's LastModified is.

// errMalformedXML is S3's answer to a body that is not the XML it wants.
var errMalformedXML = &s3Error{status: http.StatusBadRequest, code: "MalformedXML", message: "The XML you provided was not well-formed or did not validate against our published schema"}

// createBucket answers CreateBucket. As in us-east-1, where S3 answers 200
// to the owner re-creating a bucket it has, a bucket that exists is
// accepted; elsewhere it is BucketAlreadyOwnedByYou. A location constraint
// other than the server's region is refused.
func (s *Server) createBucket(w http.ResponseWriter, r *http.Request, dir, bucket, id string) int {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err != nil {
		return s.writeS3Error(w, r, errMalformedXML, id)
	}
	region := s.e.Region()
	if len(strings.TrimSpace(string(body))) > 0 {
		var conf struct {
			LocationConstraint string `xml:"LocationConstraint"`
		}
		if err := xml.Unmarshal(body, &conf); err != nil {
			return s.writeS3Error(w, r, errMalformedXML, id)
		}
		switch c := conf.LocationConstraint; {
		case c == "us-east-1" && region == "us-east-1":
			// us-east-1 is the absence of a constraint.
			return s.writeS3Error(w, r, &s3Error{status: http.StatusBadRequest, code: "InvalidLocationConstraint", message: "The specified location-constraint is not valid", bucket: bucket}, id)
		case c != "" && c != region:
			return s.writeS3Error(w, r, &s3Error{status: http.StatusBadRequest, code: "IllegalLocationConstraintException",
				message: fmt.Sprintf("The %s location constraint is incompatible for the region specific endpoint this request was sent to.", c), bucket: bucket}, id)
		}
	}
	exists, err := s.bucketExists(r, dir, bucket)
	if err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	if exists && region != "us-east-1" {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusConflict, code: "BucketAlreadyOwnedByYou",
			message: "Your previous request to create the named bucket succeeded and you already own it.", bucket: bucket}, id)
	}
	if err := os.MkdirAll(filepath.Join(dir, bucket), 0o755); err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	h := w.Header()
	h.Set("x-amz-request-id", id)
	h.Set("Location", "/"+bucket)
	h.Set("Content-Length", "0")
	w.WriteHeader(http.StatusOK)
	return http.StatusOK
}

// deleteBucket answers DeleteBucket: the bucket's directory is removed when
// it holds no object. A bucket a stack made is the stack's to delete.
func (s *Server) deleteBucket(w http.ResponseWriter, r *http.Request, dir, bucket, id string) int {
	owned, err := s.e.BucketExists(r.Context(), bucket)
	if err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	if owned {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusNotImplemented, code: "NotImplemented",
			message: "stacksim does not delete a bucket a stack made from outside the stack: delete the stack (or remove the bucket from its template)", bucket: bucket}, id)
	}
	bdir := filepath.Join(dir, bucket)
	empty, err := dirHoldsNoFile(bdir)
	if err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	if !empty {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusConflict, code: "BucketNotEmpty", message: "The bucket you tried to delete is not empty", bucket: bucket}, id)
	}
	if err := os.RemoveAll(bdir); err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	w.Header().Set("x-amz-request-id", id)
	w.WriteHeader(http.StatusNoContent)
	return http.StatusNoContent
}

// dirHoldsNoFile reports whether a directory tree holds no file (empty
// directories are what an object's removal leaves).
func dirHoldsNoFile(dir string) (bool, error) {
	empty := true
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			empty = false
			return fs.SkipAll
		}
		return nil
	})
	return empty, err
}

// listBuckets answers ListBuckets: the directories of the S3 directory
// that are buckets' (a valid bucket name) and the account's buckets, by
// name.
func (s *Server) listBuckets(w http.ResponseWriter, r *http.Request, dir, id string) int {
	names := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	for _, e := range entries {
		if e.IsDir() && bucketName.MatchString(e.Name()) {
			names[e.Name()] = true
		}
	}
	owned, err := s.e.Buckets(r.Context())
	if err != nil {
		return s.writeS3Error(w, r, &s3Error{status: http.StatusInternalServerError, code: "InternalError", message: err.Error()}, id)
	}
	for _, b := range owned {
		names[b] = true
	}
	type bucket struct {
		Name         string `xml:"Name"`
		CreationDate string `xml:"CreationDate"`
	}
	out := struct {
		XMLName xml.Name `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ListAllMyBucketsResult"`
		Owner   struct {
			ID          string `xml:"ID"`
			DisplayName string `xml:"DisplayName"`
		} `xml:"Owner"`
		Buckets []bucket `xml:"Buckets>Bucket"`
	}{}
	account := s.e.AccountID()
	out.Owner.ID, out.Owner.DisplayName = account, account
	now := s.e.Now().UTC().Format(s3TimeLayout)
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		out.Buckets = append(out.Buckets, bucket{Name: n, CreationDate: now})
	}
	return s.writeS3XML(w, http.StatusOK, out, id)
}
