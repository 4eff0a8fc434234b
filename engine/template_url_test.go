package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseS3URL(t *testing.T) {
	cases := []struct {
		url      string
		s3       bool
		bucket   string
		key      string
		notS3URL bool
	}{
		{url: "https://my-bucket.s3.amazonaws.com/app/stack.yaml", bucket: "my-bucket", key: "app/stack.yaml"},
		{url: "https://my-bucket.s3.eu-west-1.amazonaws.com/stack.yaml", bucket: "my-bucket", key: "stack.yaml"},
		{url: "https://my-bucket.s3-eu-west-1.amazonaws.com/stack.yaml", bucket: "my-bucket", key: "stack.yaml"},
		{url: "https://s3.eu-west-1.amazonaws.com/my-bucket/a/b.json", bucket: "my-bucket", key: "a/b.json"},
		{url: "https://s3-eu-west-1.amazonaws.com/my-bucket/a/b.json", bucket: "my-bucket", key: "a/b.json"},
		{url: "https://s3.amazonaws.com/my-bucket/a%20b.json", bucket: "my-bucket", key: "a b.json"},
		{url: "https://my.dotted.bucket.s3.amazonaws.com/k", bucket: "my.dotted.bucket", key: "k"},
		{url: "s3://my-bucket/x/y.yaml", s3: true, bucket: "my-bucket", key: "x/y.yaml"},
		{url: "s3://my-bucket/x/y.yaml", notS3URL: true}, // not for TemplateURL
		{url: "https://example.com/stack.yaml", notS3URL: true},
		{url: "https://raw.githubusercontent.com/a/b/stack.yaml", notS3URL: true},
		{url: "https://s3.amazonaws.com/my-bucket/", notS3URL: true},
		{url: "https://s3.amazonaws.com/my-bucket", notS3URL: true},
		{url: "https://user@my-bucket.s3.amazonaws.com/k", notS3URL: true},
		{url: "ftp://my-bucket.s3.amazonaws.com/k", notS3URL: true},
		{url: "not a url", notS3URL: true},
	}
	for _, c := range cases {
		o, ok := ParseS3URL(c.url, c.s3)
		if c.notS3URL {
			if ok {
				t.Errorf("%s (s3 %v): read as %+v, want refused", c.url, c.s3, o)
			}
			continue
		}
		if !ok || o.Bucket != c.bucket || o.Key != c.key {
			t.Errorf("%s = %+v, %v; want %s/%s", c.url, o, ok, c.bucket, c.key)
		}
	}
}

func TestReadTemplateURL(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "bucket", "app"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "bucket", "app", "t.yaml"), []byte("Resources: {}\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(strings.Repeat("#", 1000001)), 0o644))

	name, body, err := ReadTemplateURL("https://bucket.s3.amazonaws.com/app/t.yaml", dir)
	if err != nil || string(body) != "Resources: {}\n" || name != filepath.Join(dir, "bucket", "app", "t.yaml") {
		t.Fatalf("read %q %q %v", name, body, err)
	}
	if _, body, err := ReadTemplateURL("file://"+filepath.Join(dir, "bucket", "app", "t.yaml"), ""); err != nil || len(body) == 0 {
		t.Fatalf("file:// %v", err)
	}
	refused := map[string]string{
		"https://bucket.s3.amazonaws.com/app/missing.yaml": msgTemplateURLNoObject,
		"https://bucket.s3.amazonaws.com/../../etc/passwd": msgTemplateURLNoObject,
		"https://example.com/t.yaml":                       msgTemplateURLUnsupported,
		"s3://bucket/app/t.yaml":                           msgTemplateURLUnsupported,
		"file://" + filepath.Join(dir, "nope.yaml"):        msgTemplateURLNoObject,
		"file://" + filepath.Join(dir, "big.yaml"):         "Template may not exceed 1000000 bytes in size.",
	}
	for u, want := range refused {
		_, _, err := ReadTemplateURL(u, dir)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", u, err, want)
		}
	}
	// Without --s3-dir, an S3 URL says where objects are read from.
	_, _, err = ReadTemplateURL("https://bucket.s3.amazonaws.com/app/t.yaml", "")
	if err == nil || !strings.Contains(err.Error(), msgTemplateURLNoObject) || !strings.Contains(errorChain(err), "--s3-dir") {
		t.Errorf("no S3 dir: %v (%s)", err, errorChain(err))
	}
}

// errorChain is the text of an error and of what it wraps.
func errorChain(err error) string {
	var b strings.Builder
	for err != nil {
		b.WriteString(err.Error())
		b.WriteString(" | ")
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			break
		}
		err = u.Unwrap()
	}
	return b.String()
}
