package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/template"
	"github.com/stacksim/stacksim/transforms"
)

// validateTemplateCommand is `stacksim validate-template`: CloudFormation's
// ValidateTemplate, offline.
func (a *app) validateTemplateCommand() *cobra.Command {
	var body, url string
	cmd := &cobra.Command{
		Use:   "validate-template (--template-body file://PATH | --template-url URL)",
		Short: "Validate a template as CloudFormation's ValidateTemplate does",
		Long: `Validate a template as CloudFormation's ValidateTemplate does: the checks AWS
makes when a template is submitted (its resource types among them: every AWS
registry type, the types of --schemas DIR, any with --permissive-types), then
the template's parameters,
description, the capabilities it requires and its declared transforms, printed
as the AWS CLI prints them.

--template-body takes file://PATH or the template itself, like the AWS CLI;
--template-url an S3 URL (https://BUCKET.s3.amazonaws.com/KEY, read from
--s3-dir DIR as DIR/BUCKET/KEY) or file://PATH.
A template with a fault exits with status 2 and every fault, each at its
FILE:LINE:COLUMN.`,
		Example: `  stacksim validate-template --template-body file://app.yaml
  stacksim validate-template --template-body file://app.yaml --output table
  stacksim --s3-dir ./s3 validate-template --template-url https://my-bucket.s3.amazonaws.com/app.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var name string
			var text []byte
			var err error
			if cmd.Flags().Changed("template-url") {
				if cmd.Flags().Changed("template-body") {
					return badInput(fmt.Errorf("--template-body and --template-url: give one of them"))
				}
				if _, err := a.engineOptions(); err != nil {
					return err // a bad --s3-dir
				}
				if name, text, err = engine.ReadTemplateURL(url, a.s3Dir); err != nil {
					return a.apiError("ValidateTemplate", err)
				}
			} else {
				if name, text, err = readTemplateBody(body, cmd.Flags().Changed("template-body")); err != nil {
					return badInput(err)
				}
				if err := template.CheckBodySize(name, text); err != nil {
					// ValidateTemplate's refusal, printed as the AWS CLI prints it.
					if cerr := a.checkTypes(cmd.Context(), name, string(text)); cerr != nil {
						return cerr
					}
					return badInput(err)
				}
			}
			if tree, err := template.ParseTree(name, text); err == nil {
				if needed, _ := transforms.Needed(name, tree); needed {
					// Transforms run first: the engine runs them, with the
					// account's macros and --s3-dir.
					return a.validateTransformed(cmd.Context(), name, text, url)
				}
			}
			t, err := template.Parse(name, text)
			if err != nil {
				// ValidateTemplate's refusal as the AWS CLI prints it ("An
				// error occurred (ValidationError) when calling the
				// ValidateTemplate operation: ..."), then every fault at
				// FILE:LINE:COLUMN: the engine parses it again and says so.
				if cerr := a.checkTypes(cmd.Context(), name, string(text)); cerr != nil {
					return cerr
				}
				return badInput(err)
			}
			if err := a.checkTypes(cmd.Context(), name, string(text)); err != nil {
				return err
			}
			return render(a.stdout, a.output, "ValidateTemplate", validateResponse(t))
		},
	}
	cmd.Flags().StringVar(&body, "template-body", "", "the template: file://PATH, or the template itself")
	cmd.Flags().StringVar(&url, "template-url", "", "the template's URL: https://BUCKET.s3.amazonaws.com/KEY (read from --s3-dir DIR/BUCKET/KEY) or file://PATH")
	return cmd
}

// checkTypes refuses, as ValidateTemplate does, a template whose resource
// types are in no registry (--schemas and --permissive-types count): the
// engine's check, on an account of its own.
func (a *app) checkTypes(ctx context.Context, name, body string) error {
	opts, err := a.engineOptions()
	if err != nil {
		return err
	}
	e, err := engine.New(opts)
	if err != nil {
		return err
	}
	defer e.Close()
	in := engine.ValidateTemplateInput{TemplateBody: body}
	in.TemplateFile = name
	if _, err := e.ValidateTemplate(ctx, in); err != nil {
		return a.apiError("ValidateTemplate", err)
	}
	return nil
}

// validateTransformed validates a template whose transforms must run
// first, through the engine (ValidateTemplate runs them with the
// parameters' defaults).
func (a *app) validateTransformed(ctx context.Context, name string, text []byte, url string) error {
	in := engine.ValidateTemplateInput{TemplateBody: string(text)}
	if url != "" {
		in = engine.ValidateTemplateInput{TemplateURL: url}
	}
	in.TemplateFile = name
	return a.read(ctx, "ValidateTemplate", func(ctx context.Context, e *engine.Engine) (any, error) {
		out, err := e.ValidateTemplate(ctx, in)
		if err != nil {
			return nil, err
		}
		return engineValidated(out), nil
	})
}

// readTemplateBody reads --template-body as the AWS CLI does: file://PATH
// loads the file, anything else is the template itself. It returns the
// name errors carry and the body.
func readTemplateBody(value string, given bool) (string, []byte, error) {
	if !given {
		return "", nil, errors.New("Either Template URL or Template Body must be specified.")
	}
	if path, ok := strings.CutPrefix(value, "file://"); ok {
		data, err := readTemplateFile(path)
		var te *template.Error
		if errors.As(err, &te) {
			return "", nil, err
		}
		if err != nil {
			return "", nil, fmt.Errorf("Error parsing parameter '--template-body': Unable to load paramfile %s: %w", value, err)
		}
		return path, data, nil
	}
	if value == "" {
		return "", nil, errors.New("1 validation error detected: Value '' at 'templateBody' failed to satisfy constraint: Member must have length greater than or equal to 1")
	}
	return "template-body", []byte(value), nil
}

// validated is what ValidateTemplate answers, as the command renders it.
type validated struct {
	params       []validatedParam
	description  string
	capabilities []string
	reason       string
	transforms   []string
}

type validatedParam struct {
	key, defaultValue, description string
	hasDefault, noEcho             bool
}

// validateResponse is ValidateTemplate's output for a template read here.
func validateResponse(t *template.Template) object {
	v := validated{description: t.Description, transforms: t.Transform}
	for _, p := range t.Parameters {
		v.params = append(v.params, validatedParam{key: p.Name, defaultValue: p.Default, description: p.Description, hasDefault: p.HasDefault, noEcho: p.NoEcho})
	}
	req := t.Capabilities()
	v.capabilities, v.reason = req.Capabilities, req.Reason
	return v.object()
}

// engineValidated is the engine's answer (a template whose transforms
// ran there).
func engineValidated(out *engine.ValidateTemplateOutput) object {
	v := validated{description: out.Description, capabilities: out.Capabilities, reason: out.CapabilitiesReason, transforms: out.DeclaredTransforms}
	for _, p := range out.Parameters {
		v.params = append(v.params, validatedParam{key: p.ParameterKey, defaultValue: p.DefaultValue, description: p.Description,
			hasDefault: p.DefaultValue != "", noEcho: p.NoEcho})
	}
	return v.object()
}

// object is ValidateTemplate's output: Parameters (ParameterKey,
// DefaultValue, NoEcho, Description), Description, Capabilities,
// CapabilitiesReason and DeclaredTransforms, in the order of the API's
// shape, as the engine answers it to serve's clients:
//
//   - Capabilities only when the template needs one: AWS's answer to a
//     template that needs none has no Capabilities (a ValidateTemplate
//     recorded against AWS in 2024, in LocalStack's snapshot tests; the
//     AWS CLI's older example shows "Capabilities": []).
//   - A NoEcho parameter's default as the template writes it: AWS masks
//     NoEcho values in the calls that describe a stack or its events,
//     and the default is the template's own text, which GetTemplate
//     returns as written (UNVERIFIED: no answer of AWS's to a NoEcho
//     default was found recorded).
func (v validated) object() object {
	params := make([]any, 0, len(v.params))
	for _, p := range v.params {
		po := object{{"ParameterKey", p.key}}
		if p.hasDefault {
			po = append(po, member{"DefaultValue", p.defaultValue})
		}
		po = append(po, member{"NoEcho", p.noEcho})
		if p.description != "" {
			po = append(po, member{"Description", p.description})
		}
		params = append(params, po)
	}
	resp := object{{"Parameters", params}}
	if v.description != "" {
		resp = append(resp, member{"Description", v.description})
	}
	if len(v.capabilities) > 0 {
		resp = append(resp, member{"Capabilities", stringsToAny(v.capabilities)})
	}
	if v.reason != "" {
		resp = append(resp, member{"CapabilitiesReason", v.reason})
	}
	if len(v.transforms) > 0 {
		resp = append(resp, member{"DeclaredTransforms", stringsToAny(v.transforms)})
	}
	return resp
}
