package template

import "strings"

// Capabilities a template requires (CreateStack's Capabilities).
const (
	CapabilityIAM        = "CAPABILITY_IAM"
	CapabilityNamedIAM   = "CAPABILITY_NAMED_IAM"
	CapabilityAutoExpand = "CAPABILITY_AUTO_EXPAND"
)

// iamNameProperty lists the IAM resource types that need CAPABILITY_IAM,
// with the property that gives a custom name (which needs
// CAPABILITY_NAMED_IAM), or "" for types that take no name.
var iamNameProperty = map[string]string{
	"AWS::IAM::AccessKey":           "",
	"AWS::IAM::Group":               "GroupName",
	"AWS::IAM::GroupPolicy":         "",
	"AWS::IAM::InstanceProfile":     "InstanceProfileName",
	"AWS::IAM::ManagedPolicy":       "ManagedPolicyName",
	"AWS::IAM::Policy":              "",
	"AWS::IAM::Role":                "RoleName",
	"AWS::IAM::RolePolicy":          "",
	"AWS::IAM::User":                "UserName",
	"AWS::IAM::UserPolicy":          "",
	"AWS::IAM::UserToGroupAddition": "",
}

// Requirement is what a template needs acknowledged: the capabilities, and
// why, worded as ValidateTemplate's CapabilitiesReason.
type Requirement struct {
	Capabilities []string
	// Reason is "The following resource(s) require capabilities:
	// [AWS::IAM::Role]" when IAM resources are the cause.
	Reason string
	// Resources are the logical IDs of the resources that need them.
	Resources []string
}

// Capabilities returns the capabilities the template requires: IAM
// resources need CAPABILITY_IAM, IAM resources with a custom name
// CAPABILITY_NAMED_IAM, and a transform CAPABILITY_AUTO_EXPAND. Conditions
// are not applied (ValidateTemplate has no parameter values); see
// (*Bound).Capabilities for a binding.
func (t *Template) Capabilities() Requirement {
	return capabilities(t, t.Resources)
}

// Capabilities returns the capabilities the resources that exist in this
// binding require.
func (b *Bound) Capabilities() Requirement {
	return capabilities(b.t, b.enabled)
}

func capabilities(t *Template, resources []*Resource) Requirement {
	var req Requirement
	named, iam := false, false
	var types []string
	seen := map[string]bool{}
	for _, r := range resources {
		prop, ok := iamNameProperty[r.Type]
		if !ok {
			continue
		}
		iam = true
		if prop != "" {
			if v := r.Properties.Get(prop); v != nil && !isNoValueRef(v) {
				named = true
			}
		}
		req.Resources = append(req.Resources, r.LogicalID)
		if !seen[r.Type] {
			seen[r.Type] = true
			types = append(types, r.Type)
		}
	}
	switch {
	case named:
		req.Capabilities = append(req.Capabilities, CapabilityNamedIAM)
	case iam:
		req.Capabilities = append(req.Capabilities, CapabilityIAM)
	}
	if iam {
		req.Reason = "The following resource(s) require capabilities: [" + strings.Join(types, ", ") + "]"
	}
	if len(t.Transform) > 0 {
		req.Capabilities = append(req.Capabilities, CapabilityAutoExpand)
	}
	return req
}

func isNoValueRef(n *Node) bool {
	return n.Kind == Map && n.fn == fnRef && n.arg().Kind == String && n.arg().Value == "AWS::NoValue"
}
