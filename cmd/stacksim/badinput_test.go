package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every kind of bad input ends with a clear message on stderr, nothing on
// stdout, exit status 2, and the state file as it was.
func TestBadInput(t *testing.T) {
	c := newCLI(t)
	dir := fixtures + "/update-rollback-failed/"
	c.must(0, "create-stack", "--stack-name", "orders", "--template-body", "file://"+dir+"template-v1.yaml", "--quiet")
	c.must(1, "create-stack", "--stack-name", "failed", "--template-body", "file://"+fixtures+"/create-do-nothing/template.yaml",
		"--faults", "testdata/faults/throttles-fail.yaml", "--quiet")
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badTemplate := write("bad.yaml", "Resources:\n  Queue:\n    Type: AWS::SQS::Queue\n  Alias:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: !GetAtt Queu.Arn\n")
	badFaults := write("faults.yaml", "faults:\n  - match: {logicalId: Queue}\n    thrTottle: 3\n")
	withParam := write("param.yaml", "Parameters:\n  Env:\n    Type: String\n    AllowedValues: [dev, prod]\nResources:\n  T:\n    Type: AWS::SNS::Topic\n")
	badScenario := write("scenario.yaml", "name: x\nsteps:\n  - UpdateStak: {StackName: a}\n")
	v2 := "file://" + dir + "template-v2.yaml"
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown flag", []string{"create-stack", "--stack-nam", "x"}, []string{"unknown flag: --stack-nam", "Run 'stacksim create-stack --help' for usage."}},
		{"unknown command", []string{"create-stacks"}, []string{`unknown command "create-stacks"`, `Did you mean this?`, "Run 'stacksim --help' for usage."}},
		{"missing stack name", []string{"update-stack", "--use-previous-template"}, []string{"the following arguments are required: --stack-name"}},
		{"drift: nothing to change", []string{"drift-resource", "--stack-name", "orders", "--logical-resource-id", "Queue"},
			[]string{"say what changes: --set PROP=VALUE, --remove PROP (each repeatable) or --delete"}},
		{"drift: --set without =", []string{"drift-resource", "--stack-name", "orders", "--logical-resource-id", "Queue", "--set", "Size"},
			[]string{`--set "Size": give PROPERTY=VALUE`}},
		{"drift: no such resource", []string{"drift-resource", "--stack-name", "orders", "--logical-resource-id", "Nope", "--delete"},
			[]string{"Resource Nope does not exist for stack orders"}},
		{"drift: bad filter", []string{"describe-stack-resource-drifts", "--stack-name", "orders", "--stack-resource-drift-status-filters", "CHANGED"},
			[]string{"Value 'CHANGED' at 'stackResourceDriftStatusFilters' failed to satisfy constraint"}},
		{"missing template file", []string{"create-stack", "--stack-name", "x", "--template-body", "file://nope.yaml"},
			[]string{"Error parsing parameter '--template-body': Unable to load paramfile file://nope.yaml"}},
		{"bad template", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + badTemplate},
			[]string{"An error occurred (ValidationError) when calling the CreateStack operation: Template error: instance of Fn::GetAtt references undefined resource Queu", badTemplate + ":8:14: "}},
		{"parameter list", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", "ParameterKey=Env,ParameterValue=dev,prod"},
			[]string{"Parameter validation failed:", "Invalid type for parameter Parameters[0].ParameterValue, value: ['dev', 'prod']"}},
		{"parameter syntax", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", "ParameterKey"},
			[]string{"Error parsing parameter '--parameters': Expected: '=', received: 'EOF'"}},
		{"parameter unknown key", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", "Key=Env,Value=dev"},
			[]string{`Unknown parameter in Parameters[0]: "Key", must be one of: ParameterKey, ParameterValue, UsePreviousValue, ResolvedValue`}},
		{"parameter value", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", "ParameterKey=Env,ParameterValue=test"},
			[]string{"An error occurred (ValidationError) when calling the CreateStack operation: Parameter 'Env' must be one of AllowedValues"}},
		{"parameter json", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", `[{"ParameterKey": "Env",}]`},
			[]string{"Error parsing parameter '--parameters': Invalid JSON"}},
		{"tag without value", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--tags", "Key=team"},
			[]string{`Missing required parameter in Tags[0]: "Value"`}},
		{"bad faults file", []string{"update-stack", "--stack-name", "orders", "--template-body", v2, "--faults", badFaults},
			[]string{badFaults + `:3:5: unknown key "thrTottle"`, `did you mean "throttle"?`}},
		{"missing faults file", []string{"update-stack", "--stack-name", "orders", "--template-body", v2, "--faults", "nope.yaml"},
			[]string{"read fault file: open nope.yaml"}},
		{"not allowed in status", []string{"update-stack", "--stack-name", "failed", "--use-previous-template"},
			[]string{"An error occurred (ValidationError) when calling the UpdateStack operation: Stack:arn:aws:cloudformation:us-east-1:123456789012:stack/failed/", "is in ROLLBACK_COMPLETE state and can not be updated."}},
		{"continue not allowed", []string{"continue-update-rollback", "--stack-name", "orders"},
			[]string{"when calling the ContinueUpdateRollback operation"}},
		{"retain not allowed", []string{"delete-stack", "--stack-name", "orders", "--retain-resources", "Queue"},
			[]string{"RetainResources can only be specified when the stack is in the DELETE_FAILED state"}},
		{"no updates", []string{"update-stack", "--stack-name", "orders", "--use-previous-template"},
			[]string{"An error occurred (ValidationError) when calling the UpdateStack operation: No updates are to be performed."}},
		{"no such stack", []string{"describe-stacks", "--stack-name", "nope"},
			[]string{"An error occurred (ValidationError) when calling the DescribeStacks operation: Stack with id nope does not exist"}},
		{"bad until", []string{"update-stack", "--stack-name", "orders", "--template-body", v2, "--until", "Queue:UPDATED"},
			[]string{`--until "Queue:UPDATED"`}},
		{"bad output", []string{"describe-stacks", "--output", "yml"}, []string{"argument --output: Invalid choice"}},
		{"bad query", []string{"describe-stacks", "--query", "Stacks[0"}, []string{"Bad value for --query Stacks[0"}},
		{"bad region", []string{"--region", "eu-west-1", "describe-stacks"}, []string{"--region eu-west-1: the state file", "holds an account of region us-east-1"}},
		{"bad starting token", []string{"describe-stacks", "--starting-token", "nope"}, []string{"--starting-token \"nope\": not a NextToken that stacksim printed"}},
		{"bad cli input", []string{"describe-stacks", "--cli-input-json", `{"StackNme": "x"}`}, []string{`Unknown parameter in input: "StackNme", must be one of: StackName`}},
		{"cli input not JSON", []string{"describe-stacks", "--cli-input-json", "{\"StackName\": \"x\",\n"},
			[]string{"Error parsing parameter 'cli-input-json': Invalid JSON: Expecting property name enclosed in double quotes: line 2 column 1 (char 19)\nJSON received: {\"StackName\": \"x\","}},
		{"parameters with extra data", []string{"create-stack", "--stack-name", "x", "--template-body", "file://" + withParam, "--parameters", `[{"ParameterKey": "Env", "ParameterValue": "dev"}] ]`},
			[]string{"Error parsing parameter '--parameters': Invalid JSON: Extra data: line 1 column 52 (char 51)"}},
		{"cli input not YAML", []string{"describe-stacks", "--cli-input-yaml", "StackName: [x\n"},
			[]string{`Error parsing parameter '--cli-input-yaml': not valid YAML (line 2, column 1): did not find expected ',' or ']' (while parsing a flow sequence at line 1, column 12)`}},
		{"bad contract", []string{"--contract", "loose", "update-stack", "--stack-name", "orders", "--template-body", v2}, []string{`--contract "loose"`}},
		{"bad service token", []string{"--service-token", "arn:x=ftp://host", "update-stack", "--stack-name", "orders", "--template-body", v2}, []string{`unknown target "ftp://host"`}},
		{"bad exec quoting", []string{"--service-token", `arn:x=exec:./p "unclosed`, "update-stack", "--stack-name", "orders", "--template-body", v2}, []string{"close every quote"}},
		{"bad log level", []string{"--log-level", "loud", "describe-stacks"}, []string{`--log-level "loud"`}},
		{"bad scenario", []string{"run", badScenario}, []string{badScenario + `:3:5: unknown key "UpdateStak" in a step`}},
		{"missing scenario", []string{"run", "nope.yaml"}, []string{"scenario nope.yaml: open nope.yaml"}},
		{"both events and rest", []string{"step", "--stack-name", "orders", "--events", "2", "--to-rest"}, []string{"--events and --to-rest"}},
	}
	before, err := os.ReadFile(c.state)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := c.run(tt.args...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d\nstderr: %s", code, exitBadInput, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr does not contain %q:\n%s", w, errOut)
				}
			}
			after, err := os.ReadFile(c.state)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Errorf("the state file changed")
			}
		})
	}
}

// A refused call on a fresh directory writes no state file. The directory
// it made and the lock file stay (empty: no holder), so that a writer
// waiting on the lock keeps a lock on the file the next one locks.
func TestBadInputLeavesNoState(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fresh")
	state := filepath.Join(dir, "state.json")
	_, errOut, code := runCLI(t, "--state", state, "update-stack", "--stack-name", "nope", "--use-previous-template")
	if code != exitBadInput || !strings.Contains(errOut, "Stack [nope] does not exist") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("the refused call wrote %s (%v)", state, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("the directory made for the state file was removed: %v", err)
	}
	if len(entries) != 1 || entries[0].Name() != "state.json.lock" {
		t.Fatalf("the directory holds %v, want the lock file alone", entries)
	}
	if data, _ := os.ReadFile(state + ".lock"); len(data) != 0 {
		t.Errorf("the lock file still names a holder: %q", data)
	}
}
