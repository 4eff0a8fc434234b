package engine

import (
	"context"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/plan"
)

// A signal sent to a wait condition handle's URL: the JSON document that
// cfn-signal, or curl, PUTs to the presigned URL the handle's Ref is
// ({"Status": "SUCCESS", "Reason": ..., "UniqueId": ..., "Data": ...},
// using-cfn-waitcondition.html). stacksim serve takes it on its own port,
// at the URL's path and query.

const waitHandleType = "AWS::CloudFormation::WaitConditionHandle"

// WaitHandleSignal is a signal sent to a wait condition handle's URL.
type WaitHandleSignal struct {
	// URL is the URL the signal was sent to: the handle's, whatever its
	// scheme and host (only its path and query are compared).
	URL      string `json:"-"`
	Status   string `json:"Status"`
	Reason   string `json:"Reason,omitempty"`
	UniqueId string `json:"UniqueId"`
	Data     string `json:"Data,omitempty"`
}

// ErrNoWaitHandle answers a signal to a URL that is no handle of the
// account's (serve answers it as S3 answers a missing object).
type ErrNoWaitHandle struct{ URL string }

func (e *ErrNoWaitHandle) Error() string {
	return "no wait condition handle of the simulated account has the URL " + e.URL
}

// SignalWaitHandle delivers a signal sent to a wait condition handle's URL
// to the wait condition of the handle's stack that waits on it: SUCCESS
// counts once per UniqueId and its Data goes into the condition's Data
// attribute; FAILURE fails it ("WaitCondition received failed message:
// 'DATA' for uniqueId: ID"). The URL must be the handle's own, query and
// signature included.
//
// A signal to the handle of a wait condition that is complete is taken and
// changes nothing, as on AWS. A signal that no wait condition waits for yet
// is kept on the handle's record (AWS keeps every signal in S3, a repeated
// UniqueId the last one): a wait condition that starts waiting on the
// handle later counts the ones already there.
func (e *Engine) SignalWaitHandle(ctx context.Context, in WaitHandleSignal) error {
	u, err := url.Parse(in.URL)
	if err != nil {
		return &ErrNoWaitHandle{URL: in.URL}
	}
	// /arn:aws:cloudformation:REGION:ACCOUNT:stack/NAME/UUID/LOGICAL_ID
	p := strings.TrimPrefix(u.Path, "/")
	cut := strings.LastIndex(p, "/")
	if cut < 0 || !strings.HasPrefix(p, "arn:") {
		return &ErrNoWaitHandle{URL: in.URL}
	}
	stackPart, logicalID := p[:cut], p[cut+1:]
	// stack/NAME/UUID: the handle's stack by its name (the UUID is the
	// handle's own).
	_, rest, _ := strings.Cut(stackPart, ":stack/")
	stackName, _, _ := strings.Cut(rest, "/")
	if stackName == "" {
		return &ErrNoWaitHandle{URL: in.URL}
	}
	switch {
	case in.Status != SignalSuccess && in.Status != SignalFailure:
		return ValidationError("The signal's Status is %q: a wait condition signal's Status is SUCCESS or FAILURE", in.Status)
	case in.UniqueId == "":
		return ValidationError("The signal has no UniqueId: give each signal a UniqueId (cfn-signal uses the instance's id)")
	case utf8.RuneCountInString(in.UniqueId) > 64:
		return ValidationError("The signal's UniqueId is longer than 64 characters")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.update(func(tx *txn) error {
		st := tx.FindStack(stackName)
		if st == nil {
			return &ErrNoWaitHandle{URL: in.URL}
		}
		handle := tx.Resource(st.Num, logicalID)
		if handle == nil || handle.ResourceType != waitHandleType || !sameHandleURL(handle.PhysicalResourceId, u) {
			return &ErrNoWaitHandle{URL: in.URL}
		}
		op := tx.OperationOf(st.StackId)
		var rows []*store.StepRecord
		if op != nil && op.InMotion && op.Plan != nil {
			rows = tx.StepsOf(op.Id)
		}
		for _, row := range rows {
			if row.State != store.StepRunning || row.Part != partSignal || !row.Launched {
				continue
			}
			if h, _ := row.Props["Handle"].(string); h != handle.PhysicalResourceId {
				continue
			}
			r, err := e.openRun(ctx, tx, st)
			if err != nil {
				return err
			}
			s := r.step(int(row.Index))
			if s == nil || s.ResourceType != waitConditionType {
				continue
			}
			if err := r.signal(row.Clone(), s, in.UniqueId, in.Status, in.Data); err != nil {
				return err
			}
			if err := r.drain(); err != nil {
				return err
			}
			return r.flush()
		}
		if handleDone(tx, st, handle.PhysicalResourceId) {
			return nil // S3 keeps it; the wait condition is over and reads no more
		}
		// Kept for a wait condition that starts later.
		c := handle.Clone()
		c.HandleSignals = keepSignal(handle.HandleSignals, store.HandleSignal{UniqueId: in.UniqueId, Status: in.Status, Data: in.Data})
		tx.PutResource(c)
		return nil
	})
}

// keepSignal adds sig to the signals kept at a handle's URL: a repeated
// UniqueId replaces the one before, where it was (S3 keeps the last object
// of a key).
func keepSignal(kept []store.HandleSignal, sig store.HandleSignal) []store.HandleSignal {
	out := make([]store.HandleSignal, 0, len(kept)+1)
	replaced := false
	for _, k := range kept {
		if k.UniqueId == sig.UniqueId {
			k, replaced = sig, true
		}
		out = append(out, k)
	}
	if !replaced {
		out = append(out, sig)
	}
	return out
}

// keptSignals delivers to a wait condition that starts waiting the signals
// its handle's URL took before (in the order they came).
func (r *run) keptSignals(row *store.StepRecord, s *plan.Step) error {
	url, _ := row.Props["Handle"].(string)
	if url == "" {
		return nil
	}
	for _, rec := range r.tx.ResourcesOf(r.st.Num) {
		if rec.ResourceType != waitHandleType || rec.PhysicalResourceId != url || len(rec.HandleSignals) == 0 {
			continue
		}
		for _, sig := range rec.HandleSignals {
			cur := r.tx.Step(r.op.Id, row.Index)
			if cur == nil || cur.State != store.StepRunning || cur.Part != partSignal {
				return nil // complete, or failed, already
			}
			if err := r.signal(cur.Clone(), s, sig.UniqueId, sig.Status, sig.Data); err != nil {
				return err
			}
		}
	}
	return nil
}

// handleDone tells whether a wait condition of st on the handle whose URL
// is url is complete: a later signal is taken, and changes nothing.
func handleDone(tx *txn, st *store.StackRecord, url string) bool {
	for _, rec := range tx.ResourcesOf(st.Num) {
		if h, _ := rec.Properties["Handle"].(string); rec.ResourceType == waitConditionType && h == url &&
			strings.HasSuffix(string(rec.ResourceStatus), "_COMPLETE") {
			return true
		}
	}
	return false
}

// sameHandleURL tells whether u is the handle's URL: the same path and
// query (the presigned signature included), whatever the scheme and host a
// client sent it to.
func sameHandleURL(handleURL string, u *url.URL) bool {
	h, err := url.Parse(handleURL)
	if err != nil {
		return false
	}
	return h.EscapedPath() == u.EscapedPath() && h.RawQuery == u.RawQuery
}
