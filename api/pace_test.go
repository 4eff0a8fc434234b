package api

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	cfn "github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation/types"

	"github.com/stacksim/stacksim/engine"
)

// fakeClock is a wall clock that moves when the test says.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	// waiting receives a value whenever someone starts to wait.
	waiting chan struct{}
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), waiting: make(chan struct{}, 100)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{at: c.now.Add(d), ch: ch})
	select {
	case c.waiting <- struct{}{}:
	default:
	}
	return ch
}

// Advance moves the clock and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if !w.at.After(c.now) {
			w.ch <- c.now
		} else {
			kept = append(kept, w)
		}
	}
	c.waiters = kept
}

func TestParsePace(t *testing.T) {
	for in, want := range map[string]float64{"": 0, "instant": 0, "realtime": 1, "x10": 10, "x0.5": 0.5} {
		p, err := ParsePace(in)
		if err != nil || p.Speed != want {
			t.Errorf("ParsePace(%q) = %v, %v", in, p, err)
		}
	}
	for _, in := range []string{"x0", "x-1", "fast", "10", "xinf", "xNaN"} {
		if _, err := ParsePace(in); err == nil {
			t.Errorf("ParsePace(%q) accepted", in)
		}
	}
}

const stallFaults = `
faults:
  - match: {logicalId: Slow, action: [create, update]}
    stall: {callbacks: 3, delaySeconds: 60}
    times: always
`

const slowTemplate = "Resources:\n  Slow:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Type: String\n      Value: v1\n"

func status(t *testing.T, c *cfn.Client, name string) types.StackStatus {
	t.Helper()
	return must(c.DescribeStacks(context.Background(), &cfn.DescribeStacksInput{StackName: aws.String(name)})).Stacks[0].StackStatus
}

// Paced, virtual time follows the (fake) wall clock: callers see
// IN_PROGRESS, and the operation ends when the clock says.
func TestPacedCallersSeeInProgress(t *testing.T) {
	clock := newFakeClock()
	ts := newTestServer(t, nil, Options{Pace: Pace{Speed: 10}, Clock: clock, Faults: loadFaults(t, stallFaults)})
	ctx := context.Background()
	c := ts.cfn
	must(c.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(slowTemplate)}))
	if got := status(t, c, "slow"); got != types.StackStatusCreateInProgress {
		t.Fatalf("right after CreateStack: %s", got)
	}
	// 10 s of wall time are 100 s of virtual time: one callback of 60 s
	// has come, two are left.
	clock.Advance(10 * time.Second)
	if got := status(t, c, "slow"); got != types.StackStatusCreateInProgress {
		t.Fatalf("after 100 virtual seconds: %s", got)
	}
	clock.Advance(8 * time.Second)
	if got := status(t, c, "slow"); got != types.StackStatusCreateInProgress {
		t.Fatalf("after 180 virtual seconds: %s", got)
	}
	clock.Advance(time.Second)
	if got := status(t, c, "slow"); got != types.StackStatusCreateComplete {
		t.Fatalf("after 190 virtual seconds: %s", got)
	}
	ev := must(c.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("slow")}))
	last := ev.StackEvents[0]
	// The same virtual instant as without pacing.
	instant := newTestServer(t, nil, Options{Faults: loadFaults(t, stallFaults)})
	must(instant.cfn.CreateStack(ctx, &cfn.CreateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(slowTemplate)}))
	want := *must(instant.cfn.DescribeStackEvents(ctx, &cfn.DescribeStackEventsInput{StackName: aws.String("slow")})).StackEvents[0].Timestamp
	if !last.Timestamp.Equal(want) || want.Sub(engine.DefaultEpoch) < 180*time.Second {
		t.Fatalf("CREATE_COMPLETE at %v, want %v", last.Timestamp, want)
	}
	// CancelUpdateStack, which only an update in motion allows.
	must(c.UpdateStack(ctx, &cfn.UpdateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(slowTemplate[:len(slowTemplate)-3] + "v2\n")}))
	if got := status(t, c, "slow"); got != types.StackStatusUpdateInProgress {
		t.Fatalf("right after UpdateStack: %s", got)
	}
	must(c.CancelUpdateStack(ctx, &cfn.CancelUpdateStackInput{StackName: aws.String("slow")}))
	clock.Advance(time.Minute)
	if got := status(t, c, "slow"); got != types.StackStatusUpdateRollbackComplete {
		t.Fatalf("after CancelUpdateStack and a minute: %s", got)
	}
}

// The driver moves the loop by itself when the clock reaches the next
// task, without any call.
func TestPacedDriverRunsWithoutCalls(t *testing.T) {
	clock := newFakeClock()
	ts := newTestServer(t, nil, Options{Pace: Pace{Speed: 1}, Clock: clock, Faults: loadFaults(t, stallFaults)})
	done := make(chan struct{})
	unsubscribe := ts.e.Subscribe(func(ev engine.StackEvent) {
		if ev.LogicalResourceId == "slow" && ev.ResourceStatus == "CREATE_COMPLETE" {
			close(done)
		}
	})
	defer unsubscribe()
	must(ts.cfn.CreateStack(context.Background(), &cfn.CreateStackInput{StackName: aws.String("slow"), TemplateBody: aws.String(slowTemplate)}))
	// Whenever the driver sleeps on the clock, move the clock a minute,
	// until the create is done (the guard is a failure, never a wait the
	// test needs).
	guard := time.After(10 * time.Second)
	for {
		select {
		case <-done:
			if ts.e.Now().Before(engine.DefaultEpoch.Add(180 * time.Second)) {
				t.Fatalf("done at %v", ts.e.Now())
			}
			return
		case <-clock.waiting:
			clock.Advance(time.Minute)
		case <-guard:
			t.Fatal("the driver did not finish the create")
		}
	}
}
