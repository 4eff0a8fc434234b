package engine

import (
	"context"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/statemachine"
)

// DescribeStackResourceInput is DescribeStackResource's request.
type DescribeStackResourceInput struct {
	StackName         string `json:"StackName"`
	LogicalResourceId string `json:"LogicalResourceId"`
}

// DescribeStackResourceOutput is DescribeStackResource's answer.
type DescribeStackResourceOutput struct {
	StackResourceDetail StackResourceDetail `json:"StackResourceDetail"`
}

// DescribeStackResource describes one resource of a stack.
func (e *Engine) DescribeStackResource(ctx context.Context, in DescribeStackResourceInput) (*DescribeStackResourceOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if in.LogicalResourceId == "" {
		return nil, requiredError("logicalResourceId")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DescribeStackResourceOutput
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			// Recorded from AWS (a botocore traceback): "Stack 'NAME' does
			// not exist".
			return ValidationError("Stack '%s' does not exist", in.StackName)
		}
		r := tx.Resource(st.Num, in.LogicalResourceId)
		if r == nil || (r.ResourceStatus == statemachine.ResourceStatusDeleteComplete && st.Live()) {
			// A resource deleted (by a create's rollback, say) does not
			// exist any more for DescribeStackResource of the live stack (a
			// deleted stack, by its ARN, still shows its resources), though
			// ListStackResources still shows it DELETE_COMPLETE (issue 15's
			// comparison with AWS; BEHAVIOUR.md §8 for the wording).
			return resourceNotFound(in.LogicalResourceId, in.StackName)
		}
		out = &DescribeStackResourceOutput{StackResourceDetail: resourceDetail(r, st)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// moreRecent reports whether a is to be preferred to b as the stack a
// physical id names: a live stack over a deleted one, then the newer.
func moreRecent(a, b *store.StackRecord) bool {
	if a.Live() != b.Live() {
		return a.Live()
	}
	return a.Num > b.Num
}

// resourceNotFound: "Resource X does not exist for stack NAME" (BEHAVIOUR.md
// §8), NAME as the caller gave it.
func resourceNotFound(logicalID, stackName string) *APIError {
	return ValidationError("Resource %s does not exist for stack %s", logicalID, stackName)
}

// DescribeStackResourcesInput is DescribeStackResources' request: a stack
// (by StackName, or by the PhysicalResourceId of one of its resources),
// optionally narrowed to one logical resource.
type DescribeStackResourcesInput struct {
	StackName          string `json:"StackName,omitempty"`
	LogicalResourceId  string `json:"LogicalResourceId,omitempty"`
	PhysicalResourceId string `json:"PhysicalResourceId,omitempty"`
}

// DescribeStackResourcesOutput is DescribeStackResources' answer.
type DescribeStackResourcesOutput struct {
	StackResources []StackResource `json:"StackResources"`
}

// DescribeStackResources describes the resources of a stack (at most 100,
// as AWS does; ListStackResources pages through all of them).
func (e *Engine) DescribeStackResources(ctx context.Context, in DescribeStackResourcesInput) (*DescribeStackResourcesOutput, error) {
	if in.StackName == "" && in.PhysicalResourceId == "" {
		// UNVERIFIED wording: the API reference says that one of the two
		// is required, not what the service answers without either.
		return nil, ValidationError("Either StackName or PhysicalResourceId must be specified")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &DescribeStackResourcesOutput{StackResources: []StackResource{}}
	err := e.view(func(tx *txn) error {
		var st *store.StackRecord
		stackName := in.StackName
		if in.StackName != "" {
			if st = tx.FindStack(in.StackName); st == nil {
				return stackWithIDNotFound(in.StackName)
			}
		} else {
			// The stack that holds the physical resource: among live
			// stacks first, then the most recent deleted one.
			for _, r := range tx.ResourcesWithPhysicalID(in.PhysicalResourceId) {
				if owner := tx.StackByNum(r.Num); owner != nil && (st == nil || moreRecent(owner, st)) {
					st = owner
				}
			}
			if st == nil {
				return ValidationError("Stack for %s does not exist", in.PhysicalResourceId)
			}
			stackName = st.StackName
		}
		if in.LogicalResourceId != "" {
			r := tx.Resource(st.Num, in.LogicalResourceId)
			if r == nil {
				return resourceNotFound(in.LogicalResourceId, stackName)
			}
			out.StackResources = append(out.StackResources, stackResourceOf(r, st))
			return nil
		}
		for _, r := range tx.ResourcesOf(st.Num) {
			if len(out.StackResources) == describeStackResourcesLimit {
				break
			}
			out.StackResources = append(out.StackResources, stackResourceOf(r, st))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListStackResourcesInput is ListStackResources' request.
type ListStackResourcesInput struct {
	StackName string `json:"StackName"`
	NextToken string `json:"NextToken,omitempty"`
}

// ListStackResourcesOutput is ListStackResources' answer.
type ListStackResourcesOutput struct {
	StackResourceSummaries []StackResourceSummary `json:"StackResourceSummaries"`
	NextToken              string                 `json:"NextToken,omitempty"`
}

// ListStackResources lists the resources of a stack by logical id, a page at
// a time.
func (e *Engine) ListStackResources(ctx context.Context, in ListStackResourcesInput) (*ListStackResourcesOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := &ListStackResourcesOutput{StackResourceSummaries: []StackResourceSummary{}}
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackWithIDNotFound(in.StackName)
		}
		from := store.NumKey(st.Num)
		if in.NextToken != "" {
			parts, err := decodeToken(in.NextToken, "ListStackResources", 2)
			if err != nil {
				return err
			}
			if parts[0] != st.StackId {
				return invalidToken()
			}
			from = store.ResourceKey(st.Num, parts[1])
		}
		size := e.pageSize()
		tx.ScanFrom(store.TResources, store.IxID, store.NumKey(st.Num), from, func(rec store.Record) bool {
			r := rec.(*store.ResourceRecord)
			if len(out.StackResourceSummaries) == size {
				out.NextToken = encodeToken("ListStackResources", st.StackId, r.LogicalResourceId)
				return false
			}
			out.StackResourceSummaries = append(out.StackResourceSummaries, resourceSummary(r))
			return true
		})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// resourceDrift is a resource's drift as its last detection found it
// (NOT_CHECKED when none checked it).
func resourceDrift(r *store.ResourceRecord) ResourceDriftInformation {
	if r.Drift == nil {
		return ResourceDriftInformation{StackResourceDriftStatus: DriftNotChecked}
	}
	t := r.Drift.Time
	return ResourceDriftInformation{StackResourceDriftStatus: r.Drift.Status, LastCheckTimestamp: &t}
}

// stackDrift is a stack's drift as its last detection found it.
func stackDrift(s *store.StackRecord) StackDriftInformation {
	if s.Drift == nil {
		return StackDriftInformation{StackDriftStatus: DriftNotChecked}
	}
	t := s.Drift.Time
	return StackDriftInformation{StackDriftStatus: s.Drift.Status, LastCheckTimestamp: &t}
}

func stackResourceOf(r *store.ResourceRecord, st *store.StackRecord) StackResource {
	return StackResource{
		StackName:            st.StackName,
		StackId:              st.StackId,
		LogicalResourceId:    r.LogicalResourceId,
		PhysicalResourceId:   r.PhysicalResourceId,
		ResourceType:         r.ResourceType,
		Timestamp:            r.LastUpdatedTimestamp,
		ResourceStatus:       string(r.ResourceStatus),
		ResourceStatusReason: r.ResourceStatusReason,
		Description:          r.Description,
		DriftInformation:     resourceDrift(r),
	}
}

func resourceDetail(r *store.ResourceRecord, st *store.StackRecord) StackResourceDetail {
	return StackResourceDetail{
		StackName:            st.StackName,
		StackId:              st.StackId,
		LogicalResourceId:    r.LogicalResourceId,
		PhysicalResourceId:   r.PhysicalResourceId,
		ResourceType:         r.ResourceType,
		LastUpdatedTimestamp: r.LastUpdatedTimestamp,
		ResourceStatus:       string(r.ResourceStatus),
		ResourceStatusReason: r.ResourceStatusReason,
		Description:          r.Description,
		Metadata:             r.Metadata,
		DriftInformation:     resourceDrift(r),
	}
}

func resourceSummary(r *store.ResourceRecord) StackResourceSummary {
	return StackResourceSummary{
		LogicalResourceId:    r.LogicalResourceId,
		PhysicalResourceId:   r.PhysicalResourceId,
		ResourceType:         r.ResourceType,
		LastUpdatedTimestamp: r.LastUpdatedTimestamp,
		ResourceStatus:       string(r.ResourceStatus),
		ResourceStatusReason: r.ResourceStatusReason,
		DriftInformation:     resourceDrift(r),
	}
}
