package engine

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
)

// Drift detection (drift.go compares). DetectStackDrift reads every
// resource of a stack that supports it through its handler's Read, at
// once in virtual time (AWS takes minutes: the detection is
// DETECTION_COMPLETE by the first DescribeStackDriftDetectionStatus),
// and records what it found on the resources and the stack, where
// DescribeStacks, DescribeStackResource(s), ListStackResources and
// DescribeStackResourceDrifts show it. Custom resources and nested stacks
// are not checked (AWS: "CloudFormation doesn't detect drift on any nested
// stacks belonging to that stack"; custom resources do not support drift).
// The simulated cloud changes under a stack only when told to
// (DriftResource); a handler of your own answers its Read as it sees its
// resource.

// DetectStackDriftInput is DetectStackDrift's request.
type DetectStackDriftInput struct {
	StackName          string   `json:"StackName"`
	LogicalResourceIds []string `json:"LogicalResourceIds,omitempty"`
}

// DetectStackDriftOutput is DetectStackDrift's answer.
type DetectStackDriftOutput struct {
	StackDriftDetectionId string `json:"StackDriftDetectionId"`
}

// DescribeStackDriftDetectionStatusInput is
// DescribeStackDriftDetectionStatus's request.
type DescribeStackDriftDetectionStatusInput struct {
	StackDriftDetectionId string `json:"StackDriftDetectionId"`
}

// DescribeStackDriftDetectionStatusOutput is its answer.
type DescribeStackDriftDetectionStatusOutput struct {
	StackId                   string    `json:"StackId"`
	StackDriftDetectionId     string    `json:"StackDriftDetectionId"`
	StackDriftStatus          string    `json:"StackDriftStatus,omitempty"`
	DetectionStatus           string    `json:"DetectionStatus"`
	DetectionStatusReason     string    `json:"DetectionStatusReason,omitempty"`
	DriftedStackResourceCount *int      `json:"DriftedStackResourceCount,omitempty"`
	Timestamp                 time.Time `json:"Timestamp"`
}

// DetectStackResourceDriftInput is DetectStackResourceDrift's request.
type DetectStackResourceDriftInput struct {
	StackName         string `json:"StackName"`
	LogicalResourceId string `json:"LogicalResourceId"`
}

// DetectStackResourceDriftOutput is its answer.
type DetectStackResourceDriftOutput struct {
	StackResourceDrift StackResourceDrift `json:"StackResourceDrift"`
}

// DescribeStackResourceDriftsInput is DescribeStackResourceDrifts'
// request.
type DescribeStackResourceDriftsInput struct {
	StackName                       string   `json:"StackName"`
	StackResourceDriftStatusFilters []string `json:"StackResourceDriftStatusFilters,omitempty"`
	MaxResults                      int      `json:"MaxResults,omitempty"`
	NextToken                       string   `json:"NextToken,omitempty"`
}

// DescribeStackResourceDriftsOutput is its answer.
type DescribeStackResourceDriftsOutput struct {
	StackResourceDrifts []StackResourceDrift `json:"StackResourceDrifts"`
	NextToken           string               `json:"NextToken,omitempty"`
}

// StackResourceDrift is one resource's drift, CloudFormation's shape.
type StackResourceDrift struct {
	StackId                  string               `json:"StackId"`
	LogicalResourceId        string               `json:"LogicalResourceId"`
	PhysicalResourceId       string               `json:"PhysicalResourceId,omitempty"`
	ResourceType             string               `json:"ResourceType"`
	ExpectedProperties       string               `json:"ExpectedProperties,omitempty"`
	ActualProperties         string               `json:"ActualProperties,omitempty"`
	PropertyDifferences      []PropertyDifference `json:"PropertyDifferences,omitempty"`
	StackResourceDriftStatus string               `json:"StackResourceDriftStatus"`
	DriftStatusReason        string               `json:"DriftStatusReason,omitempty"`
	Timestamp                time.Time            `json:"Timestamp"`
}

// PropertyDifference is one property of a drifted resource that differs.
type PropertyDifference struct {
	PropertyPath   string `json:"PropertyPath"`
	ExpectedValue  string `json:"ExpectedValue"`
	ActualValue    string `json:"ActualValue"`
	DifferenceType string `json:"DifferenceType"`
}

// ResourceDriftStatuses are a resource's drift statuses, in the order AWS
// lists them.
var ResourceDriftStatuses = []string{DriftInSync, DriftModified, DriftDeleted, DriftNotChecked, DriftUnknown}

