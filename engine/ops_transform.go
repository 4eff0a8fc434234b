package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
	"github.com/stacksim/stacksim/transforms"
)

// Transforms, when a call submits a template: a template that declares
// transforms (other than AWS::LanguageExtensions alone) or holds an
// Fn::Transform is processed first (package transforms), and the processed
// template, JSON, is what the stack runs; the original is kept for
// GetTemplate's Original stage, the processed one for its Processed
// stage. Processing happens once, when the call is made (CreateStack,
// UpdateStack, CreateChangeSet; ExecuteChangeSet runs what the change set
// processed), with the call's parameter values, as CloudFormation does.
//
// A transform that fails makes a change set FAILED with AWS's message as
// its reason ("Transform 123456789012::Count failed with: ...", "No
// transform named ... found."), as CloudFormation does; a direct
// CreateStack or UpdateStack is refused with it (CloudFormation accepts
// the call and rolls the stack back), with nothing changed.

// submission is a template as a call submits it, and as its stack runs it.
type submission struct {
	File      string
	Original  string
	Processed string // "" when no transform ran: the original runs
	// Expanded: transforms ran, so a direct create or update needs
	// CAPABILITY_AUTO_EXPAND.
	Expanded bool
}

// runs is the body the stack runs and the name its errors carry.
func (s submission) runs() (file, body string) { return runTemplate(s.File, s.Original, s.Processed) }

// runTemplate is the template a stack runs: the processed one when
// transforms made one (its errors name it "FILE (processed)", since their
// lines are the processed template's, which GetTemplate --template-stage
// Processed shows), the original otherwise.
func runTemplate(file, original, processed string) (string, string) {
	if processed == "" {
		return file, original
	}
	return templateFile(file) + " (processed)", processed
}

// macroType is the type of a macro's definition.
const macroType = "AWS::CloudFormation::Macro"

// transformTimeout bounds the real time one call's transforms may take.
const transformTimeout = 2 * time.Minute

// process runs the transforms of a submitted template. st is the stack the
// call is about (its name and id are the pseudo parameters).
func (e *Engine) process(tx *txn, st *store.StackRecord, file, body string, params []template.ParameterValue, prev map[string]string) (submission, error) {
	sub := submission{File: file, Original: body}
	if !strings.Contains(body, "Transform") {
		return sub, nil
	}
	name := templateFile(file)
	root, err := template.ParseTree(name, []byte(body))
	if err != nil {
		return sub, nil // Parse refuses it, in AWS's words
	}
	needed, err := transforms.Needed(name, root)
	if err != nil {
		return sub, templateError(err)
	}
	if !needed {
		return sub, nil
	}
	pseudo := template.Pseudo{AccountID: e.opts.AccountID, Region: e.opts.Region, Partition: e.opts.Partition,
		StackName: st.StackName, StackID: st.StackId, NotificationARNs: st.NotificationARNs}
	src := e.ssmSources(tx)
	values, _, err := template.ParameterValues(name, root, template.BindInput{Parameters: params, Previous: prev, Pseudo: pseudo,
		SSMLookup: func(n string) (string, bool) {
			p, ok := src.Get(n)
			return p.Value, ok
		}})
	if err != nil {
		return sub, templateError(err)
	}
	processed, err := e.runTransforms(tx, name, root, values, pseudo)
	if err != nil {
		return sub, err
	}
	sub.Processed, sub.Expanded = processed, true
	return sub, nil
}

