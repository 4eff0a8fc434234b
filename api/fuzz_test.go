package api

import (
	"errors"
	"net/url"
	"sort"
	"testing"
)

// FuzzFormDecoder feeds arbitrary forms to the decoder and the model's
// checks of every operation served: they answer a *formError or a message,
// never panic, and never fail as stacksim's own bug (a plain error is a
// field the decoder could not fill: a mismatch between the SDK's schema and
// its struct).
func FuzzFormDecoder(f *testing.F) {
	seeds := []string{
		"StackName=app&TemplateBody=Resources%3A+%7B%7D",
		"Parameters.member.1.ParameterKey=Env&Parameters.member.1.ParameterValue=prod&Parameters.member.2.UsePreviousValue=true",
		"Tags=&NotificationARNs=&Capabilities.member.1=CAPABILITY_IAM",
		"Tags.member.1.Key=a&Tags.member.1.Value=b&Tags.member.10.Key=c",
		"ResourcesToImport.member.1.ResourceIdentifier.entry.1.key=Name&ResourcesToImport.member.1.ResourceIdentifier.entry.1.value=x",
		"RollbackConfiguration.RollbackTriggers.member.1.Arn=arn&RollbackConfiguration.MonitoringTimeInMinutes=5",
		"TimeoutInMinutes=99999999999&DisableRollback=TRUE&EnableTerminationProtection=no",
		"Tags.member.0.Key=x&Tags.member.01.Key=y&Tags.member.-1.Key=z",
		"StackName.member.1=x&Parameters=x&Parameters.member=y",
		"DeploymentConfig.Mode=STANDARD&DeploymentConfig.DisableRollback=false",
		"%zz=1&a..b=2&.=3",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	names := make([]string, 0, len(operations()))
	for name := range operations() {
		names = append(names, name)
	}
	sort.Strings(names)
	f.Fuzz(func(t *testing.T, body string) {
		vals, err := url.ParseQuery(body)
		if err != nil {
			return // answered MalformedQueryString before the decoder
		}
		tree := parseFormTree(vals)
		for _, name := range names {
			op := operations()[name]
			in := op.newInput()
			if err := decodeForm(tree, op.inputSchema, in); err != nil {
				var fe *formError
				if !errors.As(err, &fe) {
					t.Fatalf("%s: %q: not a form error: %v", name, body, err)
				}
				continue
			}
			_ = validateInput(modelOperations[name], in)
			_ = op.givenUnsupported(in)
		}
	})
}
