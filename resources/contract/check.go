package contract

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stacksim/stacksim/resources"
)

// check applies every rule to one event. in is what remember kept: the
// input view of the action's desired state (create and update).
func (c *Checker) check(req *resources.Request, in map[string]any, ev *resources.ProgressEvent) []Violation {
	var out []Violation
	add := func(rule, format string, args ...any) {
		out = append(out, Violation{Rule: rule, Message: fmt.Sprintf(format, args...), Request: req, Event: ev})
	}
	if ev == nil {
		add(RuleEventMissing, "the handler answered neither a ProgressEvent nor an error")
		return out
	}
	s := c.inner.Schema()
	a := req.Action
	custom := c.custom

	switch ev.Status {
	case resources.StatusFailed:
		if !ev.ErrorCode.Valid() {
			add(RuleFailedErrorCode, "FAILED with errorCode %q; a FAILED event carries one of the 19 handler error codes", ev.ErrorCode)
		}
		if strings.TrimSpace(ev.Message) == "" {
			add(RuleFailedMessage, "FAILED without a message; say what went wrong")
		}
		if ev.CallbackDelaySeconds != 0 {
			add(RuleTerminalCallbackDelay, "FAILED with callbackDelaySeconds %d; it must be 0", ev.CallbackDelaySeconds)
		}
	case resources.StatusSuccess:
		if ev.ErrorCode != "" {
			add(RuleSuccessErrorCode, "SUCCESS with errorCode %q", ev.ErrorCode)
		}
		if ev.CallbackDelaySeconds != 0 {
			add(RuleTerminalCallbackDelay, "SUCCESS with callbackDelaySeconds %d; it must be 0", ev.CallbackDelaySeconds)
		}
	case resources.StatusInProgress:
		if ev.ErrorCode != "" {
			add(RuleInProgressErrorCode, "IN_PROGRESS with errorCode %q", ev.ErrorCode)
		}
		if ev.ResourceModels != nil {
			add(RuleInProgressResourceModels, "IN_PROGRESS with resourceModels (%d)", len(ev.ResourceModels))
		}
		if ev.CallbackDelaySeconds < 0 {
			add(RuleCallbackDelayNegative, "IN_PROGRESS with callbackDelaySeconds %d", ev.CallbackDelaySeconds)
		}
		if a == resources.ActionRead || a == resources.ActionList {
			add(RuleReadListInProgress, "%s answered IN_PROGRESS; read and list answer SUCCESS or FAILED", a)
		}
	default:
		add(RuleStatusInvalid, "status %q is not IN_PROGRESS, SUCCESS or FAILED", ev.Status)
		return out
	}

	if a == resources.ActionList {
		if ev.ResourceModel != nil {
			add(RuleListResourceModel, "list answered resourceModel; it answers resourceModels")
		}
		if ev.Status == resources.StatusSuccess && ev.ResourceModels == nil {
			add(RuleListModelsMissing, "list SUCCESS without resourceModels; answer an empty array when nothing is found")
		}
	} else if ev.ResourceModels != nil && ev.Status != resources.StatusInProgress {
		add(RuleResourceModelsNotList, "%s answered resourceModels; only list does", a)
	}
	if a == resources.ActionDelete && ev.Status == resources.StatusSuccess && ev.ResourceModel != nil {
		add(RuleDeleteSuccessModel, "delete SUCCESS with a model; it answers none")
	}

	nModels := len(ev.ResourceModels) + boolInt(ev.ResourceModel != nil)
	for i := 0; i < nModels; i++ {
		m, where := ev.ResourceModel, "resourceModel"
		if ev.ResourceModel == nil || i > 0 {
			j := i - boolInt(ev.ResourceModel != nil)
			m, where = ev.ResourceModels[j], fmt.Sprintf("resourceModels[%d]", j)
		}
		single := ev.ResourceModel != nil && i == 0 && req.LogicalResourceIdentifier != ""
		switch {
		case single && c.knownValid(req.LogicalResourceIdentifier, m):
			// the model this resource's last answer had, found valid then
		case s.ModelCertainlyValid(m): // neither a null nor a schema problem
			if single {
				c.modelValid(req.LogicalResourceIdentifier, m)
			}
		default:
			if p := findNull(m, ""); p != "" {
				add(RuleModelNull, "%s holds null at %s; leave out properties without a value", where, p)
			}
			if err := s.ValidateModel(m); err != nil {
				var ve *resources.ValidationError
				if errors.As(err, &ve) {
					add(RuleModelSchema, "%s does not conform to the schema: %s", where, strings.Join(ve.Problems, "; "))
				} else {
					add(RuleModelSchema, "%s: %v", where, err)
				}
			}
		}
		if ev.Status == resources.StatusSuccess {
			if wo := s.WriteOnlyIn(m); len(wo) > 0 {
				add(RuleWriteOnlyReturned, "%s holds writeOnly %s", where, strings.Join(wo, ", "))
			}
		}
	}

	// The identifiers of the event's model and of the request, each found
	// once (PhysicalID and requestID are functions of what they read).
	var evID, reqID string
	var evIDErr error
	evIDDone, reqIDDone := false, false
	eventID := func() (string, error) {
		if !evIDDone {
			evID, evIDErr = c.inner.PhysicalID(ev.ResourceModel)
			evIDDone = true
		}
		return evID, evIDErr
	}
	requestID := func() string {
		if !reqIDDone {
			reqID, reqIDDone = c.requestID(req), true
		}
		return reqID
	}

	// The primary identifier.
	needsID := false
	switch a {
	case resources.ActionCreate, resources.ActionUpdate:
		needsID = ev.Status != resources.StatusFailed
	case resources.ActionRead:
		needsID = ev.Status == resources.StatusSuccess
	}
	if needsID {
		if _, err := eventID(); err != nil {
			add(RulePrimaryIdentifierMissing, "%s %s model lacks the primary identifier %s", a, ev.Status, strings.Join(s.PrimaryIdentifier, ", "))
		}
	}
	if a == resources.ActionList && ev.Status == resources.StatusSuccess {
		for i, m := range ev.ResourceModels {
			if _, err := c.inner.PhysicalID(m); err != nil {
				add(RulePrimaryIdentifierMissing, "resourceModels[%d] lacks the primary identifier %s", i, strings.Join(s.PrimaryIdentifier, ", "))
			}
		}
	}
	if (a == resources.ActionUpdate || a == resources.ActionRead) && ev.Status != resources.StatusFailed && ev.ResourceModel != nil && !custom {
		want := requestID()
		if got, err := eventID(); err == nil && want != "" && got != want {
			add(RulePrimaryIdentifierChanged, "%s answered primary identifier %q for a request naming %q", a, got, want)
		}
	}

	// Input applied.
	if (a == resources.ActionCreate || a == resources.ActionUpdate) && ev.Status == resources.StatusSuccess && !custom && ev.ResourceModel != nil {
		outm := ev.ResourceModel
		var path []string
		if holdsInput(s, in, outm, &path) {
			// the common case, proved without building a message
		} else if diffs := compareInput(s, in, outm, nil); len(diffs) > 0 {
			add(RuleInputNotApplied, "%s SUCCESS model does not hold the request's properties: %s", a, strings.Join(diffs, "; "))
		}
	}

	// An update that changes a createOnly property must not happen in
	// place (the first call's answer; re-invocations carry the handler's
	// own model).
	if a == resources.ActionUpdate && ev.Status != resources.StatusFailed && req.CallbackContext == nil && req.PreviousResourceState != nil && !custom {
		if changed := changedCreateOnly(s, req.PreviousResourceState, req.DesiredResourceState); len(changed) > 0 {
			add(RuleCreateOnlyChanged, "update answered %s to a request that changes createOnly %s; it must answer FAILED NotUpdatable (CloudFormation replaces the resource instead)", ev.Status, strings.Join(changed, ", "))
		}
	}

	// Lifecycle: deleted resources are NotFound, created ones AlreadyExists.
	// What the event says is then remembered: a create made its identifier,
	// a delete removed it.
	if ev.Status == resources.StatusSuccess {
		c.mu.Lock()
		switch a {
		case resources.ActionRead, resources.ActionUpdate, resources.ActionDelete:
			if a == resources.ActionDelete {
				delete(c.valid, req.LogicalResourceIdentifier)
			}
			if id := requestID(); id != "" {
				if c.deleted.has(id) && req.CallbackContext == nil {
					add(RuleDeletedResourceFound, "%s of %q succeeded after its delete had; it must answer FAILED NotFound", a, id)
				}
				if a == resources.ActionDelete {
					delete(c.life, id)
					c.deleted.add(id)
				}
			}
		case resources.ActionCreate:
			if id, err := eventID(); err == nil {
				if st, ok := c.life[id]; ok && (st.token != req.ClientRequestToken || st.logical != req.LogicalResourceIdentifier) {
					add(RuleCreateExisting, "create answered SUCCESS with %q, which an earlier create made; it must answer FAILED AlreadyExists", id)
				}
				c.life[id] = lifeState{token: req.ClientRequestToken, logical: req.LogicalResourceIdentifier}
				c.deleted.remove(id)
			}
		}
		c.mu.Unlock()
	}
	return out
}

