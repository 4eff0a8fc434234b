package statefile

import (
	"encoding/json"
	"strconv"

	"github.com/stacksim/stacksim/engine/store"
	"github.com/stacksim/stacksim/internal/jsonvalue"
	"github.com/stacksim/stacksim/resources"
)

// Resources and cloud objects are most of the rows a save writes; their
// JSON is written here field by field, without reflection, byte for byte
// as encoding/json writes these structs (TestFastRowsMatchEncodingJSON).
// A field added to store.ResourceRecord or resources.Object must be added
// here too: the test fails until it is.

// appendResource appends the JSON of a resource's row.
func appendResource(b []byte, r *store.ResourceRecord) ([]byte, error) {
	b = append(b, `{"StackId":`...)
	b = jsonvalue.AppendString(b, r.StackId)
	b = append(b, `,"LogicalResourceId":`...)
	b = jsonvalue.AppendString(b, r.LogicalResourceId)
	b = optString(b, "PhysicalResourceId", r.PhysicalResourceId)
	b = append(b, `,"ResourceType":`...)
	b = jsonvalue.AppendString(b, r.ResourceType)
	b = optString(b, "ResourceStatus", string(r.ResourceStatus))
	b = optString(b, "ResourceStatusReason", r.ResourceStatusReason)
	if !r.LastUpdatedTimestamp.IsZero() {
		t, err := r.LastUpdatedTimestamp.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, `,"LastUpdatedTimestamp":`...)
		b = append(b, t...)
	}
	b = optString(b, "Description", r.Description)
	b = optString(b, "Metadata", r.Metadata)
	var err error
	if len(r.Properties) > 0 {
		b = append(b, `,"Properties":`...)
		if b, err = jsonvalue.Append(b, r.Properties); err != nil {
			return nil, err
		}
	}
	if len(r.Model) > 0 {
		b = append(b, `,"Model":`...)
		if b, err = jsonvalue.Append(b, r.Model); err != nil {
			return nil, err
		}
	}
	if len(r.DependsOn) > 0 {
		b = append(b, `,"DependsOn":[`...)
		for i, d := range r.DependsOn {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, d)
		}
		b = append(b, ']')
	}
	b = optString(b, "DeletionPolicy", r.DeletionPolicy)
	b = optString(b, "UpdateReplacePolicy", r.UpdateReplacePolicy)
	if r.RollbackFailed {
		b = append(b, `,"RollbackFailed":true`...)
	}
	if r.Skipped {
		b = append(b, `,"Skipped":true`...)
	}
	for _, p := range [...]struct {
		name string
		v    any
	}{{"CreationPolicy", r.CreationPolicy}, {"UpdatePolicy", r.UpdatePolicy}} {
		if p.v == nil {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, p.name...)
		b = append(b, `":`...)
		if b, err = jsonvalue.Append(b, p.v); err != nil {
			return nil, err
		}
	}
	b = optString(b, "Retired", r.Retired)
	if r.Drift != nil {
		// Rare (a resource drift detection checked): encoding/json's.
		d, err := json.Marshal(r.Drift)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"Drift":`...)
		b = append(b, d...)
	}
	if len(r.Instances) > 0 {
		// An Auto Scaling group that rolled.
		b = append(b, `,"Instances":[`...)
		for i, in := range r.Instances {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"Id":`...)
			b = jsonvalue.AppendString(b, in.Id)
			b = append(b, `,"Launch":`...)
			b = jsonvalue.AppendString(b, in.Launch)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if len(r.HandleSignals) > 0 {
		// A wait condition handle signalled early: rare, encoding/json's.
		d, err := json.Marshal(r.HandleSignals)
		if err != nil {
			return nil, err
		}
		b = append(b, `,"HandleSignals":`...)
		b = append(b, d...)
	}
	return append(b, '}'), nil
}

// appendObject appends the JSON of a cloud object's row (objectJSON).
func appendObject(b []byte, num uint32, o *resources.Object) ([]byte, error) {
	b = append(b, `{"Num":`...)
	b = strconv.AppendUint(b, uint64(num), 10)
	b = append(b, `,"Obj":`...)
	if o == nil {
		return append(b, "null}"...), nil
	}
	b = append(b, `{"Type":`...)
	b = jsonvalue.AppendString(b, o.Type)
	b = append(b, `,"ID":`...)
	b = jsonvalue.AppendString(b, o.ID)
	b = append(b, `,"Model":`...)
	var err error
	if b, err = jsonvalue.Append(b, o.Model); err != nil {
		return nil, err
	}
	b = append(b, `,"StackID":`...)
	b = jsonvalue.AppendString(b, o.StackID)
	b = append(b, `,"LogicalID":`...)
	b = jsonvalue.AppendString(b, o.LogicalID)
	b = append(b, `,"RequestToken":`...)
	b = jsonvalue.AppendString(b, o.RequestToken)
	return append(b, "}}"...), nil
}

// optString appends ,"name":"v" unless v is empty (omitempty).
func optString(b []byte, name, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return jsonvalue.AppendString(b, v)
}
