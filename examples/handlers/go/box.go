package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/stacksim/stacksim/resources"
)

// box is the handler of Example::Go::Box: create, read, update, delete
// and list against a "cloud" that is a directory with a JSON file per box.
type box struct {
	dir string
}

var (
	readOnly   = []string{"Id", "Arn"}
	createOnly = []string{"Name"}
	writeOnly  = []string{"Secret"}
)

// stabilizeSeconds is how long a new box takes to be ready: a callback of
// that many seconds, virtual ones under stacksim.
const stabilizeSeconds = 5

func (b box) path(id string) string { return filepath.Join(b.dir, id+".json") }

func (b box) load(id string) (map[string]any, error) {
	if id == "" || strings.ContainsAny(id, `/\`) {
		return nil, nil
	}
	data, err := os.ReadFile(b.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(data, &m)
}

func (b box) save(m map[string]any) error {
	if err := os.MkdirAll(b.dir, 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	tmp := b.path(m["Id"].(string)) + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, b.path(m["Id"].(string)))
}

// model is what the handler answers: the box without its writeOnly
// properties and its internal state.
func model(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "State" && !contains(writeOnly, k) {
			out[k] = v
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

func boxID(name string) string {
	sum := sha256.Sum256([]byte(name))
	return "box-" + hex.EncodeToString(sum[:])[:12]
}

// props are the request's properties with CloudFormation's strings undone
// ("3" → 3), as the schema says.
func props(m map[string]any) map[string]any {
	out := resources.CopyModel(m)
	if out == nil {
		out = map[string]any{}
	}
	if s, ok := out["Size"].(string); ok {
		var n json.Number = json.Number(s)
		if i, err := n.Int64(); err == nil {
			out["Size"] = i
		}
	}
	return out
}

func idOf(req *resources.Request) string {
	id, _ := req.DesiredResourceState["Id"].(string)
	return id
}

func (b box) Create(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	desired := props(req.DesiredResourceState)
	if id, ok := req.CallbackContext["stabilizing"].(string); ok { // the callback: ready now
		m, err := b.load(id)
		if err != nil || m == nil {
			return resources.Failed(resources.ErrNotStabilized, "box %s vanished while it was being made", id), err
		}
		m["State"] = "ready"
		return resources.Success(model(m)), b.save(m)
	}
	for _, p := range readOnly {
		if _, ok := desired[p]; ok {
			return resources.Failed(resources.ErrInvalidRequest, "%s is read-only: the handler sets it", p), nil
		}
	}
	name, _ := desired["Name"].(string)
	if name == "" {
		return resources.Failed(resources.ErrInvalidRequest, "Name is required"), nil
	}
	id := boxID(name)
	if m, err := b.load(id); err != nil || m != nil {
		return resources.Failed(resources.ErrAlreadyExists, "a box named %s exists (%s)", name, id), err
	}
	m := desired
	m["Id"] = id
	m["Arn"] = fmt.Sprintf("arn:example:box:%s:%s", req.Region, id)
	m["State"] = "creating"
	if err := b.save(m); err != nil {
		return nil, err
	}
	return resources.InProgress(model(m), map[string]any{"stabilizing": id}, stabilizeSeconds), nil
}

func (b box) Read(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	m, err := b.load(idOf(req))
	if err != nil || m == nil {
		return resources.Failed(resources.ErrNotFound, "box %s not found", idOf(req)), err
	}
	return resources.Success(model(m)), nil
}

func (b box) Update(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	desired := props(req.DesiredResourceState)
	m, err := b.load(idOf(req))
	if err != nil || m == nil {
		return resources.Failed(resources.ErrNotFound, "box %s not found", idOf(req)), err
	}
	for _, p := range createOnly {
		if v, ok := desired[p]; ok && fmt.Sprint(v) != fmt.Sprint(m[p]) {
			return resources.Failed(resources.ErrNotUpdatable, "%s cannot change (from %v to %v); CloudFormation replaces the box", p, m[p], v), nil
		}
	}
	for _, p := range []string{"Label", "Secret"} {
		if _, ok := desired[p]; !ok {
			delete(m, p) // a property the template no longer sets goes
		}
	}
	for k, v := range desired {
		if !contains(readOnly, k) {
			m[k] = v
		}
	}
	if err := b.save(m); err != nil {
		return nil, err
	}
	return resources.Success(model(m)), nil
}

func (b box) Delete(_ context.Context, req *resources.Request) (*resources.ProgressEvent, error) {
	m, err := b.load(idOf(req))
	if err != nil || m == nil {
		return resources.Failed(resources.ErrNotFound, "box %s not found", idOf(req)), err
	}
	return resources.Success(nil), os.Remove(b.path(idOf(req)))
}

func (b box) List(_ context.Context, _ *resources.Request) (*resources.ProgressEvent, error) {
	entries, err := os.ReadDir(b.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	models := []map[string]any{}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, strings.TrimSuffix(e.Name(), ".json"))
		}
	}
	sort.Strings(names)
	for _, id := range names {
		models = append(models, map[string]any{"Id": id})
	}
	return &resources.ProgressEvent{Status: resources.StatusSuccess, ResourceModels: models}, nil
}
