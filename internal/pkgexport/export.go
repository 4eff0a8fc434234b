package pkgexport

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

// Export reads the template at path (relative to dir, as the AWS CLI
// reads it relative to the working directory), uploads its local
// artefacts with u and returns the rewritten template. Nested stacks'
// templates are exported, written as YAML and uploaded, first.
//
// It follows artifact_exporter.py's Template.export: the Metadata's
// artefacts, then (when the template has Resources) every Fn::Transform
// AWS::Include's Location, then each resource in the template's order
// (into Fn::ForEach fragments), each exporter of its type in the AWS
// CLI's order. One deliberate difference: a file to zip (FORCE_ZIP) is
// found from the template's folder, where the AWS CLI looks from the
// working directory (and uploads the file unzipped when it is not found
// there); both are the same when package runs in the template's folder.
func Export(path, dir string, u *Uploader) (*template.Node, error) {
	return export(path, dir, u, nil)
}

// export exports one template; chain holds the templates that nest it,
// outermost first.
func export(path, dir string, u *Uploader, chain []string) (*template.Node, error) {
	abs := makeAbs(dir, path)
	for _, p := range chain {
		if p == abs {
			// The AWS CLI recurses until Python's stack is exhausted.
			return nil, fmt.Errorf("%s nests itself: %s", path, strings.Join(append(chain, abs), " -> "))
		}
	}
	body, err := readfile.Read(abs, readfile.Limit{Max: 16 << 20, What: "a template file"})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &InvalidTemplatePathError{Path: path}
		}
		return nil, err
	}
	root, err := template.ParseTree(path, body)
	if err != nil {
		return nil, err
	}
	if root.Kind != template.Map {
		return nil, fmt.Errorf("%s: a template is a map, not a %s", path, root.Kind)
	}
	x := &exporting{dir: filepath.Dir(abs), u: u, chain: append(chain[:len(chain):len(chain)], abs)}
	if err := x.metadata(root.Get("Metadata")); err != nil {
		return nil, err
	}
	resources := root.Get("Resources")
	if resources == nil {
		return root, nil
	}
	if err := x.global(root); err != nil {
		return nil, err
	}
	if err := x.resources(resources); err != nil {
		return nil, err
	}
	return root, nil
}

type exporting struct {
	dir   string // the template's folder: relative paths start here
	u     *Uploader
	chain []string // this template and those that nest it
}

