package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/stacksim/stacksim/engine"
)

// A settings file gives the account-wide flags once: a custom resource's
// service token in .stacksim/config.yaml serves every command of the
// session, and the command line still wins over it.
func TestConfigServiceToken(t *testing.T) {
	t.Setenv("STACKSIM_TEST_RESPONDER", "1")
	t.Setenv(configEnv, "")
	t.Chdir(t.TempDir())
	if err := os.MkdirAll(".stacksim", 0o755); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf("# the session's settings\nservice-token:\n  - arn:aws:lambda:us-east-1:123456789012:function:hook=exec:%s from-config\nquiet: true\n", os.Args[0])
	if err := os.WriteFile(defaultConfigPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	tmpl := `Resources:
  Hook:
    Type: Custom::Hook
    Properties:
      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:hook
      Name: h
Outputs:
  Args:
    Value: !GetAtt Hook.Args
`
	args := func(name string) string {
		out, errOut, code := runCLI(t, "describe-stacks", "--stack-name", name)
		if code != 0 {
			t.Fatalf("describe-stacks: exit %d\n%s", code, errOut)
		}
		var resp engine.DescribeStacksOutput
		if err := json.Unmarshal([]byte(out), &resp); err != nil {
			t.Fatal(err)
		}
		return resp.Stacks[0].Outputs[0].OutputValue
	}
	_, errOut, code := runCLI(t, "create-stack", "--stack-name", "a", "--template-body", tmpl)
	if code != 0 {
		t.Fatalf("create-stack: exit %d\n%s", code, errOut)
	}
	if strings.Contains(errOut, "CREATE_IN_PROGRESS") {
		t.Errorf("quiet: true was not applied; the events were shown:\n%s", errOut)
	}
	if got := args("a"); got != "from-config" {
		t.Errorf("the target the settings file maps got words %q, want from-config", got)
	}
	token := fmt.Sprintf("arn:aws:lambda:us-east-1:123456789012:function:hook=exec:%s from-flag", os.Args[0])
	if _, errOut, code := runCLI(t, "--service-token", token, "create-stack", "--stack-name", "b", "--template-body", tmpl); code != 0 {
		t.Fatalf("create-stack: exit %d\n%s", code, errOut)
	}
	if got := args("b"); got != "from-flag" {
		t.Errorf("with --service-token given, the target got words %q, want from-flag (the command line wins)", got)
	}
}

// What a settings file may say, and how a wrong one is refused: with where
// (FILE:LINE:COL) and what to write instead; nothing runs.
func TestConfigRefusals(t *testing.T) {
	t.Setenv(configEnv, "")
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "settings.yaml")
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	state := filepath.Join(dir, "state.db")
	for _, tc := range []struct {
		name, text string
		want       string
	}{
		{"unknown key", "contract: report\ns3dir: ./s3\n", `settings.yaml:2:1: "s3dir" is not a setting (did you mean s3-dir?)`},
		{"a call's flag", "query: Stacks\n", `settings.yaml:1:1: "query" is not a setting`},
		{"a list for one value", "contract: [report, strict]\n", "settings.yaml:1:11: contract takes one value, not a list"},
		{"a mapping for a value", "s3-dir: {a: b}\n", "settings.yaml:1:9: s3-dir takes a value"},
		{"not a number", "stack-limit: many\n", `settings.yaml:1:14: stack-limit: invalid argument "many"`},
		{"checked later, still placed", "contract: bogus\n", `settings.yaml:1:11: --contract "bogus": want off, report or strict`},
		{"a key twice", "s3-dir: ./a\ncontract: report\ns3-dir: ./b\n", `settings.yaml:3:1: mapping key "s3-dir" already defined at line 1, column 1; keep one`},
		{"not a mapping", "- contract\n", "settings.yaml:1:1: a settings file is a mapping of flag names to values"},
		{"not YAML", "contract: [\n", "settings.yaml:2:1: not valid YAML: did not find expected node content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(tc.text)
			_, errOut, code := runCLI(t, "--config", p, "--state", state, "create-stack", "--stack-name", "x",
				"--template-body", "Resources:\n  Q: {Type: AWS::SQS::Queue}\n")
			if code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr:\n%s\nwant it to hold %q", errOut, tc.want)
			}
			if _, err := os.Stat(state); !os.IsNotExist(err) {
				t.Errorf("a refused settings file made the state file (%v)", err)
			}
		})
	}
	t.Run("named and missing", func(t *testing.T) {
		_, errOut, code := runCLI(t, "--config", filepath.Join(dir, "nope.yaml"), "--state", state, "list-stacks")
		if code != exitBadInput || !strings.Contains(errOut, "the settings file "+filepath.Join(dir, "nope.yaml")+": no such file or directory") {
			t.Errorf("exit %d\n%s", code, errOut)
		}
	})
	t.Run("named by the environment", func(t *testing.T) {
		t.Setenv(configEnv, write("contract: [a]\n"))
		_, errOut, code := runCLI(t, "--state", state, "list-stacks")
		if code != exitBadInput || !strings.Contains(errOut, "contract takes one value") {
			t.Errorf("$%s was not read: exit %d\n%s", configEnv, code, errOut)
		}
	})
}

