package engine

import (
	"context"
	"strconv"

	"github.com/stacksim/stacksim/engine/store"
)

// DescribeStackEventsInput is DescribeStackEvents' request.
type DescribeStackEventsInput struct {
	// StackName is the stack's name or ARN; a deleted stack only by ARN.
	StackName string `json:"StackName,omitempty"`
	NextToken string `json:"NextToken,omitempty"`
}

// DescribeStackEventsOutput is DescribeStackEvents' answer.
type DescribeStackEventsOutput struct {
	StackEvents []StackEvent `json:"StackEvents"`
	NextToken   string       `json:"NextToken,omitempty"`
}

// DescribeStackEvents returns a stack's events, newest first, a page at a
// time.
func (e *Engine) DescribeStackEvents(ctx context.Context, in DescribeStackEventsInput) (*DescribeStackEventsOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &DescribeStackEventsOutput{StackEvents: []StackEvent{}}
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackNotFound(in.StackName)
		}
		from, err := eventCursor(in.NextToken, "DescribeStackEvents", st.StackId)
		if err != nil {
			return err
		}
		size := e.pageSize()
		tx.EventsBackward(st.Num, from, func(seq uint64, r *store.EventRecord) bool {
			if len(out.StackEvents) == size {
				out.NextToken = encodeToken("DescribeStackEvents", st.StackId, strconv.FormatUint(seq, 10))
				return false
			}
			out.StackEvents = append(out.StackEvents, stackEventOf(e.st, st, seq, r))
			return true
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eventCursor is the event sequence number a NextToken of call for the
// stack stackID goes on from (0, the newest, for no token).
func eventCursor(token, call, stackID string) (uint64, error) {
	if token == "" {
		return 0, nil
	}
	parts, err := decodeToken(token, call, 2)
	if err != nil {
		return 0, err
	}
	seq, perr := strconv.ParseUint(parts[1], 10, 64)
	if perr != nil || parts[0] != stackID || seq == 0 {
		return 0, invalidToken()
	}
	return seq, nil
}
