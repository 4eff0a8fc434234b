package webview

import (
	"sync"

	"github.com/stacksim/stacksim/engine"
)

// hub hands the engine's events to the pages reading the event stream.
// It subscribes to the engine while at least one page reads, and never
// blocks the engine: each page has a queue, capped, which its own
// goroutine writes out; a page that falls behind by more than the cap
// loses its queue and is told to read the state again (Lost).
type hub struct {
	e        *engine.Engine
	maxQueue int

	mu          sync.Mutex
	clients     map[*client]struct{}
	unsubscribe func()
	// left, when set (tests), is told each time a page leaves.
	left chan<- struct{}
}

// client is one page's queue.
type client struct {
	stackID string // "" for every stack's events
	notify  chan struct{}

	mu     sync.Mutex
	queue  []engine.StackEvent
	lost   bool
	loop   bool // the loop's state changed
	closed bool
}

func newHub(e *engine.Engine, maxQueue int) *hub {
	return &hub{e: e, maxQueue: maxQueue, clients: map[*client]struct{}{}}
}

// join adds a page reading the events of a stack ("": all).
func (h *hub) join(stackID string) *client {
	c := &client{stackID: stackID, notify: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clients[c] = struct{}{}
	if h.unsubscribe == nil {
		h.unsubscribe = h.e.Subscribe(h.deliver)
	}
	return c
}

// leave removes a page; the last one to leave unsubscribes the hub.
func (h *hub) leave(c *client) {
	h.mu.Lock()
	delete(h.clients, c)
	if len(h.clients) == 0 && h.unsubscribe != nil {
		h.unsubscribe()
		h.unsubscribe = nil
	}
	left := h.left
	h.mu.Unlock()
	c.mu.Lock()
	c.closed, c.queue = true, nil
	c.mu.Unlock()
	if left != nil {
		left <- struct{}{}
	}
}

func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.clients)
}

// deliver runs while the engine is locked: it only queues.
func (h *hub) deliver(ev engine.StackEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		if c.stackID == "" || c.stackID == ev.StackId {
			c.push(ev, h.maxQueue)
		}
	}
}

// loopChanged tells every page that the loop was held or released.
func (h *hub) loopChanged() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for c := range h.clients {
		c.mu.Lock()
		c.loop = true
		c.mu.Unlock()
		c.wake()
	}
}

func (c *client) push(ev engine.StackEvent, max int) {
	c.mu.Lock()
	switch {
	case c.closed || c.lost:
	case len(c.queue) >= max:
		c.queue, c.lost = nil, true
	default:
		c.queue = append(c.queue, ev)
	}
	c.mu.Unlock()
	c.wake()
}

func (c *client) wake() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// take empties the queue: the events, whether some were lost (then no
// events), and whether the loop changed.
func (c *client) take() (evs []engine.StackEvent, lost, loop bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	evs, lost, loop = c.queue, c.lost, c.loop
	c.queue, c.lost, c.loop = nil, false, false
	return evs, lost, loop
}
