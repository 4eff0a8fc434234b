package engine

import (
	"sort"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/statemachine"
	"github.com/stacksim/stacksim/template"
)

// stack checks one stack: its events, its resources against their events,
// its operation and, at rest, its resources against its template.
func (c *checker) stack(st *store.StackRecord) {
	if !st.StackStatus.Valid() {
		c.add(whereStack(st), "its status %q is not a stack status", st.StackStatus)
		return
	}
	last := c.stackEvents(st)
	c.resourcesAgainstEvents(st, last)
	c.operation(st)
	if st.Live() && st.StackStatus.AtRest() {
		if _, err := c.e.currentTemplate(st); err != nil {
			c.add(whereStack(st), "its template does not bind: %v", err)
			return
		}
	}
	c.rest(st)
}

// physicalKey names one physical resource of a logical resource (the
// physical id is "" before the handler gave one).
type physicalKey struct{ logical, physical string }

// stackEvents replays a stack's own events through the stack machine, and
// returns the status each physical resource's last event gave it.
func (c *checker) stackEvents(st *store.StackRecord) map[physicalKey]string {
	from := statemachine.StackStatus(statemachine.NotExist)
	lastOf := lastEvents{last: map[physicalKey]string{}, pending: map[string]*store.EventRecord{}}
	var prev int64
	var op store.OpTag // the operation of the event before
	c.tx.EventsForward(st.Num, func(seq uint64, ev *store.EventRecord) bool {
		if ev.Time < prev {
			c.add(whereEvent(st, seq), "it is older than the event before it")
		}
		prev = ev.Time
		c.eventOperation(st, seq, ev, op)
		op = ev.Op
		if !ev.OfStack {
			lastOf.event(ev)
			return true
		}
		to := statemachine.StackStatus(ev.Status)
		if !legalStackMove(from, to) {
			c.add(whereEvent(st, seq), "it moves the stack from %s to %s, which no transition allows", from, to)
		}
		from = to
		return true
	})
	if from != st.StackStatus {
		c.add(whereStack(st), "its last event says %s, its record %s", from, st.StackStatus)
	}
	if op != 0 && (op != currentOperation(st) || op.Number() != st.Operations) {
		c.add(whereStack(st), "its last event is of operation %q; its record's current one is %q, of %d begun", op, currentOperation(st), st.Operations)
	}
	if st.Live() && c.tx.Meta.Now < prev {
		c.add(whereStack(st), "its last event is later than the clock")
	}
	return lastOf.done()
}

// lastEvents finds the status each physical resource's last event gave it.
// One event is not the physical resource's own although it carries its id:
// the first event of a replacement (UPDATE_IN_PROGRESS "Requested update
// requires the creation of a new physical resource") names the old physical
// resource, and is about the new one, whose events follow with another id
// ("" until the handler gives one). So an UPDATE_IN_PROGRESS waits for the
// logical resource's next event: the old resource's if that names the same
// physical resource, the replacement's otherwise (see done).
type lastEvents struct {
	last    map[physicalKey]string
	pending map[string]*store.EventRecord
}

func (l *lastEvents) event(ev *store.EventRecord) {
	if p := l.pending[ev.Logical]; p != nil {
		delete(l.pending, ev.Logical)
		if p.Physical == ev.Physical {
			l.last[physicalKey{p.Logical, p.Physical}] = p.Status
		}
	}
	if ev.Status == string(statemachine.ResourceStatusUpdateInProgress) && ev.Physical != "" {
		l.pending[ev.Logical] = ev
		return
	}
	l.last[physicalKey{ev.Logical, ev.Physical}] = ev.Status
}

// done returns the last statuses. An UPDATE_IN_PROGRESS that no event
// followed is the old resource's update, or a replacement that has no
// physical id yet: it counts for both.
func (l *lastEvents) done() map[physicalKey]string {
	for _, p := range l.pending {
		l.last[physicalKey{p.Logical, p.Physical}] = p.Status
		l.last[physicalKey{p.Logical, ""}] = p.Status
	}
	return l.last
}

