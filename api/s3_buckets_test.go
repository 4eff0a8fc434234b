package api

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CreateBucket, DeleteBucket and ListBuckets over the S3 directory.
func TestS3Buckets(t *testing.T) {
	dir := t.TempDir()
	ts := servicesServer(t, dir)
	s3 := func(method, path, body string) (int, http.Header, string) {
		t.Helper()
		return request(t, ts, method, path, "s3", nil, []byte(body))
	}
	if st, _, body := s3("GET", "/", ""); st != 200 || !strings.Contains(body, "<Bucket><Name>staging-bucket</Name>") || !strings.Contains(body, "<ID>123456789012</ID>") {
		t.Fatalf("ListBuckets: %d %s", st, body)
	}
	if st, h, _ := s3("PUT", "/new-bucket", ""); st != 200 || h.Get("Location") != "/new-bucket" {
		t.Fatalf("CreateBucket: %d %v", st, h)
	}
	if st, _, _ := s3("PUT", "/new-bucket", ""); st != 200 {
		t.Fatalf("CreateBucket of a bucket the caller owns, in us-east-1: %d", st)
	}
	if st, _, body := s3("GET", "/", ""); st != 200 || !strings.Contains(body, "<Name>new-bucket</Name>") || strings.Index(body, "new-bucket") > strings.Index(body, "staging-bucket") {
		t.Fatalf("ListBuckets after CreateBucket (sorted): %s", body)
	}
	for _, c := range []struct{ path, body, code string }{
		{"/elsewhere", "<CreateBucketConfiguration><LocationConstraint>eu-west-1</LocationConstraint></CreateBucketConfiguration>", "IllegalLocationConstraintException"},
		{"/elsewhere", "<CreateBucketConfiguration><LocationConstraint>us-east-1</LocationConstraint></CreateBucketConfiguration>", "InvalidLocationConstraint"},
		{"/elsewhere", "<CreateBucketConfiguration>", "MalformedXML"},
		{"/staging-bucket?policy", "{}", "NotImplemented"},
	} {
		if st, _, body := s3("PUT", c.path, c.body); st/100 == 2 || !strings.Contains(body, "<Code>"+c.code+"</Code>") {
			t.Errorf("PUT %s %s: %d %s, want %s", c.path, c.body, st, body, c.code)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Fatal("a refused CreateBucket made the bucket")
	}
	s3("PUT", "/new-bucket/a/b.txt", "x")
	if st, _, body := s3("DELETE", "/new-bucket", ""); st != 409 || !strings.Contains(body, "<Code>BucketNotEmpty</Code>") {
		t.Fatalf("DeleteBucket of a bucket with an object: %d %s", st, body)
	}
	s3("DELETE", "/new-bucket/a/b.txt", "")
	if st, _, _ := s3("DELETE", "/new-bucket", ""); st != 204 {
		t.Fatalf("DeleteBucket: %d", st)
	}
	if st, _, body := s3("GET", "/new-bucket?list-type=2", ""); st != 404 || !strings.Contains(body, "NoSuchBucket") {
		t.Fatalf("a deleted bucket: %d %s", st, body)
	}
	if st, _, body := s3("DELETE", "/staging-bucket", ""); st != 501 || !strings.Contains(body, "delete the stack") {
		t.Fatalf("DeleteBucket of a stack's bucket: %d %s", st, body)
	}
	if st, _, body := s3("DELETE", "/", ""); st != 501 || !strings.Contains(body, "NotImplemented") {
		t.Fatalf("DELETE /: %d %s", st, body)
	}
}
