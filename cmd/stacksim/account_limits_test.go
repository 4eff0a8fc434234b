package main

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
)

// serve --stack-limit N: DescribeAccountLimits reports it, and a stack past
// it is refused with the SDK's typed LimitExceededException.
func TestServeStackLimit(t *testing.T) {
	bin := buildBinary(t)
	s := startServe(t, bin, t.TempDir(), "--stack-limit", "1")
	c := sdkClient(s.url)
	ctx := context.Background()
	out, err := c.DescribeAccountLimits(ctx, &cfn.DescribeAccountLimitsInput{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int32{}
	for _, l := range out.AccountLimits {
		got[aws.ToString(l.Name)] = aws.ToInt32(l.Value)
	}
	if got["StackLimit"] != 1 || got["StackOutputsLimit"] != 200 || got["ConcurrentResourcesLimit"] != 2500 {
		t.Fatalf("DescribeAccountLimits: %v", got)
	}
	if _, err := c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("one"), TemplateBody: aws.String(serveTemplate)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("two"), TemplateBody: aws.String(serveTemplate)})
	var limit *types.LimitExceededException
	if !errors.As(err, &limit) || limit.ErrorMessage() != "Limit for stack has been exceeded" {
		t.Fatalf("a second stack past --stack-limit 1: %v", err)
	}
}

// --stack-limit on the command line: refused past it; a limit below 1 is
// bad input.
func TestStackLimitFlag(t *testing.T) {
	c := newCLI(t)
	tmpl := "file://" + fixtures + "/notifications/app.yaml"
	c.must(exitOK, "--stack-limit", "1", "create-stack", "--stack-name", "one", "--template-body", tmpl, "--quiet")
	_, stderr := c.must(exitBadInput, "--stack-limit", "1", "create-stack", "--stack-name", "two", "--template-body", tmpl)
	if !strings.Contains(stderr, "An error occurred (LimitExceededException) when calling the CreateStack operation: Limit for stack has been exceeded") {
		t.Fatalf("past the limit: %s", stderr)
	}
	c.must(exitOK, "create-stack", "--stack-name", "two", "--template-body", tmpl, "--quiet")
	_, stderr = c.must(exitBadInput, "--stack-limit", "0", "describe-account-limits")
	if !strings.Contains(stderr, "--stack-limit 0: want a number of stacks of 1 or more") {
		t.Fatalf("--stack-limit 0: %s", stderr)
	}
	out, _ := c.must(exitOK, "describe-account-limits", "--query", "AccountLimits[?Name=='StackLimit'].Value", "--output", "text")
	if strings.TrimSpace(out) != "2000" {
		t.Fatalf("the default StackLimit: %q", out)
	}
}
