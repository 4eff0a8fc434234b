package pkgexport

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// testdata/project is packaged by the AWS CLI (1.45.11, against moto's S3
// on loopback, `aws cloudformation package --template-file template.yaml
// --s3-bucket art --s3-prefix p`): project.awscli.yaml is its output
// (moto's endpoint written as https://s3.amazonaws.com),
// project.awscli.stderr its progress lines, project.awscli.child.yaml the
// nested template it uploaded. stacksim's zips are not the AWS CLI's
// (fixed timestamps, sorted entries), so the keys of zipped artefacts
// differ: each key is written K1, K2, ... in the order it first appears,
// in both. Files uploaded as they are keep the AWS CLI's keys exactly.

var hexKey = regexp.MustCompile(`[0-9a-f]{32}`)

func normalizeKeys(s string) string {
	seen := map[string]string{}
	return hexKey.ReplaceAllStringFunc(s, func(k string) string {
		if _, ok := seen[k]; !ok {
			seen[k] = "K" + strconv.Itoa(len(seen)+1)
		}
		return seen[k]
	})
}

var progressLine = regexp.MustCompile(`\rUploading to (\S+)  (\d+) / (\d+)\.0  \(100\.00%\)`)

func normalizeProgress(s string) string {
	return progressLine.ReplaceAllString(normalizeKeys(s), "\rUploading to $1  N / N.0  (100.00%)")
}

func newS3(t *testing.T, bucket string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, bucket), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestExportMatchesTheAWSCLI(t *testing.T) {
	s3 := newS3(t, "art")
	var progress bytes.Buffer
	u := &Uploader{Dir: s3, Bucket: "art", Prefix: "p", Endpoint: Endpoint("us-east-1"), Progress: &progress}
	root, err := Export("template.yaml", "testdata/project", u)
	if err != nil {
		t.Fatal(err)
	}
	got := string(YAML(root))
	want := readString(t, "testdata/project.awscli.yaml")
	// The AWS CLI writes a line break before the template.
	want = strings.TrimPrefix(want, "\n")
	if normalizeKeys(got) != normalizeKeys(want) {
		t.Errorf("packaged template differs from the AWS CLI's (keys normalised):\n%s", lineDiff(normalizeKeys(want), normalizeKeys(got)))
	}
	// Files uploaded as they are: the MD5 of their bytes, as the AWS CLI's.
	for _, raw := range []string{
		"ReadmeUrl: s3://art/p/a752a795476bde47e9e79376ac89744b", // README.md
		"Location: s3://art/p/e43ee7a5728b5a97ad7ac49d5b5e3adb",  // snippet.yaml (AWS::Include)
		"Key: p/04e5868daf17fcda2ba772c5693cd7b1",                // api.yaml
		"Key: p/9a1b923d6f173b5d802639f546fcd1ae",                // machine.json
		"ScriptLocation: s3://art/p/f968f33f844c98de1d3b4fe70f2e1a0f",
	} {
		if !strings.Contains(got, raw) || !strings.Contains(want, raw) {
			t.Errorf("want %q in both outputs", raw)
		}
	}
	// The progress lines: one per object written, in the same order.
	// Sizes of zips and of the nested template differ too: they are
	// written N.
	wantErr := readString(t, "testdata/project.awscli.stderr")
	if g, w := normalizeProgress(progress.String()), normalizeProgress(wantErr); g != w {
		t.Errorf("progress differs (keys and sizes normalised):\n got %q\nwant %q", g, w)
	}
	for _, m := range progressLine.FindAllStringSubmatch(progress.String(), -1) {
		if m[2] != m[3] {
			t.Errorf("progress line %q: the sizes differ", m[0])
		}
		if st, err := os.Stat(filepath.Join(s3, "art", m[1])); err != nil || strconv.FormatInt(st.Size(), 10) != m[2] {
			t.Errorf("progress line %q: the object %s is not of that size (%v)", m[0], m[1], err)
		}
	}
	// The nested template, uploaded as HASH.template and named by its
	// path-style URL.
	m := regexp.MustCompile(`TemplateURL: https://s3\.amazonaws\.com/art/(p/[0-9a-f]{32}\.template)`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no packaged TemplateURL in\n%s", got)
	}
	child := readString(t, filepath.Join(s3, "art", m[1]))
	wantChild := readString(t, "testdata/project.awscli.child.yaml")
	if normalizeKeys(child) != normalizeKeys(wantChild) {
		t.Errorf("nested template differs from the AWS CLI's:\n%s", lineDiff(normalizeKeys(wantChild), normalizeKeys(child)))
	}
	// Every object is stored under the MD5 of its bytes.
	checkContentAddressed(t, filepath.Join(s3, "art"))
}

