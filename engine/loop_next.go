package engine

import "time"

// NextDue returns the virtual time at which the next queued task is due,
// and false when nothing is queued (every stack is at rest). A task due at
// or before Now runs at the next run of the loop. Callers that pace the
// loop against a clock of their own (stacksim serve) sleep until then.
func (e *Engine) NextDue() (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t := e.st.Queue.Peek()
	if t == nil {
		return time.Time{}, false
	}
	return time.Unix(0, t.Due()).UTC(), true
}
