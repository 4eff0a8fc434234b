package suite

import (
	"encoding/json"
	"strings"

	"github.com/stacksim/stacksim/resources"
)

// Test is one contract test of cfn test's suite (src/rpdk/core/contract/
// suite): its name, pytest markers, a skip condition and its body.
type Test struct {
	Name    string
	Markers []string
	// skip says why the test does not apply to the schema ("" when it does).
	skip func(r *runner) string
	body func(r *runner, f *fixture)
}

// group is tests sharing a fixture (cfn test's module-scoped fixtures:
// created_resource, deleted_resource, updated_resource), run in order.
type group struct {
	fixture  string
	setup    func(r *runner, f *fixture)
	teardown func(r *runner, f *fixture)
	tests    []Test
}

// fixture is what a group's setup made.
type fixture struct {
	input, created, request map[string]any // the create input, the created model
	update, updated         map[string]any // the update request, the updated model
	problems                []Problem      // the setup's failures
}

// Tests lists the suite's tests in the order they run.
func Tests() []Test {
	var out []Test
	for _, g := range groups() {
		out = append(out, g.tests...)
	}
	return out
}

func groups() []group {
	return []group{
		{tests: []Test{{Name: "contract_create_delete", Markers: []string{"create", "delete"}, body: createDelete}}},
		{tests: []Test{{Name: "contract_invalid_create", Markers: []string{"create"}, skip: noReadOnly, body: invalidCreate}}},
		{fixture: "created_resource", setup: setupCreated, teardown: teardownCreated, tests: []Test{
			{Name: "contract_create_create", Markers: []string{"create"}, skip: notWritableIdentifier, body: createCreate},
			{Name: "contract_create_read", Markers: []string{"create", "read"}, body: createRead},
			{Name: "contract_create_list", Markers: []string{"create", "list", "read"}, skip: noHandler("list"), body: createList},
		}},
		{fixture: "deleted_resource", setup: setupDeleted, teardown: teardownDeleted, tests: []Test{
			{Name: "contract_delete_read", Markers: []string{"delete", "read"}, body: deleteRead},
			{Name: "contract_delete_list", Markers: []string{"delete", "list"}, skip: noHandler("list"), body: deleteList},
			{Name: "contract_delete_update", Markers: []string{"delete", "update"}, skip: noHandler("update"), body: deleteUpdate},
			{Name: "contract_delete_delete", Markers: []string{"delete"}, body: deleteDelete},
			{Name: "contract_delete_create", Markers: []string{"create", "delete"}, skip: notWritableIdentifier, body: deleteCreate},
		}},
		{tests: []Test{{Name: "contract_read_without_create", Markers: []string{"read"}, body: readWithoutCreate}}},
		{fixture: "updated_resource", setup: setupUpdated, teardown: teardownCreated, tests: []Test{
			{Name: "contract_update_read", Markers: []string{"update", "read"}, skip: noHandler("update"), body: updateRead},
			{Name: "contract_update_list", Markers: []string{"update", "list"}, skip: either(noHandler("update"), noHandler("list")), body: updateList},
		}},
		{tests: []Test{
			{Name: "contract_update_create_only_property", Markers: []string{"update"}, skip: either(noHandler("update"), noCreateOnly), body: updateCreateOnly},
			{Name: "contract_update_without_create", Markers: []string{"update"}, skip: noHandler("update"), body: updateWithoutCreate},
		}},
	}
}

// Skip conditions, worded as cfn test words them.

func noReadOnly(r *runner) string {
	if len(r.s.ReadOnlyProperties) == 0 {
		return "No readOnly Properties. Skipping test."
	}
	return ""
}

func noCreateOnly(r *runner) string {
	if len(r.s.CreateOnlyProperties) == 0 {
		return "No createOnly Properties. Skipping test."
	}
	return ""
}

// notWritableIdentifier: cfn test's has_only_writable_identifiers, every
// primary identifier a createOnly property (the caller names the resource).
func notWritableIdentifier(r *runner) string {
	for _, p := range r.s.PrimaryIdentifier {
		if !contains(r.s.CreateOnlyProperties, p) {
			return "No writable identifiers. Skipping test."
		}
	}
	return ""
}

