package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// TestMain lets the test binary act as a custom resource command target
// (exec:), as a helper process: with STACKSIM_TEST_RESPONDER set it reads
// one request on stdin, answers on stdout, and exits.
func TestMain(m *testing.M) {
	if os.Getenv("STACKSIM_TEST_RESPONDER") != "" {
		respond()
		return
	}
	os.Exit(m.Run())
}

func respond() {
	var req map[string]any
	data, _ := io.ReadAll(os.Stdin)
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	props, _ := req["ResourceProperties"].(map[string]any)
	// The words of the command line, as the target received them.
	args := strings.Join(os.Args[1:], "|")
	out, _ := json.Marshal(map[string]any{
		"Status":             "SUCCESS",
		"PhysicalResourceId": "exec-" + fmt.Sprint(props["Name"]),
		"Data":               map[string]any{"Args": args},
	})
	fmt.Println(string(out))
	os.Exit(0)
}

// A --service-token exec: target is split into words as a shell would
// (quotes kept together), and never run through a shell.
func TestServiceTokenExec(t *testing.T) {
	t.Setenv("STACKSIM_TEST_RESPONDER", "1")
	c := newCLI(t)
	tmpl := `Resources:
  Hook:
    Type: Custom::Hook
    Properties:
      ServiceToken: arn:aws:lambda:us-east-1:123456789012:function:hook
      Name: "$HOME; echo pwned"
Outputs:
  Args:
    Value: !GetAtt Hook.Args
`
	token := fmt.Sprintf(`arn:aws:lambda:us-east-1:123456789012:function:hook=exec:%s "two words" 'it''s' plain`, os.Args[0])
	c.must(0, "--service-token", token, "create-stack", "--stack-name", "hook", "--template-body", tmpl, "--quiet")
	out, _ := c.must(0, "describe-stacks", "--stack-name", "hook", "--output", "json")
	var resp engine.DescribeStacksOutput
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	st := resp.Stacks[0]
	if len(st.Outputs) != 1 || st.Outputs[0].OutputValue != "two words|its|plain" {
		t.Errorf("the command's words: %+v", st.Outputs)
	}
	res, _ := c.must(0, "describe-stack-resource", "--stack-name", "hook", "--logical-resource-id", "Hook", "--output", "text")
	if !strings.Contains(res, "exec-$HOME; echo pwned") {
		t.Errorf("the template value did not reach the target untouched:\n%s", res)
	}
}

func TestReportViolations(t *testing.T) {
	var b strings.Builder
	a := newApp(nil, nil, &b)
	a.contract = "report"
	a.reportViolations(engine.StackOperation{ContractViolationCount: 1, ContractViolations: []engine.ContractViolation{{
		Rule: "write-only-returned", Message: "the model holds the writeOnly property /properties/Password",
		LogicalResourceId: "Db", ResourceType: "AWS::RDS::DBInstance", Action: "CREATE", Timestamp: time.Date(2025, 1, 1, 0, 7, 0, 0, time.UTC)}}})
	want := "contract: 1 violation(s) of the resource handler contract:\n  00:07:00  Db AWS::RDS::DBInstance CREATE: write-only-returned: the model holds the writeOnly property /properties/Password\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