// DetectStackDrift detects the drift of a stack's resources (all, or the
// LogicalResourceIds given) and answers the detection's id.
func (e *Engine) DetectStackDrift(ctx context.Context, in DetectStackDriftInput) (*DetectStackDriftOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DetectStackDriftOutput
	var ended EventBridgeEvent // the detection's bus event
	err := e.update(func(tx *txn) error {
		st, err := driftStack(tx, in.StackName)
		if err != nil {
			return err
		}
		var recs []*store.ResourceRecord
		for _, id := range in.LogicalResourceIds {
			rec := tx.Resource(st.Num, id)
			if rec == nil || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
				return resourceNotFound(id, in.StackName)
			}
		}
		for _, rec := range tx.ResourcesOf(st.Num) {
			if len(in.LogicalResourceIds) == 0 || slices.Contains(in.LogicalResourceIds, rec.LogicalResourceId) {
				recs = append(recs, rec)
			}
		}
		now := tx.now()
		d := &store.StackDrift{DetectionId: tx.uuid("drift", st.StackId), DetectionStatus: DetectionComplete, Status: DriftInSync, Time: now}
		var unknown []string
		for _, rec := range recs {
			drift := e.detectResource(ctx, tx, st, rec, now)
			if drift == nil {
				continue
			}
			switch drift.Status {
			case DriftModified, DriftDeleted:
				d.DriftedCount++
				d.Status = DriftDrifted
			case DriftUnknown:
				unknown = append(unknown, rec.LogicalResourceId)
			}
		}
		if len(unknown) > 0 {
			// UNVERIFIED wording.
			d.DetectionStatus = DetectionFailed
			d.Reason = fmt.Sprintf("Failed to detect drift on resources %v: see each resource's DriftStatusReason", unknown)
		}
		c := st.Clone()
		c.Drift = d
		if err := tx.PutStack(c); err != nil {
			return err
		}
		out = &DetectStackDriftOutput{StackDriftDetectionId: d.DetectionId}
		ended = driftDetectionEvent(tx.Store, c, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.sendToBus(ended)
	return out, nil
}

// DetectStackResourceDrift detects the drift of one resource.
func (e *Engine) DetectStackResourceDrift(ctx context.Context, in DetectStackResourceDriftInput) (*DetectStackResourceDriftOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if in.LogicalResourceId == "" {
		return nil, requiredError("logicalResourceId")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DetectStackResourceDriftOutput
	err := e.update(func(tx *txn) error {
		st, err := driftStack(tx, in.StackName)
		if err != nil {
			return err
		}
		rec := tx.Resource(st.Num, in.LogicalResourceId)
		if rec == nil || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
			return resourceNotFound(in.LogicalResourceId, in.StackName)
		}
		drift := e.detectResource(ctx, tx, st, rec, tx.now())
		if drift == nil {
			// UNVERIFIED wording.
			return ValidationError("Drift detection is not supported for resource %s of type %s", in.LogicalResourceId, rec.ResourceType)
		}
		out = &DetectStackResourceDriftOutput{StackResourceDrift: resourceDriftOf(st, rec, drift)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DescribeStackDriftDetectionStatus describes a stack's last drift
// detection, by its id.
func (e *Engine) DescribeStackDriftDetectionStatus(ctx context.Context, in DescribeStackDriftDetectionStatusInput) (*DescribeStackDriftDetectionStatusOutput, error) {
	if in.StackDriftDetectionId == "" {
		return nil, requiredError("stackDriftDetectionId")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DescribeStackDriftDetectionStatusOutput
	err := e.view(func(tx *txn) error {
		for _, st := range tx.AllStacks() {
			d := st.Drift
			if d == nil || d.DetectionId != in.StackDriftDetectionId {
				continue
			}
			n := d.DriftedCount
			out = &DescribeStackDriftDetectionStatusOutput{StackId: st.StackId, StackDriftDetectionId: d.DetectionId,
				StackDriftStatus: d.Status, DetectionStatus: d.DetectionStatus, DetectionStatusReason: d.Reason,
				DriftedStackResourceCount: &n, Timestamp: d.Time}
			return nil
		}
		// UNVERIFIED wording; stacksim keeps each stack's last detection.
		return ValidationError("No drift detection with id %s: stacksim keeps the last drift detection of each stack; run DetectStackDrift again", in.StackDriftDetectionId)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DescribeStackResourceDrifts lists what the last drift detection found
// of a stack's resources (those it checked), a page at a time.
func (e *Engine) DescribeStackResourceDrifts(ctx context.Context, in DescribeStackResourceDriftsInput) (*DescribeStackResourceDriftsOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	for _, f := range in.StackResourceDriftStatusFilters {
		if !slices.Contains(ResourceDriftStatuses, f) {
			return nil, enumError(f, "stackResourceDriftStatusFilters", ResourceDriftStatuses)
		}
	}
	if in.MaxResults < 0 || in.MaxResults > 100 {
		return nil, ValidationError("1 validation error detected: Value '%d' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 100", in.MaxResults)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DescribeStackResourceDriftsOutput
	err := e.view(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil {
			return stackNotFound(in.StackName)
		}
		var all []StackResourceDrift
		for _, rec := range tx.ResourcesOf(st.Num) {
			if rec.Drift == nil || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
				continue
			}
			if len(in.StackResourceDriftStatusFilters) > 0 && !slices.Contains(in.StackResourceDriftStatusFilters, rec.Drift.Status) {
				continue
			}
			all = append(all, resourceDriftOf(st, rec, rec.Drift))
		}
		start, err := pageOffset(in.NextToken, "DescribeStackResourceDrifts", st.StackId, len(all))
		if err != nil {
			return err
		}
		size := e.pageSize()
		if in.MaxResults > 0 {
			size = in.MaxResults
		}
		end := min(start+size, len(all))
		out = &DescribeStackResourceDriftsOutput{StackResourceDrifts: append([]StackResourceDrift{}, all[start:end]...)}
		if end < len(all) {
			out.NextToken = encodeToken("DescribeStackResourceDrifts", st.StackId, strconv.Itoa(end))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// driftStack finds a stack whose drift can be detected: live, at rest.
func driftStack(tx *txn, name string) (*store.StackRecord, error) {
	st := tx.FindStack(name)
	if st == nil || !st.Live() {
		return nil, stackNotFound(name)
	}
	if st.StackStatus.InMotion() || st.StackStatus == statemachine.StackStatusReviewInProgress {
		// UNVERIFIED wording.
		return nil, ValidationError("Drift detection cannot run on stack [%s] in %s state: wait until it is at rest", st.StackName, st.StackStatus)
	}
	return st, nil
}

// detectResource reads a resource through its handler, records its drift
// on it and returns it; nil for a resource whose drift is not detected (a
// custom resource, a nested stack, one that is not complete).
func (e *Engine) detectResource(ctx context.Context, tx *txn, st *store.StackRecord, rec *store.ResourceRecord, now time.Time) *store.ResourceDrift {
	switch {
	case isCustom(rec.ResourceType), isNestedStack(rec.ResourceType), rec.PhysicalResourceId == "":
		return nil
	}
	switch rec.ResourceStatus {
	case statemachine.ResourceStatusCreateComplete, statemachine.ResourceStatusUpdateComplete, statemachine.ResourceStatusImportComplete,
		statemachine.ResourceStatusUpdateFailed:
	default:
		return nil
	}
	p, err := e.providerOf(rec.ResourceType)
	var drift *store.ResourceDrift
	if err != nil {
		drift = &store.ResourceDrift{Status: DriftUnknown, Reason: err.Error()}
	} else {
		if e.opts.Contract != ContractOff {
			p = e.checkerOf(p)
		}
		drift = e.readDrift(ctx, tx, st, rec, p)
	}
	drift.Time = now
	c := rec.Clone()
	c.Drift = drift
	tx.PutResource(c)
	return drift
}

// readDrift calls the handler's Read of a resource and compares.
func (e *Engine) readDrift(ctx context.Context, tx *txn, st *store.StackRecord, rec *store.ResourceRecord, p resources.Provider) *store.ResourceDrift {
	req := &resources.Request{
		Action: resources.ActionRead, ClientRequestToken: tx.newToken("drift", st.StackId, rec.LogicalResourceId),
		DesiredResourceState: rec.Model, AWSAccountID: e.opts.AccountID, AWSPartition: e.opts.Partition,
		LogicalResourceIdentifier: rec.LogicalResourceId, Region: e.opts.Region, StackID: st.StackId,
		ResourceType: rec.ResourceType, PhysicalResourceID: rec.PhysicalResourceId, Attempt: 1,
	}
	ev, err := e.invoke(ctx, p, req)
	// No operation records what the contract checker found of this Read
	// (strict mode fails it, and the resource is UNKNOWN): it is logged,
	// and not left for the next operation to collect.
	for _, v := range e.violations {
		e.log.Warn("contract violation in a drift detection's Read", zap.String("rule", v.Rule), zap.String("logicalId", rec.LogicalResourceId), zap.String("message", v.Message))
	}
	e.violations = e.violations[:0]
	var schema *resources.Schema
	if s := p.Schema(); s != nil {
		schema = s
	}
	switch {
	case err != nil:
		return &store.ResourceDrift{Status: DriftUnknown, Reason: err.Error()}
	case ev.Status == resources.StatusFailed && ev.ErrorCode == resources.ErrNotFound:
		return driftOf(schema, rec.Properties, nil, true)
	case ev.Status != resources.StatusSuccess:
		return &store.ResourceDrift{Status: DriftUnknown, Reason: fmt.Sprintf("The resource's handler answered its Read %s (%s): %s", ev.Status, ev.ErrorCode, ev.Message)}
	}
	return driftOf(schema, rec.Properties, ev.ResourceModel, false)
}

// resourceDriftOf is a resource's drift in CloudFormation's shape.
func resourceDriftOf(st *store.StackRecord, rec *store.ResourceRecord, d *store.ResourceDrift) StackResourceDrift {
	out := StackResourceDrift{StackId: st.StackId, LogicalResourceId: rec.LogicalResourceId, PhysicalResourceId: rec.PhysicalResourceId,
		ResourceType: rec.ResourceType, ExpectedProperties: d.Expected, ActualProperties: d.Actual,
		StackResourceDriftStatus: d.Status, DriftStatusReason: d.Reason, Timestamp: d.Time}
	for _, x := range d.Differences {
		out.PropertyDifferences = append(out.PropertyDifferences, PropertyDifference(x))
	}
	return out
}

// DriftResourceInput is DriftResource's request: what changes, out of
// band, in the simulated cloud under a stack's resource.
type DriftResourceInput struct {
	StackName         string `json:"StackName"`
	LogicalResourceId string `json:"LogicalResourceId"`
	// Properties are set on the resource (a top-level property each, its
	// new value).
	Properties map[string]any `json:"Properties,omitempty"`
	// RemoveProperties are taken off it.
	RemoveProperties []string `json:"RemoveProperties,omitempty"`
	// Delete deletes the physical resource.
	Delete bool `json:"Delete,omitempty"`
}

// DriftResourceOutput is DriftResource's answer: the resource's physical
// id.
type DriftResourceOutput struct {
	PhysicalResourceId string `json:"PhysicalResourceId"`
}

// DriftResource changes the simulated physical resource of a stack's
// resource behind the stack's back (someone edited it in the console, or
// deleted it), so that drift detection finds it: stacksim's own call. The
// stack's records do not change; only resources the simulation holds
// (registry types without a handler of your own) can be changed.
func (e *Engine) DriftResource(ctx context.Context, in DriftResourceInput) (*DriftResourceOutput, error) {
	if in.StackName == "" {
		return nil, requiredError("stackName")
	}
	if in.LogicalResourceId == "" {
		return nil, requiredError("logicalResourceId")
	}
	if in.Delete && (len(in.Properties) > 0 || len(in.RemoveProperties) > 0) {
		return nil, ValidationError("DriftResource: give Delete, or Properties and RemoveProperties, not both")
	}
	if !in.Delete && len(in.Properties) == 0 && len(in.RemoveProperties) == 0 {
		return nil, ValidationError("DriftResource: give the Properties to set, the RemoveProperties to take off, or Delete")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out *DriftResourceOutput
	err := e.update(func(tx *txn) error {
		st := tx.FindStack(in.StackName)
		if st == nil || !st.Live() {
			return stackNotFound(in.StackName)
		}
		rec := tx.Resource(st.Num, in.LogicalResourceId)
		if rec == nil || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
			return resourceNotFound(in.LogicalResourceId, in.StackName)
		}
		obj := tx.Object(rec.ResourceType, rec.PhysicalResourceId)
		if obj == nil {
			return ValidationError("Resource %s (%s) of stack %s is not a resource of the simulated cloud (a custom resource, a nested stack, a type your own handler serves, or one already deleted): its handler's Read says what drifted", in.LogicalResourceId, rec.PhysicalResourceId, st.StackName)
		}
		if in.Delete {
			tx.Del(store.TObjects, store.ObjectKey(obj.Type, obj.ID))
			// A function deleted by hand takes its versions' numbering
			// with it, as one its stack deletes does.
			if err := resources.EndSequences(e.cloud, obj); err != nil {
				return err
			}
		} else {
			c := *obj
			model := resources.CopyModel(obj.Model)
			if model == nil {
				model = map[string]any{}
			}
			for k, v := range in.Properties {
				model[k] = v
			}
			for _, k := range in.RemoveProperties {
				delete(model, k)
			}
			fresh := &resources.Object{Type: c.Type, ID: c.ID, Model: model, StackID: c.StackID, LogicalID: c.LogicalID, RequestToken: c.RequestToken}
			tx.PutObject(fresh)
		}
		out = &DriftResourceOutput{PhysicalResourceId: rec.PhysicalResourceId}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