func checkContentAddressed(t *testing.T, bucketDir string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(bucketDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(bucketDir, p)
		key := strings.TrimSuffix(filepath.Base(rel), ".template")
		if sum := md5hex(data); sum != key {
			t.Errorf("%s holds bytes whose MD5 is %s", rel, sum)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("nothing uploaded")
	}
}

// A second package of the same files writes nothing (the objects are
// there) and gives the same template; --force-upload writes them again.
func TestExportIsStableAndDeduplicates(t *testing.T) {
	s3 := newS3(t, "art")
	var first, second, forced bytes.Buffer
	export := func(w *bytes.Buffer, force bool) string {
		u := &Uploader{Dir: s3, Bucket: "art", Endpoint: Endpoint("us-east-1"), Progress: w, Force: force}
		root, err := Export("template.yaml", "testdata/project", u)
		if err != nil {
			t.Fatal(err)
		}
		return string(YAML(root))
	}
	a := export(&first, false)
	b := export(&second, false)
	c := export(&forced, true)
	if a != b || a != c {
		t.Errorf("the same files packaged differently:\n%s", lineDiff(a, b))
	}
	if second.Len() != 0 {
		t.Errorf("a second package uploaded again: %q", second.String())
	}
	// --force-upload skips the check for an object of the key, so even an
	// artefact named twice in one template is written twice, as by the AWS
	// CLI (S3Uploader.upload checks file_exists only without force_upload).
	if f, o := strings.Count(forced.String(), "\r"), strings.Count(first.String(), "\r"); f <= o {
		t.Errorf("--force-upload wrote %d objects, the first run %d", f, o)
	}
	for _, line := range strings.Split(forced.String(), "\r")[1:] {
		if !strings.Contains(first.String(), "\r"+line) {
			t.Errorf("--force-upload wrote %q, which the first run did not", line)
		}
	}
}

func TestExportRecordsKMSKeyAndMetadata(t *testing.T) {
	s3 := newS3(t, "art")
	u := &Uploader{Dir: s3, Bucket: "art", Endpoint: Endpoint("us-east-1"), KMSKeyID: "alias/k", Metadata: map[string]string{"team": "a"}}
	url, err := u.UploadWithDedup([]byte("x"), "")
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimPrefix(url, "s3://art/")
	rec := readString(t, MetadataPath(s3, "art", key))
	for _, w := range []string{`"ServerSideEncryption": "aws:kms"`, `"SSEKMSKeyId": "alias/k"`, `"team": "a"`, `"ETag": "\"` + key + `\""`} {
		if !strings.Contains(rec, w) {
			t.Errorf("record %s lacks %s", rec, w)
		}
	}
}

// Refusals, in the AWS CLI's words, naming the resource and property.
func TestExportRefusals(t *testing.T) {
	cases := []struct {
		name, template string
		bucket         bool
		want           []string
		wantType       any
	}{
		{"missing code", "Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Code: ./nope\n", true,
			[]string{"Unable to upload artifact ./nope referenced by Code parameter of Fn resource.\nParameter Code of resource Fn refers to a file or folder that does not exist ", "/nope"},
			&InvalidLocalPathError{}},
		{"missing child template", "Resources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: child.yaml\n", true,
			[]string{"Unable to upload artifact child.yaml referenced by TemplateURL parameter of Child resource.\nTemplateURL parameter of Child resource is invalid. It must be a S3 URL or path to CloudFormation template file. Actual: ", "/child.yaml"},
			&InvalidTemplateURLError{}},
		{"missing include", "Resources:\n  B:\n    Type: AWS::S3::Bucket\n    Properties:\n      Fn::Transform:\n        Name: AWS::Include\n        Parameters:\n          Location: nope.yaml\n", true,
			[]string{"Parameter Location of resource AWS::Include refers to a file or folder that does not exist ", "/nope.yaml"},
			&InvalidLocalPathError{}},
		{"bad for-each", "Resources:\n  Fn::ForEach::X:\n    - a\n", true,
			[]string{`The value of Fn::ForEach::X has an invalid "Fn::ForEach::" format: Must be a list of three entries`},
			&InvalidForEachError{}},
		{"no bucket", "Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Code: t.yaml\n", false,
			[]string{"Unable to upload artifact t.yaml referenced by Code parameter of Fn resource.\nS3 Bucket does not exist. Execute the command to create a new bucket\naws s3 mb s3://art\n", "create it with mkdir"},
			&NoSuchBucketError{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "t.yaml"), []byte(c.template), 0o644); err != nil {
				t.Fatal(err)
			}
			s3 := t.TempDir()
			if c.bucket {
				s3 = newS3(t, "art")
			}
			u := &Uploader{Dir: s3, Bucket: "art", Endpoint: Endpoint("")}
			_, err := Export("t.yaml", dir, u)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			target := c.wantType
			switch target.(type) {
			case *InvalidLocalPathError:
				var e *InvalidLocalPathError
				if !errors.As(err, &e) {
					t.Errorf("%T, want %T", err, target)
				}
			case *NoSuchBucketError:
				var e *NoSuchBucketError
				if !errors.As(err, &e) {
					t.Errorf("%T, want %T", err, target)
				}
			}
			// Nothing is left in S3 by a refused package of one artefact.
			entries, _ := os.ReadDir(filepath.Join(s3, "art"))
			if len(entries) != 0 {
				t.Errorf("S3 holds %d objects after a refusal", len(entries))
			}
		})
	}
	for _, bucket := range []string{"..", ".", ".metadata", "a/b", ""} {
		_, err := (&Uploader{Dir: t.TempDir(), Bucket: bucket}).UploadWithDedup([]byte("x"), "")
		if err == nil || !strings.Contains(err.Error(), "Invalid bucket name") {
			t.Errorf("bucket %q: %v", bucket, err)
		}
	}
	if _, err := Export("nope.yaml", t.TempDir(), &Uploader{}); err == nil || err.Error() != "Invalid template path nope.yaml" {
		t.Errorf("missing template: %v", err)
	}
}