// The file's values are read as the command line reads them, a list for a
// repeatable flag, one value for it too; flags the command line gave are
// left alone.
func TestApplyConfigData(t *testing.T) {
	newFlags := func() (*pflag.FlagSet, *[]string, *string, *bool) {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		tokens := fs.StringArray("service-token", nil, "")
		dir := fs.String("s3-dir", "", "")
		quiet := fs.Bool("quiet", false, "")
		return fs, tokens, dir, quiet
	}
	fs, _, _, quiet := newFlags()
	set, err := applyConfigData("c.yaml", []byte("service-token: [a=exec:x, b=exec:y]\ns3-dir: ./s3\nquiet: yes\n"), fs)
	if err == nil {
		t.Fatalf("quiet: yes was accepted (a flag's bool is true or false): %v %v", *quiet, set)
	}
	fs, tokens, dir, quiet := newFlags()
	set, err = applyConfigData("c.yaml", []byte("service-token: [a=exec:x, b=exec:y]\ns3-dir: ./s3\nquiet: true\n"), fs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(*tokens, ",") != "a=exec:x,b=exec:y" || *dir != "./s3" || !*quiet {
		t.Errorf("got tokens %q, s3-dir %q, quiet %v", *tokens, *dir, *quiet)
	}
	if set["s3-dir"] != "c.yaml:2:9" || set["service-token"] != "c.yaml:1:16" {
		t.Errorf("where each was set: %v", set)
	}
	fs, tokens, dir, _ = newFlags()
	if err := fs.Parse([]string{"--s3-dir", "given"}); err != nil {
		t.Fatal(err)
	}
	if _, err := applyConfigData("c.yaml", []byte("service-token: a=exec:x\ns3-dir: ./s3\n"), fs); err != nil {
		t.Fatal(err)
	}
	if *dir != "given" || strings.Join(*tokens, ",") != "a=exec:x" {
		t.Errorf("s3-dir %q (want given: the command line wins), tokens %q (want one, from a scalar)", *dir, *tokens)
	}
}

// FuzzApplyConfigData: no settings file panics the reader, and one it
// accepts sets only flags it may set.
func FuzzApplyConfigData(f *testing.F) {
	for _, seed := range []string{"s3-dir: ./s3\n", "service-token: [a=exec:x]\n", "contract: [\n", "- a\n", "quiet: true\nstack-limit: 3\n", "{a: {b: c}}", "&a x: *a\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		fs.StringArray("service-token", nil, "")
		fs.String("s3-dir", "", "")
		fs.Bool("quiet", false, "")
		fs.Int("stack-limit", 0, "")
		fs.String("query", "", "")
		set, err := applyConfigData("c.yaml", data, fs)
		if err != nil {
			return
		}
		for name := range set {
			if !configFlags[name] {
				t.Fatalf("set %s, which a settings file may not set", name)
			}
		}
		if fs.Changed("query") {
			t.Fatal("set --query")
		}
	})
}
