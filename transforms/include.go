package transforms

import (
	"fmt"

	"github.com/stacksim/stacksim/template"
)

// AWS::Include (transform-aws-include.html): the snippet at Location, a
// YAML or JSON file in S3, is inserted where the Fn::Transform is: alone
// in its map, the snippet is the map's value; beside other members, the
// snippet's members join them (two includes at one place add up, as AWS's
// example of a bucket's name and its ACL from two files shows); in the
// Transform section, it is the template. The snippet is not processed
// again: an include inside it fails, as CloudFormation's does, and so do
// YAML's short forms ("We don't currently support using shorthand
// notations for YAML snippets").

// include reads the snippet a transform's Location names.
func (p *processor) include(m template.Macro, fragment *template.Node) (*template.Node, error) {
	fail := func(msg, detail string) error {
		return &Error{Message: "Transform AWS::Include failed with: " + msg, Detail: detail}
	}
	params, err := p.params(m)
	if err != nil {
		return nil, err
	}
	loc, ok := params["Location"].(string)
	if !ok || loc == "" {
		return nil, fail("The location parameter is not a valid S3 uri.", "give Parameters: {Location: s3://BUCKET/KEY}")
	}
	if p.env.Include == nil {
		return nil, fail("The location parameter is not a valid S3 uri.", "stacksim reads S3 from --s3-dir")
	}
	name, body, err := p.env.Include(loc)
	if err != nil {
		return nil, err
	}
	root, err := template.ParseTree(name, body)
	switch {
	case err != nil:
		return nil, fail("The specified S3 object's content should be valid Yaml/JSON.", err.Error())
	case template.HasFnTransform(root):
		return nil, fail("The specified S3 object's content should be valid Yaml/JSON.", name+" includes another transform, which CloudFormation does not process")
	}
	if tag := shortForm(root); tag != "" {
		return nil, fail("The specified S3 object's content should be valid Yaml/JSON.",
			fmt.Sprintf("%s uses the short form %s: AWS::Include takes the long form only (Fn::Sub, Ref, Fn::GetAtt...)", name, tag))
	}
	p.ran = append(p.ran, Include)
	if fragment == nil || fragment.Kind != template.Map || len(fragment.Fields) == 0 {
		return root, nil
	}
	if root.Kind != template.Map {
		return nil, fail("The specified S3 object's content should be valid Yaml/JSON.",
			fmt.Sprintf("%s is a %s, and the Fn::Transform that includes it has other members beside it: a snippet there is a map of members", name, root.Kind))
	}
	out := &template.Node{Kind: template.Map, Pos: fragment.Pos}
	for _, f := range fragment.Fields {
		if root.Get(f.Key) == nil {
			out.Fields = append(out.Fields, f)
		}
	}
	out.Fields = append(out.Fields, root.Fields...)
	return out, nil
}

// shortForm returns a short-form tag a tree is written with, or "".
func shortForm(n *template.Node) string {
	if n.Tag != "" {
		return n.Tag
	}
	for _, c := range n.Items {
		if t := shortForm(c); t != "" {
			return t
		}
	}
	for _, f := range n.Fields {
		if t := shortForm(f.Value); t != "" {
			return t
		}
	}
	return ""
}

// IncludeError is an S3 read that failed, as AWS::Include reports it.
func IncludeError(msg, detail string) error {
	return &Error{Message: fmt.Sprintf("Transform AWS::Include failed with: %s", msg), Detail: detail}
}
