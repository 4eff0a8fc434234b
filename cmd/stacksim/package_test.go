package main

import (
	"archive/zip"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// stacksim package, then deploy of the packaged template, as the README
// shows them: docs/examples/package has a Lambda function with Code: ./src
// and a nested stack (TemplateURL: workers.yaml) whose function has its
// own folder. The tests assert on the parent stack and on the objects in
// the local S3 directory, which hold whether nested stacks are simulated
// or real.

const packageExample = "../../docs/examples/package"

// packageCLI runs commands with an S3 directory holding the bucket
// artefacts, and writes the temporary directory as TMP in transcripts.
type packageCLI struct {
	*cli
	tmp, s3 string
}

func newPackageCLI(t *testing.T) *packageCLI {
	c := newCLI(t)
	tmp := filepath.Dir(c.state)
	s3 := filepath.Join(tmp, "s3")
	if err := os.MkdirAll(filepath.Join(s3, "artefacts"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &packageCLI{cli: c, tmp: tmp, s3: s3}
}

func (c *packageCLI) golden(name string, want int, args ...string) (string, string) {
	c.t.Helper()
	args = append([]string{"--s3-dir", c.s3}, args...)
	out, errOut, code := c.run(args...)
	if code != want {
		c.t.Errorf("%s: exit %d, want %d\n%s", name, code, want, errOut)
	}
	scrub := func(s string) string { return strings.ReplaceAll(s, c.tmp, "TMP") }
	for i := range args {
		args[i] = scrub(args[i])
	}
	golden(c.t, "commands/"+name, transcript(args, scrub(out), scrub(errOut), code))
	return out, errOut
}

func TestPackageThenDeploy(t *testing.T) {
	c := newPackageCLI(t)
	packaged := filepath.Join(c.tmp, "packaged.yaml")
	c.golden("package", 0, "package", "--template-file", packageExample+"/app.yaml", "--s3-bucket", "artefacts",
		"--output-template-file", packaged)
	body, err := os.ReadFile(packaged)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "commands/package.packaged.yaml", body)

	// The function's code: a zip of src/ under the MD5 of its bytes.
	key := regexp.MustCompile(`S3Key: ([0-9a-f]{32})`).FindSubmatch(body)
	if key == nil {
		t.Fatalf("no S3Key in\n%s", body)
	}
	checkZip(t, filepath.Join(c.s3, "artefacts", string(key[1])), "index.py")
	// The nested template: packaged itself, its function's code zipped.
	url := regexp.MustCompile(`TemplateURL: https://s3\.amazonaws\.com/artefacts/([0-9a-f]{32}\.template)`).FindSubmatch(body)
	if url == nil {
		t.Fatalf("no packaged TemplateURL in\n%s", body)
	}
	child, err := os.ReadFile(filepath.Join(c.s3, "artefacts", string(url[1])))
	if err != nil {
		t.Fatal(err)
	}
	checkMD5Key(t, child, strings.TrimSuffix(string(url[1]), ".template"))
	childKey := regexp.MustCompile(`S3Key: ([0-9a-f]{32})`).FindSubmatch(child)
	if childKey == nil || string(childKey[1]) == string(key[1]) {
		t.Fatalf("the nested template's code is not packaged on its own:\n%s", child)
	}
	checkZip(t, filepath.Join(c.s3, "artefacts", string(childKey[1])), "worker.py")

	// The same package again uploads nothing and writes the same template.
	out, errOut := c.golden("package-again", 0, "package", "--template-file", packageExample+"/app.yaml", "--s3-bucket", "artefacts")
	if errOut != "" || out != "\n"+string(body) {
		t.Errorf("a second package: stderr %q, and stdout differs from the first:\n%s", errOut, out)
	}

	// deploy --s3-bucket: the template goes by TemplateURL.
	c.golden("package-deploy", 0, "deploy", "--template-file", packaged, "--stack-name", "app", "--s3-bucket", "artefacts", "--s3-prefix", "cfn", "--quiet")
	uploaded, err := os.ReadFile(filepath.Join(c.s3, "artefacts", "cfn", md5Hex(body)+".template"))
	if err != nil || !bytes.Equal(uploaded, body) {
		t.Fatalf("deploy did not upload the template as cfn/MD5.template: %v", err)
	}
	out, _ = c.must(0, "describe-stacks", "--stack-name", "app", "--query", "Stacks[0].StackStatus", "--output", "text")
	if strings.TrimSpace(out) != "CREATE_COMPLETE" {
		t.Errorf("the stack is %s", out)
	}
	out, _ = c.must(0, "get-template", "--stack-name", "app", "--query", "TemplateBody", "--output", "text")
	if !strings.Contains(out, "S3Key: "+string(key[1])) {
		t.Errorf("the stack's template is not the packaged one:\n%s", out)
	}
	out, _ = c.must(0, "describe-stack-resources", "--stack-name", "app", "--output", "json")
	var res struct {
		StackResources []struct{ LogicalResourceId, ResourceStatus string }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	statuses := map[string]string{}
	for _, r := range res.StackResources {
		statuses[r.LogicalResourceId] = r.ResourceStatus
	}
	if statuses["Api"] != "CREATE_COMPLETE" || statuses["Workers"] != "CREATE_COMPLETE" {
		t.Errorf("resources: %v", statuses)
	}
}

// Refusals: a missing artefact names the resource and property, a missing
// bucket says how to make it, and nothing is uploaded for the template.
func TestPackageRefusals(t *testing.T) {
	c := newPackageCLI(t)
	dir := filepath.Join(c.tmp, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tpl := filepath.Join(dir, "app.yaml")
	if err := os.WriteFile(tpl, []byte("Resources:\n  Fn:\n    Type: AWS::Lambda::Function\n    Properties:\n      Code: ./missing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.golden("package-missing-code", 255, "package", "--template-file", tpl, "--s3-bucket", "artefacts")
	c.golden("package-no-bucket", 255, "package", "--template-file", packageExample+"/app.yaml", "--s3-bucket", "nobucket")
	c.golden("package-no-template", 255, "package", "--template-file", filepath.Join(dir, "nope.yaml"), "--s3-bucket", "artefacts")
	if entries, _ := os.ReadDir(filepath.Join(c.s3, "artefacts")); len(entries) != 0 {
		t.Errorf("refused packages left %d objects", len(entries))
	}
	// Without --s3-dir there is no S3 to package into.
	_, errOut, code := runCLI(t, "package", "--template-file", tpl, "--s3-bucket", "artefacts")
	if code != exitBadInput || !strings.Contains(errOut, "give the global --s3-dir DIR") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// deploy of a template over 51,200 bytes needs --s3-bucket, and works
// with it.
func TestDeployLargeTemplateThroughS3(t *testing.T) {
	c := newPackageCLI(t)
	var b strings.Builder
	b.WriteString("Resources:\n")
	for i := 0; b.Len() <= 51200; i++ {
		b.WriteString("  Topic" + strings.Repeat("x", 40) + itoa3(i) + ":\n    Type: AWS::SNS::Topic\n    Properties:\n      DisplayName: " + strings.Repeat("d", 60) + "\n")
	}
	tpl := filepath.Join(c.tmp, "big.yaml")
	if err := os.WriteFile(tpl, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := c.run("--s3-dir", c.s3, "deploy", "--template-file", tpl, "--stack-name", "big", "--quiet")
	if code != 255 || !strings.Contains(errOut, "Please add the --s3-bucket parameter to your command.") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	out, errOut, code := c.run("--s3-dir", c.s3, "deploy", "--template-file", tpl, "--stack-name", "big", "--s3-bucket", "artefacts", "--quiet")
	if code != 0 || !strings.Contains(out, "Successfully created/updated stack - big") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "Uploading to "+md5Hex([]byte(b.String()))+".template  ") {
		t.Errorf("no upload line: %q", errOut)
	}
}

func itoa3(i int) string {
	return string(rune('a'+i/676%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i%26))
}

func md5Hex(b []byte) string {
	sum := md5.Sum(b)
	return hex.EncodeToString(sum[:])
}

func checkMD5Key(t *testing.T, data []byte, key string) {
	t.Helper()
	if got := md5Hex(data); got != key {
		t.Errorf("object %s holds bytes whose MD5 is %s", key, got)
	}
}

// checkZip checks that an object is a zip of exactly the named files,
// stored under the MD5 of its bytes.
func checkZip(t *testing.T, path string, names ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkMD5Key(t, data, filepath.Base(path))
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var got []string
	for _, f := range zr.File {
		got = append(got, f.Name)
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Errorf("%s holds %v, want %v", path, got, names)
	}
}