// resourcesAgainstEvents checks that every current resource has the
// status its last event gave it.
func (c *checker) resourcesAgainstEvents(st *store.StackRecord, last map[physicalKey]string) {
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		if !rec.ResourceStatus.Valid() {
			c.add(whereResource(st, rec), "its status %q is not a resource status", rec.ResourceStatus)
			continue
		}
		got, ok := last[physicalKey{rec.LogicalResourceId, rec.PhysicalResourceId}]
		switch {
		case !ok:
			c.add(whereResource(st, rec), "it is %s, but the stack has no event of %s %q", rec.ResourceStatus, rec.LogicalResourceId, rec.PhysicalResourceId)
		case got != string(rec.ResourceStatus):
			c.add(whereResource(st, rec), "it is %s, but its last event says %s", rec.ResourceStatus, got)
		}
		c.modelNamesResource(st, rec)
	}
	for _, rec := range c.tx.RetiredOf(st.Num) {
		if !rec.ResourceStatus.Valid() {
			c.add(whereResource(st, rec), "its status %q is not a resource status", rec.ResourceStatus)
			continue
		}
		c.modelNamesResource(st, rec)
	}
}

// modelNamesResource checks that the model of a resource that exists
// names it: its primary identifier is the physical id (handlers are given
// the model, and act on what it names).
func (c *checker) modelNamesResource(st *store.StackRecord, rec *store.ResourceRecord) {
	if rec.Model == nil || rec.PhysicalResourceId == "" || rec.ResourceStatus == statemachine.ResourceStatusDeleteComplete {
		return
	}
	p, err := c.e.providerOf(rec.ResourceType)
	if err != nil {
		return
	}
	if id, err := p.PhysicalID(rec.Model); err == nil && id != rec.PhysicalResourceId {
		c.add(whereResource(st, rec), "its model names %q, not its physical id %q", id, rec.PhysicalResourceId)
	}
}

// legalStackMove tells whether some event of the stack machine moves a stack
// from one status to another.
func legalStackMove(from, to statemachine.StackStatus) bool {
	for _, ev := range statemachine.StackEvents() {
		if next, ok := statemachine.NextStack(from, ev); ok && next == to {
			return true
		}
	}
	return false
}

// operation checks a stack's operation against its status: a stack in
// motion runs an operation, with a plan, that a queued task moves on; a
// stack at rest has none in motion.
//
// An operation whose only steps in flight are nested stacks' waits on
// their children: a child moves it on (engine/nested.go), not a task.
func (c *checker) operation(st *store.StackRecord) {
	inMotion := st.StackStatus.InMotion() && st.StackStatus != statemachine.StackStatusReviewInProgress
	var op *store.OperationRecord
	if st.OperationId != "" {
		if op = c.tx.Operation(st.OperationId); op == nil {
			c.add(whereStack(st), "its operation %s does not exist", st.OperationId)
		} else if op.StackId != st.StackId {
			c.add(whereStack(st), "its operation %s is of another stack (%s)", op.Id, op.StackId)
			return
		}
	}
	switch {
	case inMotion && (op == nil || !op.InMotion):
		c.add(whereStack(st), "it is %s but has no operation in motion", st.StackStatus)
	case !inMotion && op != nil && op.InMotion:
		c.add(whereStack(st), "it is at rest (%s) but its operation %s is in motion", st.StackStatus, op.Id)
	case inMotion:
		if op.Plan == nil {
			c.add("operations/"+op.Id, "it is in motion but has no plan")
			return
		}
		if err := op.Plan.Validate(); err != nil {
			c.add("operations/"+op.Id, "its plan is not valid: %v", err)
			return
		}
		if op.Phase < 0 || op.Phase >= len(op.Plan.Phases()) {
			c.add("operations/"+op.Id, "its phase %d is not one of its plan's %d", op.Phase, len(op.Plan.Phases()))
		}
		if len(c.tx.Tasks(func(t *Task) bool { return t.OperationId == op.Id })) == 0 && !op.Held && !c.waitsOnChild(op) {
			c.add(whereStack(st), "it is %s but no task is queued to move its operation %s on", st.StackStatus, op.Id)
		}
	}
}