// runTransforms processes a tree with parameter values and returns the
// processed template.
func (e *Engine) runTransforms(tx *txn, name string, root *template.Node, values map[string]any, pseudo template.Pseudo) (string, error) {
	calls := tx.Meta.IDs
	env := transforms.Env{File: name, Region: e.opts.Region, AccountID: e.opts.AccountID, Partition: e.opts.Partition,
		Parameters: values, Pseudo: template.PseudoValues(pseudo),
		Macro:     func(macro string) (resources.MacroTarget, bool, error) { return e.macroTarget(tx, macro) },
		Include:   e.readInclude,
		SAM:       e.sam,
		RequestID: func(n int) string { return deriveUUID(e.opts.Seed, calls, "macro", pseudo.StackID, fmt.Sprint(n)) },
	}
	ctx, cancel := context.WithTimeout(context.Background(), transformTimeout)
	defer cancel()
	res, err := transforms.Process(ctx, root, env)
	if err != nil {
		var te *transforms.Error
		if errors.As(err, &te) {
			return "", &APIError{Code: CodeValidationError, Message: te.Message, cause: detailError(te.Detail), transform: true}
		}
		return "", templateError(err)
	}
	e.log.Debug("template processed", zap.Strings("transforms", res.Ran))
	return string(res.Root.JSON()), nil
}

// detailError is stacksim's word after AWS's, or nil.
func detailError(detail string) error {
	if detail == "" {
		return nil
	}
	return errors.New(detail)
}

// macroTarget finds the macro of the account named name (an
// AWS::CloudFormation::Macro object with that Name) and the target its
// FunctionName is mapped to (--service-token FUNCTION=TARGET).
func (e *Engine) macroTarget(tx *txn, name string) (resources.MacroTarget, bool, error) {
	for _, o := range tx.Objects(macroType) {
		if n, _ := o.Model["Name"].(string); n != name {
			continue
		}
		fn, _ := o.Model["FunctionName"].(string)
		target := e.opts.ServiceTokens[fn]
		if target == nil {
			target = e.opts.ServiceTokens[functionName(fn)]
		}
		id := e.opts.AccountID + "::" + name
		if target == nil {
			return nil, true, &transforms.Error{
				Message: fmt.Sprintf("Transform %s cannot run: its function %s is not mapped to a target", id, fn),
				Detail:  fmt.Sprintf("give --service-token %s=exec:COMMAND (the command reads the macro event as JSON on standard input and writes its answer on standard output), or an http(s):// URL", fn)}
		}
		mt, ok := target.(resources.MacroTarget)
		if !ok {
			return nil, true, &transforms.Error{
				Message: fmt.Sprintf("Transform %s cannot run: the target of its function %s answers custom resources, not macros", id, fn),
				Detail:  "map the function to exec:COMMAND or an http(s):// URL"}
		}
		return mt, true, nil
	}
	return nil, false, nil
}

// functionName is the name of a Lambda function named by its ARN (or the
// name itself).
func functionName(fn string) string {
	if !strings.HasPrefix(fn, "arn:") {
		return fn
	}
	parts := strings.Split(fn, ":")
	if len(parts) >= 7 && parts[5] == "function" {
		return parts[6]
	}
	return fn
}

// readInclude reads the snippet an AWS::Include Location names: an S3 URI
// (s3://BUCKET/KEY, or an https S3 URL) from Options.S3Dir, or file://PATH.
func (e *Engine) readInclude(loc string) (string, []byte, error) {
	if path, ok := strings.CutPrefix(loc, "file://"); ok {
		b, err := readLimited(path, template.MaxURLBodyBytes)
		if err != nil {
			return "", nil, transforms.IncludeError(msgIncludeDenied, err.Error())
		}
		return path, b, nil
	}
	o, ok := ParseS3URL(loc, true)
	if !ok {
		return "", nil, transforms.IncludeError("The location parameter is not a valid S3 uri.",
			"give s3://BUCKET/KEY (read from --s3-dir DIR as DIR/BUCKET/KEY) or file://PATH; a local path is what 'aws cloudformation package' uploads")
	}
	path, b, err := readS3(e.opts.S3Dir, o)
	if err != nil {
		return "", nil, transforms.IncludeError(msgIncludeDenied, err.Error())
	}
	return path, b, nil
}

// msgIncludeDenied is S3's answer to a read of an object that is not
// there (without s3:ListBucket, S3 answers Access Denied for a missing
// key). UNVERIFIED wording of the whole message.
const msgIncludeDenied = "S3 error: Access Denied For more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html"
