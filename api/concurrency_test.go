package api

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/stacksim/stacksim/engine"
)

// Eight clients at once, each with its own stack, over a state file saved
// after every change (run with -race): every call answered, every stack
// where its client left it, and the file reopened holds them all.
func TestConcurrentClients(t *testing.T) {
	for _, pace := range []Pace{{}, {Speed: 1000}} {
		t.Run(pace.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			e, err := engine.Open(path, engine.Options{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			clock := newFakeClock()
			ts := newTestServer(t, e, Options{Pace: pace, Clock: clock})
			ctx := context.Background()
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- client(ctx, ts.cfn, clock, fmt.Sprintf("s%d", i))
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			back, err := engine.OpenReadOnly(path, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer back.Close()
			out, err := back.ListStacks(ctx, engine.ListStacksInput{})
			if err != nil {
				t.Fatal(err)
			}
			complete := 0
			for _, s := range out.StackSummaries {
				if s.StackStatus == "UPDATE_COMPLETE" {
					complete++
				}
			}
			if complete != 8 {
				t.Fatalf("%d stacks UPDATE_COMPLETE in the saved state, want 8: %+v", complete, out.StackSummaries)
			}
		})
	}
}

// client creates a stack, waits for it, reads it, updates it and waits.
func client(ctx context.Context, c *cfn.Client, clock *fakeClock, name string) error {
	body := "Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: " + name + "\n"
	if _, err := c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String(name), TemplateBody: aws.String(body)}); err != nil {
		return err
	}
	if err := waitFor(ctx, c, clock, name, types.StackStatusCreateComplete); err != nil {
		return err
	}
	if _, err := c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String(name)}); err != nil {
		return err
	}
	if _, err := c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String(name), TemplateBody: aws.String(body + "      Description: two\n")}); err != nil {
		return err
	}
	return waitFor(ctx, c, clock, name, types.StackStatusUpdateComplete)
}

// waitFor polls a stack until it has a status, moving the fake clock
// between polls.
func waitFor(ctx context.Context, c *cfn.Client, clock *fakeClock, name string, want types.StackStatus) error {
	for i := 0; i < 1000; i++ {
		out, err := c.DescribeStacks(ctx, &cfn.DescribeStacksInput{StackName: aws.String(name)})
		if err != nil {
			return err
		}
		if got := out.Stacks[0].StackStatus; got == want {
			return nil
		}
		clock.Advance(time.Second)
	}
	return fmt.Errorf("%s never reached %s", name, want)
}