// rest checks a stack at rest: no resource in motion, and, after a
// successful operation, its resources are what its template says.
func (c *checker) rest(st *store.StackRecord) {
	if st.StackStatus.InMotion() && st.StackStatus != statemachine.StackStatusReviewInProgress {
		return
	}
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		if rec.ResourceStatus.InMotion() {
			c.add(whereResource(st, rec), "it is %s, but its stack is at rest (%s)", rec.ResourceStatus, st.StackStatus)
		}
	}
	if st.StackStatus == statemachine.StackStatusDeleteComplete {
		c.deleted(st)
		return
	}
	c.updatableHasPhysicalIDs(st)
	switch st.StackStatus {
	case statemachine.StackStatusCreateComplete, statemachine.StackStatusUpdateComplete, statemachine.StackStatusUpdateRollbackComplete,
		statemachine.StackStatusImportComplete:
		if !st.Unstable {
			c.matchesTemplate(st)
		}
	}
}

// updatableHasPhysicalIDs checks that a stack at rest that can be updated
// holds no resource without a physical id whose old physical resource
// still stands: the planner takes a resource without one as never created
// (an update creates it anew, or forgets it when the template drops it,
// whatever its DeletionPolicy). A replacement whose new physical resource
// never got an id points the resource back at its old one when the update
// stops with rollback disabled (reinstateFailedReplacements) or its
// rollback is skipped (startSkip); only UPDATE_ROLLBACK_FAILED, which no
// update starts from, keeps both until the rollback is continued.
func (c *checker) updatableHasPhysicalIDs(st *store.StackRecord) {
	switch st.StackStatus {
	case statemachine.StackStatusCreateComplete, statemachine.StackStatusCreateFailed, statemachine.StackStatusUpdateComplete,
		statemachine.StackStatusUpdateFailed, statemachine.StackStatusUpdateRollbackComplete,
		statemachine.StackStatusImportComplete, statemachine.StackStatusImportRollbackComplete:
	default:
		return
	}
	var standing map[string]string
	for _, old := range c.tx.RetiredOf(st.Num) {
		switch old.ResourceStatus {
		case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
			continue
		}
		if standing == nil {
			standing = map[string]string{}
		}
		standing[old.LogicalResourceId] = old.PhysicalResourceId
	}
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		if old, ok := standing[rec.LogicalResourceId]; ok && rec.PhysicalResourceId == "" && rec.ResourceStatus != statemachine.ResourceStatusDeleteComplete {
			c.add(whereResource(st, rec), "it is %s with no physical id in a stack at rest in %s, while its old physical resource %s stands", rec.ResourceStatus, st.StackStatus, old)
		}
	}
}

// deleted checks a deleted stack: each of its resources was deleted or
// retained (DELETE_SKIPPED: a DeletionPolicy, RetainResources), and no old
// physical resource is left to it.
func (c *checker) deleted(st *store.StackRecord) {
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusDeleteComplete, statemachine.ResourceStatusDeleteSkipped:
		default:
			c.add(whereResource(st, rec), "it is %s, but its stack is DELETE_COMPLETE", rec.ResourceStatus)
		}
	}
	for _, rec := range c.tx.RetiredOf(st.Num) {
		c.add(whereResource(st, rec), "the stack is DELETE_COMPLETE and still holds this old physical resource (%s)", rec.ResourceStatus)
	}
}

