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
		from := uint64(0)
		if in.NextToken != "" {
			parts, err := decodeToken(in.NextToken, "DescribeStackEvents", 2)
			if err != nil {
				return err
			}
			seq, perr := strconv.ParseUint(parts[1], 10, 64)
			if perr != nil || parts[0] != st.StackId || seq == 0 {
				return invalidToken()
			}
			from = seq
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
