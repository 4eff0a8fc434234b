package plan

// The change-set view of a plan: DescribeChangeSet's Changes, with AWS's
// field names and JSON shape (BEHAVIOUR.md §9).

// Scopes of a resource change: which of the resource's attributes change.
const (
	ScopeProperties          = "Properties"
	ScopeMetadata            = "Metadata"
	ScopeCreationPolicy      = "CreationPolicy"
	ScopeUpdatePolicy        = "UpdatePolicy"
	ScopeDeletionPolicy      = "DeletionPolicy"
	ScopeUpdateReplacePolicy = "UpdateReplacePolicy"
	ScopeTags                = "Tags"
)

// Change actions of a resource change.
const (
	ChangeAdd     = "Add"
	ChangeModify  = "Modify"
	ChangeRemove  = "Remove"
	ChangeImport  = "Import"
	ChangeDynamic = "Dynamic"
)

// Evaluations of a change detail.
const (
	// Static: the value is known when the change set is made.
	Static = "Static"
	// Dynamic: the value is known only when the change set runs (it depends
	// on a resource being created, replaced or updated).
	Dynamic = "Dynamic"
)

// Sources of a change detail.
const (
	ResourceReference  = "ResourceReference"  // Ref of a resource whose id may change
	ParameterReference = "ParameterReference" // Ref of a parameter whose value changed
	ResourceAttribute  = "ResourceAttribute"  // Fn::GetAtt of a resource whose attributes may change
	DirectModification = "DirectModification" // the template itself changed
	Automatic          = "Automatic"          // a nested stack, updated every time
)

// Policy actions of a resource change.
const (
	PolicyDelete             = "Delete"
	PolicyRetain             = "Retain"
	PolicySnapshot           = "Snapshot"
	PolicyReplaceAndDelete   = "ReplaceAndDelete"
	PolicyReplaceAndRetain   = "ReplaceAndRetain"
	PolicyReplaceAndSnapshot = "ReplaceAndSnapshot"
)

// KnownAfterApply is how a change set shows a value not known yet.
const KnownAfterApply = "{{changeSet:KNOWN_AFTER_APPLY}}"

// Change is one member of DescribeChangeSet's Changes.
type Change struct {
	Type           string          `json:"Type"`
	ResourceChange *ResourceChange `json:"ResourceChange"`
}

// ResourceChange is what a change set says happens to one resource.
type ResourceChange struct {
	Action             string      `json:"Action"`
	LogicalResourceID  string      `json:"LogicalResourceId"`
	PhysicalResourceID string      `json:"PhysicalResourceId,omitempty"`
	ResourceType       string      `json:"ResourceType"`
	Replacement        Replacement `json:"Replacement,omitempty"`
	PolicyAction       string      `json:"PolicyAction,omitempty"`
	Scope              []string    `json:"Scope"`
	Details            []Detail    `json:"Details"`
	// ChangeSetID is, for a nested stack in a change set made with
	// IncludeNestedStacks, the ARN of the nested stack's own change set.
	ChangeSetID string `json:"ChangeSetId,omitempty"`
	// BeforeContext and AfterContext are the resource's properties before
	// and after the change, as JSON text ({"Properties":{...}}), shown with
	// IncludePropertyValues (recorded from AWS: LocalStack's
	// test_change_set_parameters.snapshot.json; the API reference's
	// ResourceChange: "An encoded JSON string").
	BeforeContext string `json:"BeforeContext,omitempty"`
	AfterContext  string `json:"AfterContext,omitempty"`
}

// Detail is one cause of a resource change.
type Detail struct {
	Target        Target `json:"Target"`
	Evaluation    string `json:"Evaluation,omitempty"`
	ChangeSource  string `json:"ChangeSource,omitempty"`
	CausingEntity string `json:"CausingEntity,omitempty"`
}

// Target is the attribute (and property) a detail is about.
type Target struct {
	Attribute          string     `json:"Attribute"`
	Name               string     `json:"Name,omitempty"`
	RequiresRecreation Recreation `json:"RequiresRecreation,omitempty"`
	// BeforeValue and AfterValue are the property's values (JSON text, or
	// the string itself), as DescribeChangeSet shows them with
	// IncludePropertyValues; "****" for a value from a NoEcho parameter,
	// KnownAfterApply for one not known yet.
	BeforeValue string `json:"BeforeValue,omitempty"`
	AfterValue  string `json:"AfterValue,omitempty"`
	// AttributeChangeType (Add, Remove, Modify) and Path (a JSON pointer
	// such as /Properties/TopicName) are shown with IncludePropertyValues
	// only (recorded from AWS: LocalStack's
	// test_change_set_parameters.snapshot.json, 2025-04-17).
	AttributeChangeType string `json:"AttributeChangeType,omitempty"`
	Path                string `json:"Path,omitempty"`
}

