package main

import (
	"os"
	"path"
	"path/filepath"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/corpus"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/template"
)

// stageNested uploads the child templates the nested stacks of the stacks
// name (and theirs, three levels down) to the S3 directory of the run, as
// a user uploads them before creating the parent: each TemplateURL's
// object is the corpus template of its file name nearest to the parent.
func (rn *runner) stageNested(specs []stackSpec, s3 *s3Dir) (uploaded []string, err error) {
	type parent struct {
		rel    string
		root   *template.Node
		params []*template.Parameter
		in     corpus.Inputs
		depth  int
	}
	var queue []parent
	for _, sp := range specs {
		if sp.root != nil {
			queue = append(queue, parent{sp.rel, sp.root, sp.params, sp.in, 0})
		}
	}
	seen := map[string]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, u := range corpus.NestedURLs(p.root, p.params, p.in) {
			o, ok := engine.ParseS3URL(u, false)
			if !ok || seen[o.Bucket+"/"+o.Key] {
				continue
			}
			child, ok := corpus.Nearest(p.rel, path.Base(o.Key), rn.files)
			if !ok {
				continue // the object is missing, as it is in S3 until uploaded
			}
			seen[o.Bucket+"/"+o.Key] = true
			body, err := readfile.Read(filepath.Join(rn.dir, filepath.FromSlash(child)), readfile.Limit{Max: template.MaxURLBodyBytes, What: "a template"})
			if err != nil {
				continue
			}
			dir, err := s3.make()
			if err != nil {
				return uploaded, err
			}
			target := filepath.Join(dir, o.Bucket, filepath.FromSlash(o.Key))
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				return uploaded, err
			}
			if err := os.WriteFile(target, body, 0o644); err != nil {
				return uploaded, err
			}
			uploaded = append(uploaded, child+" as "+u)
			if p.depth < 2 {
				if root, err := template.ParseTree(child, body); err == nil {
					params, _ := template.DeclaredParameters(child, root)
					queue = append(queue, parent{child, root, params, corpus.Inputs{}, p.depth + 1})
				}
			}
		}
	}
	return uploaded, nil
}

// s3Dir is the S3 directory of one attempt (engine.Options.S3Dir), made
// when something is first uploaded to it.
type s3Dir struct{ dir string }

func (s *s3Dir) make() (string, error) {
	if s.dir == "" {
		dir, err := os.MkdirTemp("", "corpus-s3-")
		if err != nil {
			return "", err
		}
		s.dir = dir
	}
	return s.dir, nil
}

func (s *s3Dir) remove() {
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}
