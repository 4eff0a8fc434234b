package main

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/stacksim/stacksim/internal/pkgexport"
	"github.com/stacksim/stacksim/template"
)

// Stand-ins for the code a template's author had. The corpus holds
// templates, not the folders beside them: a SAM function's `CodeUri:
// lambda`, a layer's `ContentUri: layers/`, a state machine's
// `DefinitionUri: ./machine.json` name files of the author's repository
// that `stacksim package` (`aws cloudformation package`) would zip and
// upload before the create. CloudFormation never reads what is inside a
// function's code, so a user who has the folder and one who has a stand-in
// for it get the same stack: the run copies the template into a scratch
// folder, links there every artefact the corpus does hold, makes a
// stand-in for each code artefact it does not, and packages that copy.
//
// Only code gets a stand-in. A child template (a nested stack's
// TemplateURL, a SAM application's Location, AWS::Include) is read by
// CloudFormation, and its content cannot be made up: a template naming one
// the corpus lacks still fails, as AWS's would without it.

// standInKinds are the packaged properties whose artefact is code (or a
// state machine's definition, which CloudFormation passes on unread),
// by "TYPE PROPERTY" as pkgexport names them.
var standInKinds = map[string]standInKind{
	"AWS::Serverless::Function CodeUri":                      standInCode,
	"AWS::Serverless::LayerVersion ContentUri":               standInCode,
	"AWS::Lambda::Function Code":                             standInCode,
	"AWS::Lambda::LayerVersion Content":                      standInCode,
	"AWS::Glue::Job Command.ScriptLocation":                  standInCode,
	"AWS::ElasticBeanstalk::ApplicationVersion SourceBundle": standInCode,
	"AWS::Serverless::StateMachine DefinitionUri":            standInDefinition,
	"AWS::StepFunctions::StateMachine DefinitionS3Location":  standInDefinition,
}

type standInKind int

const (
	standInCode standInKind = iota + 1
	standInDefinition
)

// standInNote is the text of every stand-in file.
const standInNote = "A stand-in made by stacksim's corpuscreate for code the template's author had and the corpus does not hold.\n"

// standInDefinitionBody is a state machine definition of one Pass state.
const standInDefinitionBody = `{"Comment": "a stand-in made by stacksim's corpuscreate", "StartAt": "StandIn", "States": {"StandIn": {"Type": "Pass", "End": true}}}` + "\n"

// maxStandIns bounds the artefacts one template gets stand-ins or links
// for (the most any corpus template names is a handful).
const maxStandIns = 32

// errNoStandIn: package fails for a reason a stand-in does not mend.
var errNoStandIn = errors.New("no stand-in")

// standIns copies the template at path into a scratch folder (under
// scratch) and makes beside it what package needs: a link to each
// artefact the corpus holds, a stand-in for each code artefact it does
// not. It answers the copy's path and the stand-ins made, each as
// "RESOURCE PROPERTY: VALUE"; errNoStandIn (wrapped) when package still
// fails for a reason a stand-in does not mend.
func standIns(path string, root *template.Node, scratch string) (string, []string, error) {
	src, err := filepath.Abs(path)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp(scratch, "standin-")
	if err != nil {
		return "", nil, err
	}
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		return "", nil, err
	}
	copyPath := filepath.Join(dir, filepath.Base(src))
	if err := os.Symlink(src, copyPath); err != nil {
		return "", nil, err
	}
	var made []string
	for range maxStandIns {
		_, err := probePackage(copyPath)
		if err == nil {
			return copyPath, made, nil
		}
		// What package found missing: code (a stand-in may do), or a
		// child template (only the corpus's own will do).
		var missing *pkgexport.InvalidLocalPathError
		var child *pkgexport.InvalidTemplateURLError
		switch {
		case errors.As(err, &missing):
		case errors.As(err, &child):
			missing = &pkgexport.InvalidLocalPathError{ResourceID: child.ResourceID, Property: child.Property, Path: child.Path}
		default:
			return "", nil, fmt.Errorf("%w: %v", errNoStandIn, err)
		}
		rel, err := filepath.Rel(dir, missing.Path)
		if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
			return "", nil, fmt.Errorf("%w: %s is outside the template's folder", errNoStandIn, missing.Path)
		}
		at := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return "", nil, err
		}
		if orig := filepath.Join(filepath.Dir(src), rel); exists(orig) {
			if err := os.Symlink(orig, at); err != nil {
				return "", nil, err
			}
			continue
		}
		kind := standInKinds[resourceType(root, missing.ResourceID)+" "+missing.Property]
		if kind == 0 {
			return "", nil, fmt.Errorf("%w: %s", errNoStandIn, missing.Error())
		}
		if err := makeStandIn(at, kind); err != nil {
			return "", nil, err
		}
		made = append(made, fmt.Sprintf("%s %s: %s", missing.ResourceID, missing.Property, filepath.ToSlash(rel)))
	}
	return "", nil, fmt.Errorf("%w: more than %d artefacts", errNoStandIn, maxStandIns)
}

// makeStandIn makes the stand-in at path: a folder holding one file (a
// path without an extension, as `CodeUri: src` names a folder), a zip
// archive of that file (.zip, .jar), a state machine's definition, or a
// file of its own.
func makeStandIn(path string, kind standInKind) error {
	ext := strings.ToLower(filepath.Ext(path))
	switch {
	case kind == standInDefinition:
		return os.WriteFile(path, []byte(standInDefinitionBody), 0o644)
	case ext == "":
		if err := os.MkdirAll(path, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(path, "STAND-IN.txt"), []byte(standInNote), 0o644)
	case ext == ".zip" || ext == ".jar":
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		zw := zip.NewWriter(f)
		w, err := zw.Create("STAND-IN.txt")
		if err == nil {
			_, err = w.Write([]byte(standInNote))
		}
		if err == nil {
			err = zw.Close()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	default:
		return os.WriteFile(path, []byte(standInNote), 0o644)
	}
}

// resourceType is the Type of the resource id of a template ("" when it
// has none).
func resourceType(root *template.Node, id string) string {
	if root == nil || root.Kind != template.Map {
		return ""
	}
	r := root.Get("Resources")
	if r == nil || r.Kind != template.Map {
		return ""
	}
	res := r.Get(id)
	if res == nil || res.Kind != template.Map {
		return ""
	}
	if t := res.Get("Type"); t != nil && t.Kind == template.String {
		return t.Value
	}
	return ""
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
