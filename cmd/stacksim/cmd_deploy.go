package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/pkgexport"
	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// stacksim deploy: `aws cloudformation deploy`, step by step as the AWS
// CLI (v1) does it (awscli/customizations/cloudformation/deploy.py and
// deployer.py): DescribeStacks (a stack in REVIEW_IN_PROGRESS counts as
// none), a change set named awscli-cloudformation-package-deploy-EPOCH of
// type CREATE or UPDATE with every template parameter given — a new value
// from --parameter-overrides, else UsePreviousValue (left out for a new
// stack, and for a parameter the stack does not have yet) —, its waiter,
// ExecuteChangeSet, the stack's waiter; the AWS CLI's words on stdout,
// exit status 255 when it fails. EPOCH is the virtual clock's.

func (a *app) deployCommand() *cobra.Command {
	var templateFile, stack, roleARN string
	var s3 deployS3
	var overrides, caps, notifications, tags []string
	var noExecute, disableRollback, noDisableRollback, failEmpty, noFailEmpty bool
	cmd := &cobra.Command{
		Use:   "deploy --template-file PATH --stack-name NAME [--parameter-overrides K=V ...]",
		Short: "Create or update a stack through a change set, as aws cloudformation deploy does",
		Long: `Deploy a template as 'aws cloudformation deploy' does: a change set (CREATE
for a new stack, UPDATE otherwise), executed, and waited for. Parameters not
in --parameter-overrides keep their previous values. An empty change set is
an error (exit 255, as the AWS CLI v1's default) unless
--no-fail-on-empty-changeset. The stack's events are shown on stderr as
they happen (--quiet hides them). With --s3-bucket the template is uploaded
into the local S3 directory (--s3-dir) and the change set made with its
TemplateURL, as the AWS CLI does; a template over 51,200 bytes needs it.`,
		Example: `  stacksim deploy --template-file app.yaml --stack-name app
  stacksim deploy --template-file app.yaml --stack-name app --parameter-overrides Env=prod Size=3 --capabilities CAPABILITY_IAM
  stacksim deploy --template-file app.yaml --stack-name app --no-fail-on-empty-changeset
  stacksim deploy --s3-dir s3 --template-file packaged.yaml --stack-name app --s3-bucket artefacts`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if templateFile == "" || stack == "" {
				return badInput(fmt.Errorf("the following arguments are required: --template-file, --stack-name"))
			}
			body, err := readfile.Read(templateFile, readfile.Limit{Max: 1 << 20, What: "a template file",
				Hint: "a template may hold at most 1 MB (AWS's limit for a template in S3)"})
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return deployFailed(a, fmt.Errorf("Invalid template path %s", templateFile))
				}
				return badInput(err)
			}
			if len(body) > template.MaxBodyBytes && s3.bucket == "" {
				return deployFailed(a, errors.New("Templates with a size greater than 51,200 bytes must be deployed via an S3 Bucket. "+
					"Please add the --s3-bucket parameter to your command. The local template will be copied to that S3 bucket and then deployed."))
			}
			params, err := parseKeyValues("parameter-overrides", overrides)
			if err != nil {
				return err
			}
			tagPairs, err := parseKeyValues("tags", tags)
			if err != nil {
				return err
			}
			capList, err := parseStringList("capabilities", caps)
			if err != nil {
				return badInput(err)
			}
			notifs, err := parseStringList("notification-arns", notifications)
			if err != nil {
				return badInput(err)
			}
			d := deployment{stack: stack, file: templateFile, body: string(body), overrides: params, tags: tagPairs,
				capabilities: capList, notifications: notifs, roleARN: roleARN, execute: !noExecute,
				disableRollback: disableRollback && !noDisableRollback, failOnEmpty: !noFailEmpty || failEmpty}
			if d.s3, err = a.deployUploader(s3); err != nil {
				return err
			}
			return a.deploy(cmd.Context(), d)
		},
	}
	f := cmd.Flags()
	f.StringVar(&templateFile, "template-file", "", "the template: a local file")
	f.StringVar(&stack, "stack-name", "", "the stack to create or update")
	f.StringArrayVar(&overrides, "parameter-overrides", nil, "Key=Value ... (or file://PATH of a JSON list of Key=Value, of ParameterKey/ParameterValue, or {\"Parameters\": {...}})")
	f.StringArrayVar(&caps, "capabilities", nil, "CAPABILITY_IAM, CAPABILITY_NAMED_IAM, CAPABILITY_AUTO_EXPAND ...")
	f.BoolVar(&noExecute, "no-execute-changeset", false, "create the change set and stop: print the command that reviews it")
	f.BoolVar(&disableRollback, "disable-rollback", false, "keep what was provisioned when the change set's execution fails")
	f.BoolVar(&noDisableRollback, "no-disable-rollback", false, "roll back when the execution fails (the default)")
	f.StringVar(&roleARN, "role-arn", "", "the service role (recorded, not used)")
	f.StringArrayVar(&notifications, "notification-arns", nil, "SNS topic ARNs (recorded, not notified)")
	f.BoolVar(&failEmpty, "fail-on-empty-changeset", false, "an empty change set is an error, exit 255 (the default)")
	f.BoolVar(&noFailEmpty, "no-fail-on-empty-changeset", false, "an empty change set is not an error: exit 0")
	f.StringArrayVar(&tags, "tags", nil, "Key=Value ... tags of the stack")
	s3.flags(f)
	return cmd
}

