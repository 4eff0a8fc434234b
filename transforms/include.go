package transforms

import (
	"fmt"

	"github.com/stacksim/stacksim/template"
)

// AWS::Include (transform-aws-include.html): the snippet at Location, a
// YAML or JSON file in S3, replaces the Fn::Transform's map (or, in the
// Transform section, the template). The snippet is not processed again:
// an include inside it fails, as CloudFormation's does.

// include reads the snippet a transform's Location names.
func (p *processor) include(m template.Macro, _ *template.Node) (*template.Node, error) {
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
	if err != nil || template.HasFnTransform(root) {
		detail := "the snippet includes another transform, which CloudFormation does not process"
		if err != nil {
			detail = err.Error()
		}
		return nil, fail("The specified S3 object's content should be valid Yaml/JSON.", detail)
	}
	p.ran = append(p.ran, Include)
	return root, nil
}

// IncludeError is an S3 read that failed, as AWS::Include reports it.
func IncludeError(msg, detail string) error {
	return &Error{Message: fmt.Sprintf("Transform AWS::Include failed with: %s", msg), Detail: detail}
}