// Changes renders the create and update steps of a plan, and the deletes of
// removed resources, as a change set's Changes, in plan order. NoOp steps,
// the cleanup of old physical resources (part of the replacement's Modify)
// and the steps of other operations show nothing.
func Changes(p *Plan) []Change {
	out := []Change{}
	if p.Operation == OpImport {
		return importChanges(p)
	}
	if p.Operation != OpCreate && p.Operation != OpUpdate {
		return out
	}
	for i := range p.Steps {
		s := &p.Steps[i]
		rc := &ResourceChange{
			LogicalResourceID: s.LogicalID,
			ResourceType:      s.ResourceType,
			Scope:             append([]string{}, s.Scope...),
			Details:           append([]Detail{}, s.Details...),
		}
		if c, ok := p.Contexts[s.ID]; ok {
			rc.BeforeContext, rc.AfterContext = c.Before, c.After
		}
		switch {
		case s.Action == Create:
			rc.Action = ChangeAdd
			// With property values AWS shows an Add as Replacement True
			// (recorded: LocalStack's test_change_set_ref and
			// test_change_set_parameters snapshots, 2025-04).
			rc.Replacement = ReplacementTrue
		case s.Action == Import:
			// ImportExistingResources: the resource is adopted, not made.
			rc.Action = ChangeImport
			rc.PhysicalResourceID = s.PhysicalID
		case s.Action == Update || s.Action.IsReplace():
			rc.Action = ChangeModify
			rc.PhysicalResourceID = s.PhysicalID
			rc.Replacement = s.Replacement
			rc.PolicyAction = s.PolicyAction
		case s.Action.IsDelete() && s.Replaces == 0:
			rc.Action = ChangeRemove
			rc.PhysicalResourceID = s.PhysicalID
			rc.PolicyAction = s.PolicyAction
		default:
			continue
		}
		out = append(out, Change{Type: "Resource", ResourceChange: rc})
	}
	return out
}

// importChanges renders an import plan: an Import of each resource, with
// the physical id it names (as AWS shows it: PSCloudFormation's recorded
// change set, "Action Import ... PhysicalResourceId
// import-bucket-104552851521", no Replacement).
func importChanges(p *Plan) []Change {
	out := make([]Change, 0, len(p.Steps))
	for i := range p.Steps {
		s := &p.Steps[i]
		out = append(out, Change{Type: "Resource", ResourceChange: &ResourceChange{
			Action: ChangeImport, LogicalResourceID: s.LogicalID, PhysicalResourceID: s.PhysicalID,
			ResourceType: s.ResourceType, Scope: []string{}, Details: []Detail{},
		}})
	}
	return out
}

// WithoutValues returns changes as DescribeChangeSet shows them without
// IncludePropertyValues: no values, paths, change types or contexts, and
// each property's details as AWS gives them then (recorded from AWS in
// LocalStack's AWS-validated snapshots):
//
//   - a change a parameter explains: [ParameterReference/Static,
//     DirectModification/Dynamic] (test_change_set_parameters.snapshot.json,
//     2025-04-17);
//   - a change a Ref or Fn::GetAtt of another resource explains: that one
//     detail, ResourceAttribute Dynamic (test_change_set_fn_get_attr
//     .snapshot.json, 2025-04-08: CausingEntity Topic1.DisplayName,
//     Evaluation Dynamic), ResourceReference Static (AWS's answers pasted in
//     gocfn's README and the SAM workshop's change set: CausingEntity
//     S3Bucket, FileDb, Evaluation Static), with no DirectModification;
//   - anything else as it is.
func WithoutValues(changes []Change) []Change {
	out := make([]Change, len(changes))
	for i, c := range changes {
		rc := *c.ResourceChange
		rc.BeforeContext, rc.AfterContext = "", ""
		if rc.Action == ChangeAdd {
			rc.Replacement = ""
		}
		rc.Details = detailsWithoutValues(c.ResourceChange.Details)
		out[i] = Change{Type: c.Type, ResourceChange: &rc}
	}
	return out
}

// detailsWithoutValues rewrites one resource change's details, a group of
// consecutive details with one target at a time.
func detailsWithoutValues(details []Detail) []Detail {
	out := make([]Detail, 0, len(details))
	for start := 0; start < len(details); {
		end := start + 1
		for end < len(details) && sameTarget(details[end].Target, details[start].Target) {
			end++
		}
		group := details[start:end]
		byParam, byResource := false, false
		for _, d := range group {
			switch d.ChangeSource {
			case ParameterReference:
				byParam = true
			case ResourceReference, ResourceAttribute:
				byResource = true
			}
		}
		strip := func(d Detail) Detail {
			d.Target.BeforeValue, d.Target.AfterValue = "", ""
			d.Target.AttributeChangeType, d.Target.Path = "", ""
			return d
		}
		switch {
		case byParam:
			var dynamic []Detail
			for _, d := range group {
				if d.ChangeSource == DirectModification && d.Evaluation == Dynamic {
					dynamic = append(dynamic, strip(d))
					continue
				}
				out = append(out, strip(d))
			}
			out = append(out, dynamic...)
		case byResource:
			for _, d := range group {
				if d.ChangeSource == DirectModification {
					continue
				}
				if d.ChangeSource == ResourceAttribute {
					d.Evaluation = Dynamic
				}
				out = append(out, strip(d))
			}
		default:
			for _, d := range group {
				out = append(out, strip(d))
			}
		}
		start = end
	}
	return out
}

func sameTarget(a, b Target) bool { return a.Attribute == b.Attribute && a.Name == b.Name }
