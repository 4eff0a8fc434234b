package template

import (
	"bytes"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a template body, JSON or YAML, and runs the checks
// CloudFormation makes when a template is submitted (ValidateTemplate):
// structure, sections, names, nulls, quotas, intrinsic function shapes,
// references and dependency cycles. name is the file name errors carry.
//
// Every fault found is returned at once: a single *Error, or Errors sorted by
// position. A template that declares a transform stacksim does not run
// returns an error wrapping ErrUnsupported.
//
// Parse does not apply MaxBodyBytes (the TemplateBody limit): a template may
// come from S3. Callers of the TemplateBody form call CheckBodySize first.
func Parse(name string, body []byte) (*Template, error) {
	root, err := ParseTree(name, body)
	if err != nil {
		return nil, err
	}
	return build(name, root, nil)
}

// parseBody turns a body into a tree. As CloudFormation does, it reads the
// body as JSON first and, when that fails, as YAML; a body that is neither
// gets the JSON error when it looks like JSON (it starts with '{'), the
// YAML error otherwise. The tree comes back linked (parents set,
// calls marked).
func parseBody(name string, body []byte) (*Node, *Error) {
	body = bytes.TrimPrefix(body, utf8BOM)
	var (
		root *Node
		err  *Error
	)
	if isJSONBody(body) {
		root, err = parseJSON(name, body)
		if err != nil {
			if yroot, yerr := parseYAML(name, body); yerr == nil && yroot.Kind == Map {
				root, err = yroot, nil
			}
		}
	} else {
		root, err = parseYAML(name, body)
	}
	if err != nil {
		return nil, err
	}
	return root, nil
}

func isJSONBody(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '{'
}
