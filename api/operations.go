package api

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	smithy "github.com/aws/smithy-go"

	"github.com/stacksim/stacksim/engine"
)

// The operations served. Each is a bridge between the SDK's shapes and the
// engine's: the form is decoded into the SDK's input struct (form.go) and
// checked against the model (model.go); the engine's input is made from it
// through JSON, since the engine's shapes carry CloudFormation's member
// names as their JSON names; the engine's answer goes back into the SDK's
// output struct the same way, whose Serialize method writes it (xml.go).
// Nothing here is written per operation but the line that names it.

// opKind says what a call does to the state.
type opKind int

const (
	// read calls change nothing.
	read opKind = iota
	// change calls change the state but start no operation (change sets,
	// termination protection): saved before the answer.
	change
	// start calls may start an operation: saved, and run to rest before
	// the answer when the pace is instant.
	start
)

// operation is one action of the API.
type operation struct {
	name string
	kind opKind
	// newInput returns a new SDK input struct.
	newInput func() smithy.Serializable
	// inputSchema is the SDK's schema of the input.
	inputSchema *smithy.Schema
	// call makes the engine call with the decoded SDK input and returns
	// the SDK output to write.
	// strict refuses an engine answer with a field the SDK's output lacks
	// (tests).
	call func(ctx context.Context, e *engine.Engine, in smithy.Serializable, ext engine.Extensions, strict bool) (smithy.Serializable, error)
	// unsupported lists members of the SDK input that the engine's input
	// lacks: a call that gives one is refused rather than half done.
	unsupported map[string]bool
}

func newOf[T any]() *T { return new(T) }

// bridge makes the operation of an engine call.
func bridge[SI, SO smithy.Serializable, EI, EO any](kind opKind, newIn func() SI, newOut func() SO, call func(*engine.Engine, context.Context, EI) (*EO, error)) operation {
	op := operation{kind: kind, newInput: func() smithy.Serializable { return newIn() }}
	op.inputSchema = schemaOf(newIn())
	op.unsupported = unsupportedMembers(op.inputSchema, reflect.TypeOf((*EI)(nil)).Elem())
	op.call = func(ctx context.Context, e *engine.Engine, in smithy.Serializable, ext engine.Extensions, strict bool) (smithy.Serializable, error) {
		var ein EI
		if err := convert(in, &ein, false, strict); err != nil {
			return nil, fmt.Errorf("api: the %T of %T: %w", ein, in, err)
		}
		setExtensions(&ein, ext)
		eout, err := call(e, ctx, ein)
		if err != nil {
			return nil, err
		}
		out := newOut()
		if err := convert(eout, out, strict, strict); err != nil {
			return nil, fmt.Errorf("api: the %T of %T: %w", out, eout, err)
		}
		return out, nil
	}
	return op
}

// setExtensions sets the stacksim Extensions of an engine input that has
// them (the calls that start operations).
func setExtensions(in any, ext engine.Extensions) {
	f := reflect.ValueOf(in).Elem().FieldByName("Extensions")
	if f.IsValid() && f.Type() == reflect.TypeOf(ext) {
		f.Set(reflect.ValueOf(ext))
	}
}

// schemaCapture records the schema of the first struct written (and
// writes the rest to a buffer nobody reads).
type schemaCapture struct {
	*xmlSerializer
	schema *smithy.Schema
	seen   bool
}

func (c *schemaCapture) WriteStruct(s *smithy.Schema) {
	if !c.seen {
		c.schema, c.seen = s, true
	}
	c.xmlSerializer.WriteStruct(s)
}

// schemaOf returns the schema of an SDK input or output: the one its
// Serialize method opens.
func schemaOf(v smithy.Serializable) *smithy.Schema {
	c := &schemaCapture{xmlSerializer: newXMLSerializer("root", nil)}
	v.Serialize(c)
	return c.schema
}

// unsupportedMembers lists the members of an SDK input that the engine's
// input type has no JSON field for.
func unsupportedMembers(schema *smithy.Schema, engineType reflect.Type) map[string]bool {
	known := map[string]bool{}
	for i := 0; i < engineType.NumField(); i++ {
		f := engineType.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || f.Anonymous {
			continue
		}
		if name == "" {
			name = f.Name
		}
		known[name] = true
	}
	out := map[string]bool{}
	if schema == nil {
		return out
	}
	for name := range schema.Members() {
		if !known[name] {
			out[name] = true
		}
	}
	return out
}