type deployment struct {
	stack, file, body, roleARN string
	overrides                  []keyValue
	tags                       []keyValue
	capabilities               []string
	notifications              []string
	execute                    bool
	disableRollback            bool
	failOnEmpty                bool
	s3                         *pkgexport.Uploader // --s3-bucket: the template goes by TemplateURL
}

type keyValue struct{ key, value string }

// parseKeyValues reads Key=Value arguments (split at the first =), or a
// file://PATH of JSON: a list of "Key=Value", a list of {ParameterKey,
// ParameterValue}, or {"Parameters": {"Key": "Value"}} (CodePipeline's).
func parseKeyValues(flag string, args []string) ([]keyValue, error) {
	var out []keyValue
	seen := map[string]int{}
	add := func(k, v string) {
		if i, ok := seen[k]; ok {
			out[i].value = v // a later value wins, as in the AWS CLI's dict
			return
		}
		seen[k] = len(out)
		out = append(out, keyValue{k, v})
	}
	for _, arg := range args {
		if strings.HasPrefix(arg, "file://") {
			data, err := readfile.Read(strings.TrimPrefix(arg, "file://"), readfile.Limit{Max: 1 << 20, What: "--" + flag})
			if err != nil {
				return nil, badInput(fmt.Errorf("Error parsing parameter '--%s': Unable to load paramfile %s: %v", flag, arg, err))
			}
			var list []any
			var pipeline struct{ Parameters map[string]string }
			switch {
			case json.Unmarshal(data, &list) == nil:
				for _, x := range list {
					switch t := x.(type) {
					case string:
						k, v, ok := strings.Cut(t, "=")
						if !ok {
							return nil, badInput(fmt.Errorf("['%s'] value passed to --%s must be of format Key=Value", t, flag))
						}
						add(k, v)
					case map[string]any:
						k, _ := t["ParameterKey"].(string)
						v, _ := t["ParameterValue"].(string)
						if k == "" {
							return nil, badInput(fmt.Errorf("--%s %s: an item has no ParameterKey", flag, arg))
						}
						add(k, v)
					}
				}
			case json.Unmarshal(data, &pipeline) == nil && pipeline.Parameters != nil:
				for _, k := range sortedKeys(pipeline.Parameters) {
					add(k, pipeline.Parameters[k])
				}
			default:
				return nil, badInput(fmt.Errorf("Error parsing parameter '--%s': %s holds neither a JSON list of Key=Value nor {\"Parameters\": {...}}", flag, arg))
			}
			continue
		}
		k, v, ok := strings.Cut(arg, "=")
		if !ok {
			return nil, badInput(fmt.Errorf("['%s'] value passed to --%s must be of format Key=Value", arg, flag))
		}
		add(k, v)
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// deployFailed ends deploy as the AWS CLI ends it on an error of its own:
// the message after a blank line on stderr, exit status 255.
func deployFailed(a *app, err error) error {
	fmt.Fprintf(a.stderr, "\n%v\n", err)
	return exitWith(exitWaiterFailed)
}

func (a *app) deploy(ctx context.Context, d deployment) error {
	parsed, _ := template.Parse(d.file, []byte(d.body))
	s, err := a.openWrite()
	if err != nil {
		return err
	}
	defer s.close()
	e := s.e
	disp := newDisplay(a.stderr, a.colorFor(a.stderr), d.stack)
	if parsed != nil {
		var ids, types []string
		for _, r := range parsed.Resources {
			ids, types = append(ids, r.LogicalID), append(types, r.Type)
		}
		disp.seed(append(ids, d.stack), types)
	}
	if !a.quiet {
		defer e.Subscribe(disp.event)()
	}

	// has_stack: a stack in REVIEW_IN_PROGRESS is not one yet.
	csType := "CREATE"
	var existing map[string]bool
	if out, err := e.DescribeStacks(ctx, engine.DescribeStacksInput{StackName: d.stack}); err == nil {
		if st := out.Stacks[0]; st.StackStatus != string(statemachine.StackStatusReviewInProgress) {
			csType = "UPDATE"
			existing = map[string]bool{}
			for _, p := range st.Parameters {
				existing[p.ParameterKey] = true
			}
		}
	}
	in := engine.CreateChangeSetInput{
		StackName: d.stack, TemplateBody: d.body, ChangeSetType: csType, Capabilities: d.capabilities,
		ChangeSetName: freeChangeSetName(ctx, e, d.stack),
		Description:   fmt.Sprintf("Created by stacksim deploy at %s UTC", e.Now().UTC().Format("2006-01-02T15:04:05")),
		RoleARN:       d.roleARN, NotificationARNs: d.notifications,
	}
	in.Parameters = mergeParameters(parsed, d.overrides, csType, existing)
	for _, t := range d.tags {
		in.Tags = append(in.Tags, engine.Tag{Key: t.key, Value: t.value})
	}
	in.Extensions = engine.Extensions{TemplateFile: d.file}
	if d.s3 != nil {
		if in.TemplateURL, err = uploadTemplate(d.s3, d.body); err != nil {
			return deployFailed(a, err)
		}
		in.TemplateBody = ""
	}
	out, err := e.CreateChangeSet(ctx, in)
	if err != nil {
		return a.deployAPIError("CreateChangeSet", err)
	}
	if err := s.save(); err != nil {
		return err
	}
	fmt.Fprint(a.stdout, "\nWaiting for changeset to be created..\n")
	cs, err := e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{ChangeSetName: out.Id, StackName: d.stack})
	if err != nil {
		return a.deployAPIError("DescribeChangeSet", err)
	}
	if cs.Status == engine.ChangeSetStatusFailed {
		if strings.Contains(cs.StatusReason, "The submitted information didn't contain changes.") ||
			strings.Contains(cs.StatusReason, "No updates are to be performed") {
			empty := fmt.Errorf("No changes to deploy. Stack %s is up to date", d.stack)
			if d.failOnEmpty {
				return deployFailed(a, empty)
			}
			fmt.Fprintf(a.stdout, "\n%v\n", empty)
			return nil
		}
		return deployFailed(a, fmt.Errorf("Failed to create the changeset: Waiter ChangeSetCreateComplete failed: Waiter encountered a terminal failure state: "+
			"For expression \"Status\" we matched expected path: \"FAILED\" Status: FAILED. Reason: %s", cs.StatusReason))
	}
	if !d.execute {
		fmt.Fprintf(a.stdout, "Changeset created successfully. Run the following command to review changes:\naws cloudformation describe-change-set --change-set-name %s\n", out.Id)
		return nil
	}
	if _, err := e.ExecuteChangeSet(ctx, engine.ExecuteChangeSetInput{ChangeSetName: out.Id, StackName: d.stack,
		DisableRollback: d.disableRollback}); err != nil {
		return a.deployAPIError("ExecuteChangeSet", err)
	}
	fmt.Fprint(a.stdout, "Waiting for stack create/update to complete\n")
	res, driveErr := drive(ctx, e, out.StackId, nil, 0)
	if err := s.saveUnlessInternal(driveErr); err != nil {
		return err
	}
	// The stack's waiter: StackCreateComplete or StackUpdateComplete.
	w := waiterNamed("stack-create-complete")
	if csType == "UPDATE" {
		w = waiterNamed("stack-update-complete")
	}
	state := "retry"
	for _, c := range w.acceptors {
		if c.matches(mustObject(&engine.DescribeStacksOutput{Stacks: []engine.Stack{res.Stack}}), "") {
			state = c.state
			break
		}
	}
	if state != "success" {
		return deployFailed(a, fmt.Errorf("Failed to create/update the stack. Run the following command\nto fetch the list of events leading up to the failure\naws cloudformation describe-stack-events --stack-name %s", d.stack))
	}
	fmt.Fprintf(a.stdout, "Successfully created/updated stack - %s\n", d.stack)
	return nil
}

// freeChangeSetName is the AWS CLI's name of a deploy's change set,
// awscli-cloudformation-package-deploy-EPOCH, with the virtual clock's
// EPOCH: a second later for each change set of the stack that has the
// name already (virtual time does not pass between two commands, where
// the wall clock the AWS CLI reads does).
func freeChangeSetName(ctx context.Context, e *engine.Engine, stack string) string {
	for epoch := e.Now().Unix(); ; epoch++ {
		name := fmt.Sprintf("awscli-cloudformation-package-deploy-%d", epoch)
		if _, err := e.DescribeChangeSet(ctx, engine.DescribeChangeSetInput{ChangeSetName: name, StackName: stack}); err != nil {
			return name
		}
	}
}

// mergeParameters gives every parameter of the template a value: the
// override, else UsePreviousValue — left out for a new stack and for a
// parameter the stack does not have yet (the AWS CLI's merge_parameters and
// create_changeset).
func mergeParameters(t *template.Template, overrides []keyValue, csType string, existing map[string]bool) []engine.Parameter {
	given := map[string]string{}
	for _, kv := range overrides {
		given[kv.key] = kv.value
	}
	var out []engine.Parameter
	if t == nil {
		for _, kv := range overrides {
			out = append(out, engine.Parameter{ParameterKey: kv.key, ParameterValue: kv.value})
		}
		return out
	}
	for _, p := range t.Parameters {
		if v, ok := given[p.Name]; ok {
			out = append(out, engine.Parameter{ParameterKey: p.Name, ParameterValue: v})
			continue
		}
		if csType == "UPDATE" && existing[p.Name] {
			out = append(out, engine.Parameter{ParameterKey: p.Name, UsePreviousValue: true})
		}
	}
	return out
}

// deployAPIError ends deploy on a refused call: the AWS CLI's message,
// exit status 255 (the AWS CLI's for any error).
func (a *app) deployAPIError(op string, err error) error {
	var api *engine.APIError
	if errors.As(err, &api) {
		fmt.Fprintf(a.stderr, "\n%s\n", api.CLIMessage(op))
		for _, te := range template.AsList(err) {
			if te.Line > 0 {
				fmt.Fprintln(a.stderr, te.Error())
			}
		}
		return exitWith(exitWaiterFailed)
	}
	return a.apiError(op, err)
}

func waiterNamed(command string) waiter {
	for _, w := range waiters {
		if w.command == command {
			return w
		}
	}
	panic("no waiter " + command)
}