func noHandler(action string) func(r *runner) string {
	return func(r *runner) string {
		if !schemaHandlers(r.s)[action] {
			return "the schema declares no " + action + " handler"
		}
		return ""
	}
}

func either(fs ...func(r *runner) string) func(r *runner) string {
	return func(r *runner) string {
		for _, f := range fs {
			if why := f(r); why != "" {
				return why
			}
		}
		return ""
	}
}

// schemaHandlers lists the handlers the schema declares.
func schemaHandlers(s *resources.Schema) map[string]bool {
	var doc struct {
		Handlers map[string]json.RawMessage `json:"handlers"`
	}
	_ = json.Unmarshal(s.Raw(), &doc)
	out := map[string]bool{}
	for k := range doc.Handlers {
		out[k] = true
	}
	return out
}

// MissingHandlers lists the handlers cfn test requires that the schema
// does not declare (create, read, delete).
func MissingHandlers(s *resources.Schema) []string {
	have := schemaHandlers(s)
	var out []string
	for _, h := range []string{"create", "read", "delete"} {
		if !have[h] {
			out = append(out, h)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The tests. Each follows its namesake in cfn test's suite.

func (r *runner) createSuccess(input map[string]any) call {
	c := r.expect(resources.ActionCreate, resources.StatusSuccess, input, nil)
	r.inputHeld(c, input, "CREATE")
	return c
}

func createDelete(r *runner, _ *fixture) {
	input := r.set.Create
	c := r.createSuccess(input)
	d := r.expect(resources.ActionDelete, resources.StatusSuccess, c.ev.ResourceModel, nil)
	_ = d // delete-success-model is the checker's
}

func invalidCreate(r *runner, _ *fixture) {
	defer func() {
		// cfn test deletes what an invalid create may have made, whatever it answers.
		if x := recover(); x != nil {
			r.cleanupInvalid()
			panic(x)
		}
	}()
	c := r.expect(resources.ActionCreate, resources.StatusFailed, r.set.Invalid, nil, resources.ErrInvalidRequest)
	_ = c
}

// cleanupInvalid deletes a resource an invalid create made, without
// judging the answer.
func (r *runner) cleanupInvalid() {
	saved := len(r.cur.Problems)
	func() {
		defer func() { _ = recover() }()
		r.drive(r.request(resources.ActionDelete, r.set.Invalid, nil))
	}()
	r.cur.Problems = r.cur.Problems[:saved]
}

func setupCreated(r *runner, f *fixture) {
	f.input = r.set.Create
	c := r.createSuccess(f.input)
	f.created, f.request = c.ev.ResourceModel, f.input
}

func teardownCreated(r *runner, f *fixture) {
	model := f.updated
	if model == nil {
		model = f.created
	}
	if model != nil {
		r.expect(resources.ActionDelete, resources.StatusSuccess, model, nil)
	}
}

func createCreate(r *runner, f *fixture) {
	r.expect(resources.ActionCreate, resources.StatusFailed, f.request, nil, resources.ErrAlreadyExists)
}

func (r *runner) readSuccess(model, input map[string]any) call {
	c := r.expect(resources.ActionRead, resources.StatusSuccess, model, nil)
	r.inputHeld(c, input, "READ")
	return c
}

func createRead(r *runner, f *fixture) { r.readSuccess(f.created, f.input) }

func createList(r *runner, f *fixture) {
	id := r.primaryID(f.created)
	if !contains(r.listIDs(f.created), id) {
		r.assertFail(nil, nil, "list-missing", "LIST does not hold the created resource %q", id)
	}
	r.expect(resources.ActionRead, resources.StatusSuccess, f.created, nil)
}

func setupDeleted(r *runner, f *fixture) {
	f.input = r.set.Create
	c := r.createSuccess(f.input)
	f.created, f.request = c.ev.ResourceModel, f.input
	r.expect(resources.ActionDelete, resources.StatusSuccess, f.created, nil)
}

func teardownDeleted(r *runner, f *fixture) {
	if f.created == nil {
		return
	}
	c := r.drive(r.request(resources.ActionDelete, f.created, nil))
	if c.ev.Status == resources.StatusFailed && c.ev.ErrorCode != resources.ErrNotFound {
		r.assertFail(c.req, c.ev, "error-code", "DELETE of a deleted resource answered %s; want FAILED NotFound", describe(c.ev))
	}
}

func deleteRead(r *runner, f *fixture) {
	r.expect(resources.ActionRead, resources.StatusFailed, f.created, nil, resources.ErrNotFound)
}

func deleteList(r *runner, f *fixture) {
	id := r.primaryID(f.created)
	if contains(r.listIDs(f.created), id) {
		r.assertFail(nil, nil, "list-deleted", "LIST holds the deleted resource %q; a list MUST NOT return a deleted resource", id)
	}
}

func deleteUpdate(r *runner, f *fixture) {
	r.expect(resources.ActionUpdate, resources.StatusFailed, r.updateExample(f.created), f.created, resources.ErrNotFound)
}

func deleteDelete(r *runner, f *fixture) {
	r.expect(resources.ActionDelete, resources.StatusFailed, f.created, nil, resources.ErrNotFound)
}

func deleteCreate(r *runner, f *fixture) {
	c := r.createSuccess(f.request)
	r.expect(resources.ActionDelete, resources.StatusSuccess, c.ev.ResourceModel, nil)
}

func readWithoutCreate(r *runner, _ *fixture) {
	r.expect(resources.ActionRead, resources.StatusFailed, r.set.Invalid, nil, resources.ErrNotFound)
}

// updateExample is the update request for a created model: the model
// with the update input laid on it (cfn test's generate_update_example).
func (r *runner) updateExample(created map[string]any) map[string]any {
	out := resources.CopyModel(created)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range r.set.Update {
		out[k] = v
	}
	// A createOnly property keeps its created value (cfn test refuses
	// update inputs that change one).
	for _, p := range r.s.CreateOnlyProperties {
		if v, ok := resources.Get(created, p); ok {
			_ = resources.Set(out, p, v)
		}
	}
	return out
}

func setupUpdated(r *runner, f *fixture) {
	setupCreated(r, f)
	f.update = r.updateExample(f.created)
	c := r.expect(resources.ActionUpdate, resources.StatusSuccess, f.update, f.created)
	r.inputHeld(c, f.update, "UPDATE")
	f.updated = c.ev.ResourceModel
}

func updateRead(r *runner, f *fixture) {
	if a, b := r.primaryID(f.created), r.primaryID(f.updated); a != b {
		r.assertFail(nil, nil, "primary-identifier-changed", "the update answered primary identifier %q for a resource created as %q", b, a)
	}
	r.readSuccess(f.updated, f.update)
}

func updateList(r *runner, f *fixture) {
	id := r.primaryID(f.updated)
	if !contains(r.listIDs(f.updated), id) {
		r.assertFail(nil, nil, "list-missing", "LIST does not hold the updated resource %q", id)
	}
}

func updateCreateOnly(r *runner, _ *fixture) {
	c := r.createSuccess(r.set.Create)
	created := c.ev.ResourceModel
	defer func() {
		x := recover()
		r.expect(resources.ActionDelete, resources.StatusSuccess, created, nil)
		if x != nil {
			panic(x)
		}
	}()
	// The created model with every createOnly property changed to the
	// invalid input's value (its identifier kept, so that the handler finds
	// the resource and must refuse the change).
	upd := resources.CopyModel(created)
	changed := false
	for _, p := range r.s.CreateOnlyProperties {
		if r.s.IsReadOnly(p) {
			continue
		}
		if v, ok := resources.Get(r.set.Invalid, p); ok {
			if old, had := resources.Get(created, p); !had || !resources.LooseEqual(old, v) {
				_ = resources.Set(upd, p, v)
				changed = true
			}
		}
	}
	if !changed {
		r.assertFail(nil, nil, "status", "the invalid input changes no createOnly property of the created model (%s); give inputs_%d_invalid.json another value of one", strings.Join(r.s.CreateOnlyProperties, ", "), r.set.N)
	}
	u := r.expect(resources.ActionUpdate, resources.StatusFailed, upd, created, resources.ErrNotUpdatable, resources.ErrNotFound)
	_ = u
}

func updateWithoutCreate(r *runner, _ *fixture) {
	input := r.set.Create
	upd := resources.CopyModel(input)
	for k, v := range r.set.Update {
		upd[k] = v
	}
	r.expect(resources.ActionUpdate, resources.StatusFailed, upd, input, resources.ErrNotFound)
}