// changedCreateOnly lists the createOnly properties (readOnly ones aside:
// the handler sets them) that the desired state holds with another value
// than the previous state.
func changedCreateOnly(s *resources.Schema, prev, desired map[string]any) []string {
	always, _ := s.ChangedCreateOnly(prev, desired)
	var out []string
	for _, p := range always {
		if !s.IsReadOnly(p) && resources.Has(desired, p) {
			out = append(out, p)
		}
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// findNull returns the pointer of the first null in v (in key order), ""
// when none.
func findNull(v any, at string) string {
	if !hasNull(v) {
		return ""
	}
	return firstNull(v, at)
}

func hasNull(v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case map[string]any:
		for _, e := range t {
			if hasNull(e) {
				return true
			}
		}
	case []any:
		for _, e := range t {
			if hasNull(e) {
				return true
			}
		}
	}
	return false
}

func firstNull(v any, at string) string {
	switch t := v.(type) {
	case nil:
		if at == "" {
			return ""
		}
		return at
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if t[k] == nil {
				return at + "/" + k
			}
			if p := firstNull(t[k], at+"/"+k); p != "" {
				return p
			}
		}
	case []any:
		for i, e := range t {
			p := at + "/" + strconv.Itoa(i)
			if e == nil {
				return p
			}
			if q := firstNull(e, p); q != "" {
				return q
			}
		}
	}
	return ""
}

