package corpus

import (
	"path"

	"github.com/stacksim/stacksim/template"
)

// A template whose nested stacks (AWS::CloudFormation::Stack) name child
// templates of the corpus by S3 URL is tried as its README says to: the
// child templates uploaded first, to the bucket and key the TemplateURL
// names once the parameters are given (the run's S3 directory stands for
// S3, as --s3-dir does).

// NestedURLs are the TemplateURLs of a template's nested stacks that its
// inputs, the parameters' defaults and the pseudo parameters resolve to a
// string (a Ref or an Fn::Sub of them; anything else is left out).
func NestedURLs(root *template.Node, params []*template.Parameter, in Inputs) []string {
	resources := root.Get("Resources")
	if root.Kind != template.Map || resources == nil || resources.Kind != template.Map {
		return nil
	}
	known := map[string]any{"AWS::URLSuffix": "amazonaws.com", "AWS::StackName": Pseudo.StackName, "AWS::StackId": Pseudo.StackID}
	for _, name := range []string{"AWS::Region", "AWS::AccountId", "AWS::Partition"} {
		known[name], _ = pseudoValue(name)
	}
	for _, p := range params {
		if p.HasDefault {
			known[p.Name] = p.Default
		}
	}
	for _, p := range in.Parameters {
		known[p.Key] = p.Value
	}
	resolved := template.ResolveKnown(root, known).Get("Resources")
	var urls []string
	for _, f := range resolved.Fields {
		r := f.Value
		if r.Kind != template.Map || r.Get("Type") == nil || r.Get("Type").Value != "AWS::CloudFormation::Stack" {
			continue
		}
		if props := r.Get("Properties"); props != nil && props.Kind == template.Map {
			if u := props.Get("TemplateURL"); u != nil && u.Kind == template.String {
				urls = append(urls, u.Value)
			}
		}
	}
	return urls
}

// Nearest is the file of files with the given base name nearest to file
// (the most leading directories shared; of equals, the first), and
// whether there is one.
func Nearest(file, base string, files []string) (string, bool) {
	best, score := "", -1
	for _, f := range files {
		if path.Base(f) != base || f == file {
			continue
		}
		if s := sharedDirs(file, f); s > score {
			best, score = f, s
		}
	}
	return best, score >= 0
}