// Zips are deterministic: the same files give the same bytes, whatever
// their modification times.
func TestZipIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.txt", "a/c.txt", "a.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	one, err := zipFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	old := zipEpoch.AddDate(30, 0, 0)
	if err := os.Chtimes(filepath.Join(dir, "a.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	two, err := zipFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(one, two) {
		t.Error("a touched file changed the zip")
	}
	if !isZip(writeTemp(t, one)) {
		t.Error("not a zip")
	}
}

func writeTemp(t *testing.T, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func md5hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

// A file's group and other permission bits (a checkout under another
// umask) do not change the zip; the executable bit does.
func TestZipModes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(p, []byte("echo"), 0o644); err != nil {
		t.Fatal(err)
	}
	zipWith := func(mode os.FileMode) []byte {
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		b, err := zipFolder(dir)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if !bytes.Equal(zipWith(0o644), zipWith(0o664)) {
		t.Error("a group-writable file changed the zip")
	}
	if bytes.Equal(zipWith(0o644), zipWith(0o755)) {
		t.Error("an executable file zipped as a plain one")
	}
}

// Three levels: each template's paths are relative to its own folder, and
// each is packaged before the template that nests it. A template that
// nests itself is refused (the AWS CLI recurses until Python gives up).
func TestExportNestsThreeLevels(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"app.yaml":              "Resources:\n  Mid:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: nested/mid.yaml\n",
		"nested/mid.yaml":       "Resources:\n  Leaf:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: leaf/leaf.yaml\n",
		"nested/leaf/leaf.yaml": "Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Code: code\n",
		"nested/leaf/code/x.py": "x = 1\n",
		"loop.yaml":             "Resources:\n  Again:\n    Type: AWS::CloudFormation::Stack\n    Properties:\n      TemplateURL: ./loop.yaml\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s3 := newS3(t, "art")
	var progress bytes.Buffer
	root, err := Export("app.yaml", dir, &Uploader{Dir: s3, Bucket: "art", Endpoint: Endpoint("eu-west-1"), Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	url := root.Get("Resources").Get("Mid").Get("Properties").Get("TemplateURL").Value
	mid := readString(t, filepath.Join(s3, "art", strings.TrimPrefix(url, "https://s3.eu-west-1.amazonaws.com/art/")))
	m := regexp.MustCompile(`TemplateURL: https://s3\.eu-west-1\.amazonaws\.com/art/([0-9a-f]{32}\.template)`).FindStringSubmatch(mid)
	if m == nil {
		t.Fatalf("mid not packaged:\n%s", mid)
	}
	leaf := readString(t, filepath.Join(s3, "art", m[1]))
	if !regexp.MustCompile(`S3Key: [0-9a-f]{32}\n`).MatchString(leaf) {
		t.Errorf("leaf not packaged:\n%s", leaf)
	}
	// Upload order: the leaf's code, the leaf, the mid.
	lines := strings.Split(progress.String(), "\r")[1:]
	if len(lines) != 3 || strings.HasSuffix(strings.Fields(lines[0])[2], ".template") || !strings.Contains(lines[1], m[1]) {
		t.Errorf("upload order: %q", lines)
	}
	checkContentAddressed(t, filepath.Join(s3, "art"))

	_, err = Export("loop.yaml", dir, &Uploader{Dir: s3, Bucket: "art"})
	if err == nil || !strings.Contains(err.Error(), "nests itself") || !strings.Contains(err.Error(), "TemplateURL parameter of Again resource") {
		t.Errorf("a template nesting itself: %v", err)
	}
}