// holdsInput is len(compareInput(s, in, out, *path)) == 0, without
// building messages: path grows only on the way into objects and arrays
// (an array's order rule depends on it), so comparing scalars allocates
// nothing.
func holdsInput(s *resources.Schema, in, out any, path *[]string) bool {
	switch x := in.(type) {
	case map[string]any:
		y, ok := out.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok {
				return false
			}
			switch v.(type) {
			case map[string]any, []any:
				*path = append(*path, k)
				held := holdsInput(s, v, w, path)
				*path = (*path)[:len(*path)-1]
				if !held {
					return false
				}
			default:
				if !resources.LooseEqual(v, w) {
					return false
				}
			}
		}
		return true
	case []any:
		y, ok := out.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		if s.Unordered(*path) {
			return resources.SameMembers(x, y)
		}
		for i := range x {
			*path = append(*path, strconv.Itoa(i))
			held := holdsInput(s, x[i], y[i], path)
			*path = (*path)[:len(*path)-1]
			if !held {
				return false
			}
		}
		return true
	default:
		return resources.LooseEqual(in, out)
	}
}

// compareInput reports where the output does not hold the input: every key
// of an input object is in the output object with an equal value; arrays
// compare member by member, in order unless the schema says
// insertionOrder: false.
func compareInput(s *resources.Schema, in, out any, path []string) []string {
	here := resources.JoinPointer(path)
	switch x := in.(type) {
	case map[string]any:
		y, ok := out.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s is %s in the request but not an object in the model", here, kind(in))}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var diffs []string
		for _, k := range keys {
			p := append(append([]string{}, path...), k)
			w, ok := y[k]
			if !ok {
				diffs = append(diffs, resources.JoinPointer(p)+" is missing")
				continue
			}
			diffs = append(diffs, compareInput(s, x[k], w, p)...)
		}
		return diffs
	case []any:
		y, ok := out.([]any)
		if !ok || len(x) != len(y) {
			return []string{fmt.Sprintf("%s differs: request %s, model %s", here, short(in), short(out))}
		}
		if s.Unordered(path) {
			if !resources.SameMembers(x, y) {
				return []string{fmt.Sprintf("%s holds other members: request %s, model %s", here, short(in), short(out))}
			}
			return nil
		}
		var diffs []string
		for i := range x {
			diffs = append(diffs, compareInput(s, x[i], y[i], append(append([]string{}, path...), strconv.Itoa(i)))...)
		}
		return diffs
	default:
		if !resources.LooseEqual(in, out) {
			return []string{fmt.Sprintf("%s differs: request %s, model %s", here, short(in), short(out))}
		}
	}
	return nil
}

func kind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	default:
		return "a scalar"
	}
}

func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
