package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stacksim/stacksim/api"
)

// Numbers as Python writes them once json.loads read them (recorded with
// python3: print(repr(json.loads(s)))).
func TestPyNumberRepr(t *testing.T) {
	for in, want := range map[string]string{
		"1": "1", "-0": "0", "007": "7", "123456789012345678901234567890": "123456789012345678901234567890",
		"1.5": "1.5", "1e3": "1000.0", "1E3": "1000.0", "1.0": "1.0", "2.50": "2.5", "0.1e1": "1.0",
		"1e16": "1e+16", "9999999999999998.0": "9999999999999998.0", "1e-5": "1e-05", "0.0001": "0.0001",
		"-1.5e-7": "-1.5e-07", "12345678901234567890.0": "1.2345678901234567e+19", "1e400": "inf", "-1e400": "-inf",
		"0.1": "0.1", "-0.0": "-0.0", "1e22": "1e+22", "123.456e2": "12345.6",
	} {
		if got := pyNumberRepr(pyNumber(in)); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// Strings as repr() writes them.
func TestPyStrRepr(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "'abc'", "it's": `"it's"`, `a"b'c`: `'a"b\'c'`, `say "hi"`: `'say "hi"'`, "a\\b": `'a\\b'`,
		"\n\t\r": `'\n\t\r'`, "é€😀": "'é€😀'", "\x01\x7f": `'\x01\x7f'`, "\u00a0": `'\xa0'`, "\u2028": `'\u2028'`, "": "''",
	} {
		if got := pyStrRepr(in); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// Seeded JSON values written as botocore writes them (str, the class) are
// held to the machine's python3 reading the same text as the AWS CLI
// does (json.loads with OrderedDict), when it has one.
func TestPyValueMatchesPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on this machine: the recorded cases of TestPyNumberRepr and TestPyStrRepr stand alone")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	scalars := []string{`1`, `-12`, `0.5`, `1e3`, `2.5E-9`, `1e21`, `"a"`, `"it's"`, `"é\n"`, `"\u00a0"`, `true`, `false`, `null`, `"q\"x"`}
	// number is a random literal: an int, or a float of any size and
	// precision, as JSON may write it.
	number := func() string {
		digits := strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10)
		switch rng.IntN(4) {
		case 0:
			return "-" + digits
		case 1:
			return digits
		case 2:
			return digits[:1] + "." + digits + "e" + strconv.Itoa(rng.IntN(60)-30)
		}
		return "0." + digits
	}
	var gen func(depth int) string
	gen = func(depth int) string {
		switch k := rng.IntN(5); {
		case k == 4:
			return number()
		case depth > 2 || k == 0:
			return scalars[rng.IntN(len(scalars))]
		case k == 1:
			items := make([]string, rng.IntN(3))
			for i := range items {
				items[i] = gen(depth + 1)
			}
			return "[" + strings.Join(items, ",") + "]"
		default:
			members := make([]string, rng.IntN(3))
			for i := range members {
				members[i] = fmt.Sprintf(`"k%d":%s`, rng.IntN(3), gen(depth+1))
			}
			return "{" + strings.Join(members, ",") + "}"
		}
	}
	var cases []string
	for range 1000 {
		cases = append(cases, gen(0))
	}
	script := `import json, sys, collections
for line in sys.stdin:
    v = json.loads(line, object_pairs_hook=collections.OrderedDict)
    sys.stdout.write(str(v) + " | " + str(type(v)) + "\0")
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(cases, "\n") + "\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(out.String(), "\x00"), "\x00")
	for i, c := range cases {
		v, err := decodePyJSON(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if got := pyArgStr(v) + " | " + pyClass(v); got != want[i] {
			t.Errorf("%s:\n got %s\nwant %s", c, got, want[i])
		}
	}
}

// Values of the wrong type are refused as the AWS CLI refuses them, in its
// words and order (recorded with the machine's AWS CLI v1, whose parameter
// validation runs before it connects).
func TestParameterValidationAsAWSCLI(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--parameters",
			`[{"ParameterKey":1.5,"ParameterValue":1e3,"UsePreviousValue":"x"},["a",{"b":null}],true]`},
			"Parameter validation failed:\n" +
				"Invalid type for parameter Parameters[0].ParameterKey, value: 1.5, type: <class 'float'>, valid types: <class 'str'>\n" +
				"Invalid type for parameter Parameters[0].ParameterValue, value: 1000.0, type: <class 'float'>, valid types: <class 'str'>\n" +
				"Invalid type for parameter Parameters[0].UsePreviousValue, value: x, type: <class 'str'>, valid types: <class 'bool'>\n" +
				"Invalid type for parameter Parameters[1], value: ['a', OrderedDict([('b', None)])], type: <class 'list'>, valid types: <class 'dict'>\n" +
				"Invalid type for parameter Parameters[2], value: True, type: <class 'bool'>, valid types: <class 'dict'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--parameters", `[1]`},
			"Parameter validation failed:\nInvalid type for parameter Parameters[0], value: 1, type: <class 'int'>, valid types: <class 'dict'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--parameters", `[{"ParameterKey":1}]`},
			"Parameter validation failed:\nInvalid type for parameter Parameters[0].ParameterKey, value: 1, type: <class 'int'>, valid types: <class 'str'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--capabilities", `[1, "a", {"x":"it's"}]`},
			"Parameter validation failed:\n" +
				"Invalid type for parameter Capabilities[0], value: 1, type: <class 'int'>, valid types: <class 'str'>\n" +
				"Invalid type for parameter Capabilities[2], value: OrderedDict([('x', \"it's\")]), type: <class 'collections.OrderedDict'>, valid types: <class 'str'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--rollback-configuration", `{"RollbackTriggers":{"a":1},"MonitoringTimeInMinutes":"x"}`},
			"Parameter validation failed:\n" +
				"Invalid type for parameter RollbackConfiguration.RollbackTriggers, value: OrderedDict([('a', 1)]), type: <class 'collections.OrderedDict'>, valid types: <class 'list'>, <class 'tuple'>\n" +
				"Invalid type for parameter RollbackConfiguration.MonitoringTimeInMinutes, value: x, type: <class 'str'>, valid types: <class 'int'>"},
		{[]string{"create-change-set", "--stack-name", "a", "--change-set-name", "c", "--template-body", "x", "--change-set-type", "IMPORT",
			"--resources-to-import", `[1,{"X":1,"ResourceIdentifier":{"a":2}}]`},
			"Parameter validation failed:\n" +
				"Invalid type for parameter ResourcesToImport[0], value: 1, type: <class 'int'>, valid types: <class 'dict'>\n" +
				"Missing required parameter in ResourcesToImport[1]: \"ResourceType\"\n" +
				"Missing required parameter in ResourcesToImport[1]: \"LogicalResourceId\"\n" +
				"Unknown parameter in ResourcesToImport[1]: \"X\", must be one of: ResourceType, LogicalResourceId, ResourceIdentifier\n" +
				"Invalid type for parameter ResourcesToImport[1].ResourceIdentifier.a, value: 2, type: <class 'int'>, valid types: <class 'str'>"},
		{[]string{"delete-stack", "--stack-name", "a", "--retain-resources", `[2]`},
			"Parameter validation failed:\nInvalid type for parameter RetainResources[0], value: 2, type: <class 'int'>, valid types: <class 'str'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--notification-arns", `[2]`},
			"Parameter validation failed:\nInvalid type for parameter NotificationARNs[0], value: 2, type: <class 'int'>, valid types: <class 'str'>"},
		{[]string{"describe-events", "--stack-name", "a", "--filters", `{"FailedEvents":"yes","X":1}`},
			"Parameter validation failed:\n" +
				"Unknown parameter in Filters: \"X\", must be one of: FailedEvents\n" +
				"Invalid type for parameter Filters.FailedEvents, value: yes, type: <class 'str'>, valid types: <class 'bool'>"},
		{[]string{"describe-events", "--stack-name", "a", "--filters", `{"FailedEvents":"true"}`},
			"Parameter validation failed:\nInvalid type for parameter Filters.FailedEvents, value: true, type: <class 'str'>, valid types: <class 'bool'>"},
		{[]string{"describe-events", "--stack-name", "a", "--filters", "FailedEvents=yes"},
			"Parameter validation failed:\nInvalid type for parameter Filters.FailedEvents, value: yes, type: <class 'str'>, valid types: <class 'bool'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--tags", `{"Value":1,"Extra":"e","Key":"k"}`},
			"Parameter validation failed:\n" +
				"Unknown parameter in Tags[0]: \"Extra\", must be one of: Key, Value\n" +
				"Invalid type for parameter Tags[0].Value, value: 1, type: <class 'int'>, valid types: <class 'str'>"},
		{[]string{"create-stack", "--cli-input-json", `{"StackName":"a","TemplateBody":"x","Parameters":[1],"DisableRollback":"yes","TimeoutInMinutes":"5"}`},
			"Parameter validation failed:\n" +
				"Invalid type for parameter Parameters[0], value: 1, type: <class 'int'>, valid types: <class 'dict'>\n" +
				"Invalid type for parameter DisableRollback, value: yes, type: <class 'str'>, valid types: <class 'bool'>\n" +
				"Invalid type for parameter TimeoutInMinutes, value: 5, type: <class 'str'>, valid types: <class 'int'>"},
		{[]string{"create-stack", "--cli-input-json", `{"TemplateBody":"x","TimeoutInMinutes":0}`},
			"Parameter validation failed:\n" +
				"Missing required parameter in input: \"StackName\"\n" +
				"Invalid value for parameter TimeoutInMinutes, value: 0, valid min value: 1"},
		{[]string{"delete-stack", "--cli-input-json", `{"StackName":"a","RetainResources":"r","X":{}}`},
			"Parameter validation failed:\n" +
				"Unknown parameter in input: \"X\", must be one of: StackName, RetainResources, RoleARN, ClientRequestToken, DeletionMode\n" +
				"Invalid type for parameter RetainResources, value: r, type: <class 'str'>, valid types: <class 'list'>, <class 'tuple'>"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--timeout-in-minutes", "0", "--role-arn", ""},
			"Parameter validation failed:\n" +
				"Invalid value for parameter TimeoutInMinutes, value: 0, valid min value: 1\n" +
				"Invalid length for parameter RoleARN, value: 0, valid min length: 20"},
		{[]string{"create-change-set", "--stack-name", "a", "--change-set-name", "", "--template-body", "x"},
			"Parameter validation failed:\nInvalid length for parameter ChangeSetName, value: 0, valid min length: 1"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--tags", `[{"Key":"","Value":""}]`},
			"Parameter validation failed:\n" +
				"Invalid length for parameter Tags[0].Key, value: 0, valid min length: 1\n" +
				"Invalid length for parameter Tags[0].Value, value: 0, valid min length: 1"},
		{[]string{"create-stack", "--stack-name", "a", "--template-body", "x", "--parameters", "ParameterKey=k,UsePreviousValue=yes"},
			"Parameter validation failed:\nInvalid type for parameter Parameters[0].UsePreviousValue, value: yes, type: <class 'str'>, valid types: <class 'bool'>"},
	}
	// stacksim's answers where they add to the AWS CLI's: its own flags
	// after the members an input may have.
	ours := map[string]string{`delete-stack --cli-input-json {"StackName":"a","RetainResources":"r","X":{}}`: "Parameter validation failed:\n" +
		"Unknown parameter in input: \"X\", must be one of: StackName, RetainResources, RoleARN, ClientRequestToken, DeletionMode, Faults, Until\n" +
		"Invalid type for parameter RetainResources, value: r, type: <class 'str'>, valid types: <class 'list'>, <class 'tuple'>"}
	aws, _ := exec.LookPath("aws")
	for _, tc := range cases {
		_, errOut, code := newCLI(t).run(tc.args...)
		got := strings.TrimSpace(strings.TrimPrefix(errOut, "stacksim: "))
		want := tc.want
		if o, ok := ours[strings.Join(tc.args, " ")]; ok {
			want = o
		}
		if code != 2 || got != want {
			t.Errorf("%s: exit %d\n got: %s\nwant: %s", strings.Join(tc.args, " "), code, got, want)
		}
		if aws == "" {
			continue
		}
		// The recorded answer is still the AWS CLI's.
		cmd := exec.Command(aws, append([]string{"--endpoint-url", "http://127.0.0.1:9", "cloudformation"}, tc.args...)...)
		cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=x", "AWS_SECRET_ACCESS_KEY=x", "AWS_DEFAULT_REGION=us-east-1", "AWS_CONFIG_FILE=/dev/null")
		out, _ := cmd.CombinedOutput()
		if cli := strings.TrimSpace(string(out)); cli != tc.want {
			t.Errorf("%s: the AWS CLI says\n%s\nthe recorded answer is\n%s", strings.Join(tc.args, " "), cli, tc.want)
		}
	}
}

// Whatever JSON the AWS CLI accepts, decodePyJSON reads it, and what it
// reads is written without a panic; an object's keys are each once, in the
// order of their first occurrence.
func FuzzDecodePyJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1.5,"x",null,true],"a":2}`, `[]`, `{}`, `"it's"`, `-0.0e-0`, `[{"k":{"k":{}}}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		v, err := decodePyJSON(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		_ = pyArgStr(v) + pyClass(v)
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case *pyDict:
				if len(x.keys) != len(x.vals) {
					t.Fatalf("%q: %d keys for %d values", s, len(x.keys), len(x.vals))
				}
				for _, k := range x.keys {
					walk(x.vals[k])
				}
			case []any:
				for _, item := range x {
					walk(item)
				}
			}
		}
		walk(v)
	})
}

// --cli-input-json: stacksim's own flags are members after the model's; a
// member the model has and stacksim does not is refused by name, not as
// unknown; a member the command line gives wins and is not checked.
func TestCLIInputJSONMembers(t *testing.T) {
	c := newCLI(t)
	_, errOut, code := c.run("create-stack", "--cli-input-json", `{"StackName":"a","X":1}`)
	if want := "Unknown parameter in input: \"X\", must be one of: StackName, TemplateBody, TemplateURL, Parameters, DisableRollback, RollbackConfiguration, TimeoutInMinutes, NotificationARNs, Capabilities, ResourceTypes, RoleARN, OnFailure, StackPolicyBody, StackPolicyURL, Tags, ClientRequestToken, EnableTerminationProtection, RetainExceptOnCreate, Faults, NoDisableRollback, Until\n"; code != 2 || !strings.HasSuffix(errOut, want) {
		t.Errorf("exit %d:\n%s\nwant it to end with\n%s", code, errOut, want)
	}
	_, errOut, code = c.run("create-stack", "--cli-input-json", `{"StackName":"a","TemplateBody":"x","ResourceTypes":["AWS::*"]}`)
	if want := "stacksim: --cli-input-json: stacksim does not support ResourceTypes in CreateStack yet: leave it out (stacksim would otherwise ignore it)\n"; code != 2 || errOut != want {
		t.Errorf("exit %d:\n%s\nwant\n%s", code, errOut, want)
	}
	_, errOut, _ = c.run("create-stack", "--stack-name", "a", "--cli-input-json", `{"StackName":1,"TemplateBody":"Resources: {}"}`)
	if strings.Contains(errOut, "Parameter validation failed") {
		t.Errorf("the command line's --stack-name did not win over the input's: %s", errOut)
	}
	if _, err := os.Stat(c.state); err == nil {
		t.Error("a refused call wrote a state file")
	}
}

// flagOf names a member's flag as the AWS CLI does: for every command of
// an operation, each member of its input whose flag stacksim has is found
// by that name (so its minimum is checked).
func TestFlagOfEveryMember(t *testing.T) {
	root := newApp(nil, nil, nil).rootCommand()
	checked := 0
	for _, cmd := range root.Commands() {
		shape, ok := api.InputShape(apiName(cmd.Name()))
		if !ok {
			continue
		}
		s, _ := api.ShapeNamed(shape)
		for _, m := range s.Members {
			name := flagOf(m.Name)
			dashless := strings.ToLower(m.Name)
			cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if strings.ReplaceAll(f.Name, "-", "") == dashless && f.Name != name {
					t.Errorf("%s: member %s is flag --%s, flagOf says --%s", cmd.Name(), m.Name, f.Name, name)
				}
			})
			if cmd.LocalFlags().Lookup(name) != nil {
				checked++
			}
		}
	}
	t.Logf("%d members have a flag", checked)
	if checked < 50 {
		t.Fatalf("only %d members found a flag: the commands or the model are not what this test expects", checked)
	}
}