// matchesTemplate checks that a stack at rest after a successful operation
// is what its template says.
func (c *checker) matchesTemplate(st *store.StackRecord) {
	b, err := c.e.currentTemplate(st)
	if err != nil {
		return // reported by stack
	}
	live := weakUnchecked{liveResolver{e: c.e, tx: c.tx, st: st}}
	want := map[string]bool{}
	for _, res := range b.Resources() {
		id := res.LogicalID
		want[id] = true
		rec := c.tx.Resource(st.Num, id)
		if rec == nil {
			c.add("resources/"+st.StackName+"/"+id, "the template of the stack (%s) has it, the stack does not", st.StackStatus)
			continue
		}
		switch rec.ResourceStatus {
		case statemachine.ResourceStatusCreateComplete, statemachine.ResourceStatusUpdateComplete,
			statemachine.ResourceStatusImportComplete: // imported by a create or update (ImportExistingResources)
		default:
			c.add(whereResource(st, rec), "it is %s in a stack at rest in %s", rec.ResourceStatus, st.StackStatus)
			continue
		}
		if rec.Skipped {
			continue
		}
		props, err := b.Properties(id, live)
		if err != nil || !template.IsKnown(props) {
			c.add(whereResource(st, rec), "its properties do not resolve: %v", err)
			continue
		}
		if holdsWeak(props) {
			// Fn::GetStackOutput read the producer when the resource was
			// made; the producer may have moved on since (a weak
			// reference): nothing to compare with.
			continue
		}
		if !resources.LooseEqual(normalize(props), normalize(rec.Properties)) {
			c.add(whereResource(st, rec), "it has the properties %v, its template says %v (stack %s)", rec.Properties, props, st.StackStatus)
		}
	}
	var extra []string
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		if !want[rec.LogicalResourceId] {
			extra = append(extra, rec.LogicalResourceId)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		c.add(whereStack(st), "it (%s) holds resources its template does not have: %v", st.StackStatus, extra)
	}
	if old := c.tx.RetiredOf(st.Num); len(old) > 0 {
		c.add(whereResource(st, old[0]), "the stack (%s) still holds %d old physical resource(s)", st.StackStatus, len(old))
	}
}

// normalize makes an absent property set and an empty one the same.
func normalize(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// waitsOnChild tells whether an operation in motion has a step in flight
// that waits on a nested stack whose own operation is in motion (and so
// will wake it).
func (c *checker) waitsOnChild(op *store.OperationRecord) bool {
	for _, row := range c.tx.StepsOf(op.Id) {
		if row.State != store.StepRunning || !row.Launched || row.PhysicalID == "" {
			continue
		}
		child := c.tx.StackByID(row.PhysicalID)
		if child == nil || child.ParentId != op.StackId || child.OperationId == "" {
			continue
		}
		if cop := c.tx.Operation(child.OperationId); cop != nil && cop.InMotion {
			return true
		}
	}
	// A cleanup waits for its nested stacks' cleanups.
	st := c.tx.StackByID(op.StackId)
	if st == nil || op.Plan == nil || op.Phase >= len(op.Plan.Phases()) || !op.Plan.Phases()[op.Phase].IsCleanup() {
		return false
	}
	for _, rec := range c.tx.ResourcesOf(st.Num) {
		if rec.ResourceType != store.StackResourceType || rec.PhysicalResourceId == "" {
			continue
		}
		child := c.tx.StackByID(rec.PhysicalResourceId)
		if child == nil || child.ParentId != st.StackId || child.OperationId == "" {
			continue
		}
		if cop := c.tx.Operation(child.OperationId); cop != nil && cop.InMotion {
			return true
		}
	}
	return false
}

// eventOperation checks the operation an event carries, given the one of
// the event before (0 for the first, or for events of a state file written
// before operations were counted): a stack event that begins an operation
// carries the next one, of the type its status begins; every other event
// the operation of the event before.
func (c *checker) eventOperation(st *store.StackRecord, seq uint64, ev *store.EventRecord, before store.OpTag) {
	if ev.Op == 0 {
		if before != 0 {
			c.add(whereEvent(st, seq), "it has no operation, the event before it has %q", before)
		}
		return
	}
	if ev.OfStack {
		if typ := operationStartedBy(statemachine.StackStatus(ev.Status), before); typ != "" {
			if ev.Op.Type() != typ || before != 0 && ev.Op.Number() != before.Number()+1 {
				c.add(whereEvent(st, seq), "it begins operation %q after %q; want the next one, of type %s", ev.Op, before, typ)
			}
			return
		}
	}
	if before != 0 && ev.Op != before {
		c.add(whereEvent(st, seq), "it is of operation %q, the event before it of %q", ev.Op, before)
	}
}