// givenUnsupported returns the members of in, given, that the operation
// does not support, sorted.
func (op *operation) givenUnsupported(in smithy.Serializable) []string {
	if len(op.unsupported) == 0 {
		return nil
	}
	v := reflect.ValueOf(in).Elem()
	var out []string
	for name := range op.unsupported {
		if f := v.FieldByName(name); f.IsValid() && given(f, name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// documentedDefaults are values of members that ask for what AWS does
// when they are left out (the API reference's defaults), and so for what
// stacksim does: CDK sends DeploymentConfig.Mode STANDARD on every change
// set.
var documentedDefaults = map[string]string{
	"DeploymentConfig.Mode": "STANDARD",
}

// given reports whether a member asks for something: present, not false,
// not its documented default, and for a structure, one of its members
// given.
func given(f reflect.Value, path string) bool {
	if absent(f) {
		return false
	}
	for f.Kind() == reflect.Pointer {
		f = f.Elem()
	}
	switch f.Kind() {
	case reflect.Bool:
		return f.Bool()
	case reflect.String:
		return documentedDefaults[path] != f.String()
	case reflect.Struct:
		for i := 0; i < f.NumField(); i++ {
			if sf := f.Type().Field(i); sf.IsExported() && given(f.Field(i), path+"."+sf.Name) {
				return true
			}
		}
		return false
	}
	return true
}

var (
	opsOnce sync.Once
	ops     map[string]*operation
)

// operations returns the table of the operations served, by action.
func operations() map[string]*operation {
	opsOnce.Do(func() {
		table := map[string]operation{
			"CreateStack":            bridge(start, newOf[cfn.CreateStackInput], newOf[cfn.CreateStackOutput], (*engine.Engine).CreateStack),
			"UpdateStack":            bridge(start, newOf[cfn.UpdateStackInput], newOf[cfn.UpdateStackOutput], (*engine.Engine).UpdateStack),
			"DeleteStack":            bridge(start, newOf[cfn.DeleteStackInput], newOf[cfn.DeleteStackOutput], (*engine.Engine).DeleteStack),
			"ContinueUpdateRollback": bridge(start, newOf[cfn.ContinueUpdateRollbackInput], newOf[cfn.ContinueUpdateRollbackOutput], (*engine.Engine).ContinueUpdateRollback),
			"CancelUpdateStack":      bridge(start, newOf[cfn.CancelUpdateStackInput], newOf[cfn.CancelUpdateStackOutput], (*engine.Engine).CancelUpdateStack),
			"RollbackStack":          bridge(start, newOf[cfn.RollbackStackInput], newOf[cfn.RollbackStackOutput], (*engine.Engine).RollbackStack),
			"SignalResource":         bridge(start, newOf[cfn.SignalResourceInput], newOf[cfn.SignalResourceOutput], (*engine.Engine).SignalResource),
			"CreateChangeSet":        bridge(start, newOf[cfn.CreateChangeSetInput], newOf[cfn.CreateChangeSetOutput], (*engine.Engine).CreateChangeSet),
			"ExecuteChangeSet":       bridge(start, newOf[cfn.ExecuteChangeSetInput], newOf[cfn.ExecuteChangeSetOutput], (*engine.Engine).ExecuteChangeSet),
			"DeleteChangeSet":        bridge(change, newOf[cfn.DeleteChangeSetInput], newOf[cfn.DeleteChangeSetOutput], (*engine.Engine).DeleteChangeSet),
			"DescribeChangeSet":      bridge(read, newOf[cfn.DescribeChangeSetInput], newOf[cfn.DescribeChangeSetOutput], (*engine.Engine).DescribeChangeSet),
			"ListChangeSets":         bridge(read, newOf[cfn.ListChangeSetsInput], newOf[cfn.ListChangeSetsOutput], (*engine.Engine).ListChangeSets),
			"DescribeStacks":         bridge(read, newOf[cfn.DescribeStacksInput], newOf[cfn.DescribeStacksOutput], (*engine.Engine).DescribeStacks),
			"ListStacks":             bridge(read, newOf[cfn.ListStacksInput], newOf[cfn.ListStacksOutput], (*engine.Engine).ListStacks),
			"DescribeStackEvents":    bridge(read, newOf[cfn.DescribeStackEventsInput], newOf[cfn.DescribeStackEventsOutput], (*engine.Engine).DescribeStackEvents),
			"DescribeEvents":         bridge(read, newOf[cfn.DescribeEventsInput], newOf[cfn.DescribeEventsOutput], (*engine.Engine).DescribeEvents),
			"DescribeStackResource":  bridge(read, newOf[cfn.DescribeStackResourceInput], newOf[cfn.DescribeStackResourceOutput], (*engine.Engine).DescribeStackResource),
			"DescribeStackResources": bridge(read, newOf[cfn.DescribeStackResourcesInput], newOf[cfn.DescribeStackResourcesOutput], (*engine.Engine).DescribeStackResources),
			"ListStackResources":     bridge(read, newOf[cfn.ListStackResourcesInput], newOf[cfn.ListStackResourcesOutput], (*engine.Engine).ListStackResources),
			"GetTemplate":            bridge(read, newOf[cfn.GetTemplateInput], newOf[cfn.GetTemplateOutput], (*engine.Engine).GetTemplate),
			"ValidateTemplate":       bridge(read, newOf[cfn.ValidateTemplateInput], newOf[cfn.ValidateTemplateOutput], (*engine.Engine).ValidateTemplate),
			"DescribeAccountLimits":  bridge(read, newOf[cfn.DescribeAccountLimitsInput], newOf[cfn.DescribeAccountLimitsOutput], (*engine.Engine).DescribeAccountLimits),
			"ListExports":            bridge(read, newOf[cfn.ListExportsInput], newOf[cfn.ListExportsOutput], (*engine.Engine).ListExports),
			"ListImports":            bridge(read, newOf[cfn.ListImportsInput], newOf[cfn.ListImportsOutput], (*engine.Engine).ListImports),
			"GetTemplateSummary":     bridge(read, newOf[cfn.GetTemplateSummaryInput], newOf[cfn.GetTemplateSummaryOutput], (*engine.Engine).GetTemplateSummary),
			"DescribeType":           bridge(read, newOf[cfn.DescribeTypeInput], newOf[cfn.DescribeTypeOutput], (*engine.Engine).DescribeType),
			"ListTypes":              bridge(read, newOf[cfn.ListTypesInput], newOf[cfn.ListTypesOutput], (*engine.Engine).ListTypes),
			"UpdateTerminationProtection": bridge(change, newOf[cfn.UpdateTerminationProtectionInput], newOf[cfn.UpdateTerminationProtectionOutput],
				(*engine.Engine).UpdateTerminationProtection),
			"SetStackPolicy":   bridge(change, newOf[cfn.SetStackPolicyInput], newOf[cfn.SetStackPolicyOutput], (*engine.Engine).SetStackPolicy),
			"GetStackPolicy":   bridge(read, newOf[cfn.GetStackPolicyInput], newOf[cfn.GetStackPolicyOutput], (*engine.Engine).GetStackPolicy),
			"DetectStackDrift": bridge(change, newOf[cfn.DetectStackDriftInput], newOf[cfn.DetectStackDriftOutput], (*engine.Engine).DetectStackDrift),
			"DetectStackResourceDrift": bridge(change, newOf[cfn.DetectStackResourceDriftInput], newOf[cfn.DetectStackResourceDriftOutput],
				(*engine.Engine).DetectStackResourceDrift),
			"DescribeStackDriftDetectionStatus": bridge(read, newOf[cfn.DescribeStackDriftDetectionStatusInput], newOf[cfn.DescribeStackDriftDetectionStatusOutput],
				(*engine.Engine).DescribeStackDriftDetectionStatus),
			"DescribeStackResourceDrifts": bridge(read, newOf[cfn.DescribeStackResourceDriftsInput], newOf[cfn.DescribeStackResourceDriftsOutput],
				(*engine.Engine).DescribeStackResourceDrifts),
		}
		ops = make(map[string]*operation, len(table))
		for name, op := range table {
			op.name = name
			ops[name] = &op
		}
	})
	return ops
}
