package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/pkgexport"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

// Package first: a template whose resources name local artefacts (a
// SAM function's CodeUri: ., a Lambda function's Code: ./, a nested
// stack's TemplateURL: ./child.yaml) is packaged before it is created, as
// a user runs `stacksim package` (`aws cloudformation package`) and then
// creates the packaged template: pkgexport zips or copies each artefact
// into the bucket packageBucket of the run's S3 directory and names it
// there. A template is packaged only when it names a local path (a
// property the AWS CLI packages merely being missing is no reason to run
// package), and only when package succeeds: a template that names a file
// or folder the corpus does not hold is created as it is, and fails as
// CloudFormation fails it.

// packageBucket is the bucket of the run's S3 directory that packaged
// artefacts go to.
const packageBucket = "corpus-artefacts"

// probePackage packages the template into a directory of its own that is
// then removed, to learn whether it names local artefacts that all exist:
// named says what package uploaded from the paths the template names;
// err is why package failed (named is then nil).
func probePackage(path string) (named []string, err error) {
	dir, err := os.MkdirTemp("", "corpus-package-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	_, named, err = packageInto(path, dir)
	return named, err
}

// packageInto is `stacksim package --template-file PATH --s3-bucket
// packageBucket` with --s3-dir dir (the bucket made when missing): the
// packaged template, and what was uploaded from the paths it names, each
// as "WHERE: VALUE as URL".
func packageInto(templatePath, dir string) (*template.Node, []string, error) {
	if err := os.MkdirAll(filepath.Join(dir, packageBucket), 0o755); err != nil {
		return nil, nil, err
	}
	body, err := readfile.Read(templatePath, readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template"})
	if err != nil {
		return nil, nil, err
	}
	orig, err := template.ParseTree(templatePath, body)
	if err != nil {
		return nil, nil, err
	}
	abs, err := filepath.Abs(templatePath)
	if err != nil {
		return nil, nil, err
	}
	u := &pkgexport.Uploader{Dir: dir, Bucket: packageBucket, Endpoint: pkgexport.Endpoint(engine.DefaultRegion)}
	root, err := pkgexport.Export(filepath.Base(abs), filepath.Dir(abs), u)
	if err != nil {
		return nil, nil, err
	}
	var named []string
	namedPaths(orig, root, "", &named)
	return root, named, nil
}

// namedPaths finds the strings of orig that package replaced in packaged
// (the local paths the template names; package changes nothing else but
// the members it adds for missing properties), each as "WHERE: VALUE as
// NEW".
func namedPaths(orig, packaged *template.Node, where string, out *[]string) {
	switch {
	case orig == nil || packaged == nil:
	case orig.Kind == template.String:
		if packaged.Kind != template.String || packaged.Value != orig.Value {
			*out = append(*out, fmt.Sprintf("%s: %s as %s", where, orig.Value, compact(packaged)))
		}
	case orig.Kind == template.Map && packaged.Kind == template.Map:
		for _, f := range orig.Fields {
			namedPaths(f.Value, packaged.Get(f.Key), where+"/"+f.Key, out)
		}
	case orig.Kind == template.List && packaged.Kind == template.List && len(orig.Items) == len(packaged.Items):
		for i := range orig.Items {
			namedPaths(orig.Items[i], packaged.Items[i], fmt.Sprintf("%s/%d", where, i), out)
		}
	}
}

// packageSpec packages a spec that names local artefacts into the run's S3
// directory and returns it with the packaged template: its body (by URL
// when it is over 51,200 bytes, uploaded as deploy --s3-bucket uploads
// it), and a file name of its own for messages (FILE.packaged.yaml, as
// package --output-template-file would write it).
func packageSpec(sp stackSpec, dir string) (stackSpec, error) {
	root, _, err := packageInto(sp.path, dir)
	if err != nil {
		return sp, fmt.Errorf("packaging %s, which packaged before: %w", sp.rel, err)
	}
	sp.body = pkgexport.YAML(root)
	sp.file = strings.TrimSuffix(sp.rel, path.Ext(sp.rel)) + ".packaged.yaml"
	if len(sp.body) > template.MaxBodyBytes {
		u := &pkgexport.Uploader{Dir: dir, Bucket: packageBucket, Endpoint: pkgexport.Endpoint(engine.DefaultRegion)}
		s3url, err := u.UploadWithDedup(sp.body, "template")
		if err != nil {
			return sp, err
		}
		sp.url = u.PathStyleURL(strings.TrimPrefix(s3url, "s3://"+packageBucket+"/"))
	}
	return sp, nil
}

// packageSpecs packages the template and the stacks that make its imports,
// those that name local artefacts, into the attempt's S3 directory.
func packageSpecs(sp stackSpec, producers []stackSpec, s3 *s3Dir) (stackSpec, []stackSpec, error) {
	all := append([]stackSpec{sp}, producers...)
	for i := range all {
		if len(all[i].packaged) == 0 {
			continue
		}
		dir, err := s3.make()
		if err != nil {
			return sp, producers, err
		}
		if all[i], err = packageSpec(all[i], dir); err != nil {
			return sp, producers, err
		}
	}
	return all[0], all[1:], nil
}

// describePackage says, with -v, what package made of each template.
func describePackage(w io.Writer, specs []stackSpec) {
	for _, s := range specs {
		for _, m := range s.standIns {
			fmt.Fprintf(w, "  %s: a stand-in for its author's code: %s\n", s.rel, m)
		}
		switch {
		case len(s.packaged) > 0:
			fmt.Fprintf(w, "  %s: packaged into s3://%s first (stacksim package): %s\n", s.rel, packageBucket, strings.Join(s.packaged, "; "))
		case s.packageErr != nil:
			fmt.Fprintf(w, "  %s: not packaged, stacksim package fails: %s\n", s.rel, strings.ReplaceAll(s.packageErr.Error(), "\n", " "))
		}
	}
}

// compact is a packaged property on one line: an s3:// or https URL, or
// its map ({S3Bucket: B, S3Key: K}).
func compact(n *template.Node) string {
	if n.Kind != template.Map {
		return n.Value
	}
	parts := make([]string, len(n.Fields))
	for i, f := range n.Fields {
		parts[i] = f.Key + ": " + compact(f.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
