package api

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stacksim/stacksim/engine"
)

// Pacing: how virtual time moves while the server runs.
//
//   - instant (the default): a call that starts an operation returns once
//     the operation has run to rest in virtual time, so every waiter
//     succeeds on its first poll;
//   - realtime, xN: virtual time follows the wall clock (N times faster):
//     a driver moves the engine's clock to where the wall clock says and
//     runs what is due, and every call first catches up the same way, so
//     callers see IN_PROGRESS statuses and events arrive as they poll.
//
// In any mode the loop may be held (hold.go): nothing runs but what Step
// asks for, so that a stack can be walked through its events one at a
// time.

// Pace is a pacing mode: Speed 0 is instant, otherwise the seconds of
// virtual time per second of wall time.
type Pace struct {
	Speed float64
}

// Instant reports whether the pace is instant.
func (p Pace) Instant() bool { return p.Speed == 0 }

func (p Pace) String() string {
	switch {
	case p.Speed == 0:
		return "instant"
	case p.Speed == 1:
		return "realtime"
	}
	return "x" + strconv.FormatFloat(p.Speed, 'g', -1, 64)
}

// ParsePace reads --pace: instant, realtime or xN (N > 0, e.g. x10, x0.5).
func ParsePace(s string) (Pace, error) {
	switch s {
	case "", "instant":
		return Pace{}, nil
	case "realtime":
		return Pace{Speed: 1}, nil
	}
	if n, ok := strings.CutPrefix(s, "x"); ok {
		if f, err := strconv.ParseFloat(n, 64); err == nil && f > 0 && f < 1e9 {
			return Pace{Speed: f}, nil
		}
	}
	return Pace{}, fmt.Errorf("--pace %q: want instant, realtime or xN (N times the wall clock, e.g. x10)", s)
}

// Clock is the wall clock the paced modes follow; tests give a fake one.
type Clock interface {
	Now() time.Time
	// After sends on the channel once d has passed.
	After(d time.Duration) <-chan time.Time
}

type wallClock struct{}

func (wallClock) Now() time.Time                         { return time.Now() }
func (wallClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// pacer moves virtual time for the server.
type pacer struct {
	e     *engine.Engine
	pace  Pace
	clock Clock
	// save makes what the loop did durable (Server.save).
	save func() error
	// onError reports a failure of the driver (logged).
	onError func(error)

	mu sync.Mutex
	// Virtual time = virtBase + (wall - wallBase) × speed.
	wallBase, virtBase time.Time
	wake               chan struct{}
	// held: the loop runs only when Step asks (hold.go).
	held bool
}

func newPacer(e *engine.Engine, pace Pace, clock Clock) *pacer {
	if clock == nil {
		clock = wallClock{}
	}
	return &pacer{e: e, pace: pace, clock: clock, wallBase: clock.Now(), virtBase: e.Now(), wake: make(chan struct{}, 1)}
}

// virtualAt is the virtual time that a wall time stands for.
func (p *pacer) virtualAt(wall time.Time) time.Time {
	return p.virtBase.Add(time.Duration(float64(wall.Sub(p.wallBase)) * p.pace.Speed))
}

// wallAt is the wall time at which a virtual time comes.
func (p *pacer) wallAt(virt time.Time) time.Time {
	return p.wallBase.Add(time.Duration(float64(virt.Sub(p.virtBase)) / p.pace.Speed))
}

// untilDue is the wall time to wait until a virtual time comes; false
// while the loop is held (only Step and Release move it then).
func (p *pacer) untilDue(due time.Time) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held {
		return 0, false
	}
	return max(p.wallAt(due).Sub(p.clock.Now()), 0), true
}

// catchUp runs what is due up to the virtual time of now (paced modes),
// and reports whether anything ran.
func (p *pacer) catchUp(ctx context.Context) (bool, error) {
	if p.pace.Instant() {
		return false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held {
		return false, nil
	}
	res, err := p.e.Drive(ctx, engine.RunOptions{Through: p.virtualAt(p.clock.Now())})
	return res.Tasks > 0, err
}

// started is called after a call that may have started an operation:
// instant runs it to rest; the paced modes wake the driver.
func (p *pacer) started(ctx context.Context) error {
	if p.pace.Instant() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.held {
			return nil
		}
		// With --signals manual a resource waiting for signals waits for
		// the client's SignalResource, not its timeout.
		_, err := p.e.Drive(ctx, engine.RunOptions{StopAtSignals: true})
		return err
	}
	p.wakeDriver()
	return nil
}

// wakeDriver makes the driver look at the queue again.
func (p *pacer) wakeDriver() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// drive runs the paced loop until ctx is done: catch up, save, sleep
// until the next task is due (or a call wakes it). After a failure it
// waits for the next call rather than trying again at once.
func (p *pacer) drive(ctx context.Context) {
	if p.pace.Instant() {
		return
	}
	for {
		ran, err := p.catchUp(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil && ran {
			err = p.save()
		}
		if err != nil && p.onError != nil {
			p.onError(err)
		}
		var timer <-chan time.Time
		if due, ok := p.e.NextDue(); ok && err == nil {
			if d, ok := p.untilDue(due); ok {
				timer = p.clock.After(d)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-p.wake:
		case <-timer:
		}
	}
}