func (x *exporting) metadata(md *template.Node) error {
	if md == nil || md.Kind != template.Map {
		return nil
	}
	for _, f := range md.Fields {
		for _, ex := range metadataExporters {
			if ex.resourceType == f.Key {
				if err := x.export(ex, f.Key, f.Value); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (x *exporting) resources(resources *template.Node) error {
	if resources.Kind != template.Map {
		return nil
	}
	for _, f := range resources.Fields {
		if strings.HasPrefix(f.Key, "Fn::ForEach::") {
			if f.Value.Kind != template.List || len(f.Value.Items) != 3 {
				return &InvalidForEachError{ResourceID: f.Key}
			}
			if err := x.resources(f.Value.Items[2]); err != nil {
				return err
			}
			continue
		}
		if f.Value.Kind != template.Map {
			continue
		}
		typ := f.Value.Get("Type")
		if typ == nil || typ.Kind != template.String {
			continue
		}
		for _, ex := range resourceExporters {
			if ex.resourceType == typ.Value {
				if err := x.export(ex, f.Key, f.Value.Get("Properties")); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// export is Resource.export: one property of one resource.
func (x *exporting) export(ex exporter, id string, props *template.Node) error {
	if props == nil || props.Kind != template.Map {
		return nil // no Properties: nothing to package
	}
	value := getPath(props, ex.property)
	if isEmpty(value) && !ex.packageNull {
		return nil
	}
	if value != nil && value.Kind == template.Map {
		return nil // already an S3 location, or a function
	}
	var err error
	if ex.form == formStack {
		err = x.exportStack(ex, id, props, value)
	} else {
		err = x.exportArtifact(ex, id, props, value)
	}
	if err != nil {
		return &ExportFailedError{ResourceID: id, Property: ex.property, Value: pyStr(value), Err: err}
	}
	return nil
}

// exportArtifact is upload_local_artifacts, then the property set to the
// exporter's form.
func (x *exporting) exportArtifact(ex exporter, id string, props, value *template.Node) error {
	var s3url string
	switch {
	case value == nil:
		data, err := zipFolder(x.dir) // no path: the template's folder
		if err != nil {
			return err
		}
		if s3url, err = x.u.UploadWithDedup(data, ""); err != nil {
			return err
		}
	case value.Kind == template.String && isS3URL(value.Value):
		s3url = value.Value
	default:
		local := pyStr(value)
		if value.Kind == template.String {
			local = makeAbs(x.dir, value.Value)
		}
		st, err := os.Stat(local)
		if value.Kind != template.String || err != nil {
			return &InvalidLocalPathError{ResourceID: id, Property: ex.property, Path: local}
		}
		var data []byte
		switch {
		case st.IsDir():
			data, err = zipFolder(local)
		case ex.forceZip && !isZip(local):
			data, err = zipFile(local)
		default:
			data, err = os.ReadFile(local)
		}
		if err != nil {
			return err
		}
		if s3url, err = x.u.UploadWithDedup(data, ""); err != nil {
			return err
		}
	}
	if ex.form == formURI {
		setPath(props, ex.property, str(s3url))
		return nil
	}
	setPath(props, ex.property, s3Dict(s3url, ex.bucket, ex.key, ex.version))
	return nil
}

// exportStack is CloudFormationStackResource.do_export: a local template
// is exported in turn, written as YAML, uploaded as HASH.template and
// named by its path-style https URL.
func (x *exporting) exportStack(ex exporter, id string, props, value *template.Node) error {
	if value == nil {
		return nil
	}
	if value.Kind != template.String {
		return &InvalidTemplateURLError{ResourceID: id, Property: ex.property, Path: pyStr(value)}
	}
	p := value.Value
	if isS3URL(p) || strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		return nil
	}
	abs := makeAbs(x.dir, p)
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return &InvalidTemplateURLError{ResourceID: id, Property: ex.property, Path: abs}
	}
	child, err := export(p, x.dir, x.u, x.chain)
	if err != nil {
		return err
	}
	s3url, err := x.u.UploadWithDedup(YAML(child), "template")
	if err != nil {
		return err
	}
	_, key, _, _ := parseS3URL(s3url)
	setPath(props, ex.property, str(x.u.PathStyleURL(key)))
	return nil
}

// global is export_global_artifacts: every Fn::Transform of the template,
// at any depth of maps and of maps in lists.
func (x *exporting) global(n *template.Node) error {
	for i := range n.Fields {
		v := n.Fields[i].Value
		switch {
		case n.Fields[i].Key == "Fn::Transform":
			if err := x.include(v); err != nil {
				return err
			}
		case v.Kind == template.Map:
			if err := x.global(v); err != nil {
				return err
			}
		case v.Kind == template.List:
			for _, it := range v.Items {
				if it.Kind == template.Map {
					if err := x.global(it); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// include is include_transform_export_handler: the local file an
// AWS::Include names is uploaded as it is and named by its s3:// URI.
func (x *exporting) include(t *template.Node) error {
	if t.Kind != template.Map {
		return nil
	}
	if name := t.Get("Name"); name == nil || name.Kind != template.String || name.Value != "AWS::Include" {
		return nil
	}
	params := t.Get("Parameters")
	loc := params.Get("Location")
	if loc == nil || loc.Kind != template.String || loc.Value == "" || isS3URL(loc.Value) {
		return nil
	}
	abs := loc.Value // os.path.join: an absolute Location stands alone
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(x.dir, abs)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return &InvalidLocalPathError{ResourceID: "AWS::Include", Property: "Location", Path: abs}
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	s3url, err := x.u.UploadWithDedup(data, "")
	if err != nil {
		return err
	}
	setPath(params, "Location", str(s3url))
	return nil
}

// makeAbs is make_abs_path: a relative path from dir, normalised.
func makeAbs(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// parseS3URL is parse_s3_url: s3://BUCKET/KEY[?versionId=V]. ok is false
// for anything else (is_s3_url).
func parseS3URL(s string) (bucket, key, version string, ok bool) {
	rest, found := strings.CutPrefix(s, "s3://")
	if !found {
		return "", "", "", false
	}
	u, err := url.Parse("//" + rest)
	if err != nil || u.Host == "" || u.Path == "" {
		return "", "", "", false
	}
	if v := u.Query()["versionId"]; len(v) == 1 {
		version = v[0]
	}
	return u.Host, strings.TrimLeft(u.Path, "/"), version, true
}

func isS3URL(s string) bool {
	_, _, _, ok := parseS3URL(s)
	return ok
}

// s3Dict is the map form of an S3 URL, its members in the order
// parse_s3_url makes them (which PyYAML sorts, to the same order).
func s3Dict(s3url, bucketKey, keyKey, versionKey string) *template.Node {
	bucket, key, version, _ := parseS3URL(s3url)
	n := &template.Node{Kind: template.Map, Fields: []template.Field{
		{Key: bucketKey, Value: str(bucket)}, {Key: keyKey, Value: str(key)}}}
	if versionKey != "" && version != "" {
		n.Fields = append(n.Fields, template.Field{Key: versionKey, Value: str(version)})
	}
	return n
}

func str(s string) *template.Node { return &template.Node{Kind: template.String, Value: s} }

func isEmpty(n *template.Node) bool {
	if n == nil || n.Kind == template.Null {
		return true
	}
	switch n.Kind {
	case template.String:
		return n.Value == ""
	case template.List:
		return len(n.Items) == 0
	case template.Map:
		return len(n.Fields) == 0
	case template.Bool:
		return n.Value == "false"
	}
	return n.Value == "0"
}

// getPath is jmespath.search of a dotted path of members.
func getPath(n *template.Node, path string) *template.Node {
	for _, seg := range strings.Split(path, ".") {
		if n == nil || n.Kind != template.Map {
			return nil
		}
		n = n.Get(seg)
	}
	if n != nil && n.Kind == template.Null {
		return nil
	}
	return n
}

// setPath is botocore's set_value_from_jmespath: the member set in place,
// or added at the end, with the maps on the way made when missing.
func setPath(n *template.Node, path string, v *template.Node) {
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		last := i == len(segs)-1
		var next *template.Node
		for j := range n.Fields {
			if n.Fields[j].Key == seg {
				if last {
					n.Fields[j].Value = v
					return
				}
				next = n.Fields[j].Value
				if next.Kind != template.Map {
					next = &template.Node{Kind: template.Map}
					n.Fields[j].Value = next
				}
				break
			}
		}
		if next == nil {
			if last {
				n.Fields = append(n.Fields, template.Field{Key: seg, Value: v})
				return
			}
			next = &template.Node{Kind: template.Map}
			n.Fields = append(n.Fields, template.Field{Key: seg, Value: next})
		}
		n = next
	}
}

// pyStr is how the AWS CLI's messages show a property's value: Python's
// str() of it (None when it is missing).
func pyStr(n *template.Node) string {
	if n == nil || n.Kind == template.Null {
		return "None"
	}
	switch n.Kind {
	case template.String, template.Number:
		return n.Value
	case template.Bool:
		if n.Value == "true" {
			return "True"
		}
		return "False"
	}
	return strings.TrimSpace(string(JSON(n)))
}
