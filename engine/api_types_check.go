package engine

import (
	"strings"

	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

// unrecognizedTypes refuses a template whose resources name a type stacksim
// cannot provision — neither registered, nor custom, nor in the AWS
// registry, nor in --schemas — as CloudFormation refuses it before anything
// starts: "Template format error: Unrecognized resource types: [A, B]".
// Each type is listed once, in the order the template first uses it (AWS
// lists them as an unordered set; stacksim's order is the template's, so
// that the message is the same on every run). The error wraps one
// positioned error per type, where the template first uses it, with the
// type's closest registry names as its detail, for FILE:LINE:COL.
//
// A type whose schema the user gave (a --schemas file, a handler's) is
// checked too (resources.Registry.CheckSchema): one that cannot be used
// refuses the template with the schema's problem (unusableSchema).
//
// CreateStack, UpdateStack and CreateChangeSet check the resources the
// template's conditions keep; ValidateTemplate checks every resource it
// declares, and none when the template declares a transform (which may
// change them: AWS validates the types of the processed template).
func (e *Engine) unrecognizedTypes(file string, res []*template.Resource) error {
	var names []string
	var list template.Errors
	seen := map[string]bool{}
	for _, r := range res {
		if seen[r.Type] {
			continue
		}
		seen[r.Type] = true
		ok, err := e.reg.Recognized(r.Type)
		if err == nil && ok {
			err = e.reg.CheckSchema(r.Type)
		}
		if err != nil {
			return unusableSchema(file, r, err)
		}
		if ok {
			continue
		}
		names = append(names, r.Type)
		te := &template.Error{File: templateFile(file), Line: r.Pos.Line, Col: r.Pos.Col, Path: "/Resources/" + r.LogicalID + "/Type",
			Message: "Template format error: Unrecognized resource types: [" + r.Type + "]"}
		if n := r.Node.Get("Type"); r.Node != nil && n != nil {
			te.Line, te.Col = n.Pos.Line, n.Pos.Col
		}
		if strings.HasPrefix(r.Type, "AWS::Serverless::") {
			te.Detail = "a SAM type: the template must declare Transform: AWS::Serverless-2016-10-31"
		} else if similar := resources.SimilarTypes(r.Type); len(similar) > 0 {
			te.Detail = "did you mean " + strings.Join(similar, " or ") + "?"
		} else if misnamed := e.reg.MisnamedSchema(r.Type); misnamed != "" {
			te.Detail = misnamed + ": a schema file is found by its typeName"
		} else if !strings.HasPrefix(r.Type, "AWS::") && !strings.HasPrefix(r.Type, "Alexa::") {
			te.Detail = "a third-party type: give its schema with --schemas DIR or register a handler; --permissive-types accepts any type"
		}
		list = append(list, te)
	}
	if len(names) == 0 {
		return nil
	}
	var cause error = list
	if len(list) == 1 {
		cause = list[0]
	}
	return &APIError{Code: CodeValidationError, Message: "Template format error: Unrecognized resource types: " + bracketed(names), cause: cause}
}

// unusableSchema refuses a template that uses a type whose schema, given by
// the user (a --schemas file, a handler's --schema), cannot be used: a file
// that does not parse, a keyword that does not compile, a list naming a
// property the schema does not define. AWS would never have registered
// such a type; stacksim refuses the call before anything is stored, with
// the schema's problem and where the template uses the type.
func unusableSchema(file string, r *template.Resource, err error) error {
	msg := "The schema of resource type " + r.Type + " cannot be used: " + err.Error()
	te := &template.Error{File: templateFile(file), Line: r.Pos.Line, Col: r.Pos.Col, Path: "/Resources/" + r.LogicalID + "/Type",
		Message: msg, Detail: "fix the schema file: a resource schema in the registry's format, see docs/handlers.md"}
	if n := r.Node.Get("Type"); r.Node != nil && n != nil {
		te.Line, te.Col = n.Pos.Line, n.Pos.Col
	}
	return &APIError{Code: CodeValidationError, Message: msg, cause: te}
}
