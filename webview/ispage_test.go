package webview

import (
	"net/http/httptest"
	"testing"
)

// The view's requests and the API's: the page and /view/..., but never a
// request an SDK signed (S3's objects of a bucket called view).
func TestIsPage(t *testing.T) {
	signed := "AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=x"
	for _, c := range []struct {
		method, target, auth string
		page                 bool
	}{
		{"GET", "/", "", true},
		{"HEAD", "/", "", true},
		{"GET", "/view/events", "", true},
		{"GET", "/?Action=DescribeStacks&Version=2010-05-15", "", false},
		{"POST", "/", "", false},
		{"GET", "/view/key.json", signed, false},
		{"GET", "/", signed, false},
	} {
		r := httptest.NewRequest(c.method, c.target, nil)
		if c.auth != "" {
			r.Header.Set("Authorization", c.auth)
		}
		if got := IsPage(r); got != c.page {
			t.Errorf("%s %s (signed: %v): IsPage %v, want %v", c.method, c.target, c.auth != "", got, c.page)
		}
	}
}
