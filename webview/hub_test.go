package webview

import (
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stacksim/stacksim/api"
	"github.com/stacksim/stacksim/engine"
)

// A page that goes away takes its queue with it: after many pages opened
// and closed, no stream is left, the hub no longer listens to the
// engine, and no goroutine stays behind.
func TestStreamsLeaveNothingBehind(t *testing.T) {
	w := newWorld(t, api.Options{}, Options{})
	w.rollbackFailed()
	left := make(chan struct{}, 1000)
	w.view.hub.mu.Lock()
	w.view.hub.left = left
	w.view.hub.mu.Unlock()
	baseline := runtime.NumGoroutine()
	const pages = 50
	for round := 0; round < 3; round++ {
		var open []*sse
		for i := 0; i < pages; i++ {
			s := w.live("?name=orders")
			if ev, _ := s.next(); ev != "hello" {
				t.Fatalf("page %d: %s", i, ev)
			}
			open = append(open, s)
		}
		if n := w.view.Subscribers(); n != pages {
			t.Fatalf("%d streams open, want %d", n, pages)
		}
		for _, s := range open {
			s.close()
		}
		guard := time.After(20 * time.Second)
		for i := 0; i < pages; i++ {
			select {
			case <-left:
			case <-guard:
				t.Fatalf("round %d: %d of %d pages left", round, i, pages)
			}
		}
		if n := w.view.Subscribers(); n != 0 {
			t.Fatalf("%d streams after every page left", n)
		}
		w.view.hub.mu.Lock()
		subscribed := w.view.hub.unsubscribe != nil
		w.view.hub.mu.Unlock()
		if subscribed {
			t.Fatal("the hub still listens to the engine with no page")
		}
	}
	// The HTTP client's idle connections hold goroutines of their own.
	http.DefaultClient.CloseIdleConnections()
	deadline := time.After(20 * time.Second)
	for runtime.NumGoroutine() > baseline+2 {
		select {
		case <-deadline:
			t.Fatalf("%d goroutines, %d before the pages", runtime.NumGoroutine(), baseline)
		default:
			runtime.Gosched()
		}
	}
}

// A page that falls behind by more than its queue is told it lost events
// (and then reads the state again); the engine is never made to wait.
func TestSlowPageLoses(t *testing.T) {
	e, err := engine.New(engine.Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	h := newHub(e, 3)
	c := h.join("")
	defer h.leave(c)
	for i := 0; i < 5; i++ {
		h.deliver(engine.StackEvent{EventId: strings.Repeat("x", i)})
	}
	evs, lost, _ := c.take()
	if !lost || len(evs) != 0 {
		t.Fatalf("after 5 events in a queue of 3: lost %v, %d events", lost, len(evs))
	}
	h.deliver(engine.StackEvent{EventId: "next"})
	if evs, lost, _ := c.take(); lost || len(evs) != 1 {
		t.Fatalf("after the loss was told: lost %v, %d events", lost, len(evs))
	}
}
