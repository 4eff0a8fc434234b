package plan

import "strings"

// An Auto Scaling group's UpdatePolicy can make an update a replacement.
// With AutoScalingReplacingUpdate WillReplace true, CloudFormation makes a
// new group (waiting on its CreationPolicy's signals, if any), and deletes
// the old one in the cleanup; a failed update rolls back to the old group
// and deletes the new one (AWS User Guide, aws-attribute-updatepolicy.html:
// "During replacement, AWS CloudFormation retains the old group until it
// finishes creating the new one"). The policy applies only when the update
// changes the group's launch configuration, launch template,
// VPCZoneIdentifier or mixed instances policy (the same page: "The
// AutoScalingReplacingUpdate and AutoScalingRollingUpdate policies apply
// only when you do one or more of the following"; the properties the
// group's registry schema lists as conditionalCreateOnly); any other
// change is an update in place, as without the policy.

// autoScalingGroupType is the type UpdatePolicy replacements apply to.
const autoScalingGroupType = "AWS::AutoScaling::AutoScalingGroup"

// replacingUpdateTriggers are the properties whose change sets the
// replacing update off.
var replacingUpdateTriggers = map[string]bool{
	"LaunchConfigurationName": true,
	"LaunchTemplate":          true,
	"VPCZoneIdentifier":       true,
	"MixedInstancesPolicy":    true,
}

// RollingUpdateTriggers are the group's properties whose change makes its
// instances obsolete, so that an AutoScalingRollingUpdate replaces them
// (the same as a replacing update's), sorted.
func RollingUpdateTriggers() []string {
	return []string{"LaunchConfigurationName", "LaunchTemplate", "MixedInstancesPolicy", "VPCZoneIdentifier"}
}

// launchChanged tells whether an update that changed these
// top-level properties changed the group's launch.
func launchChanged(changed []string) bool {
	for _, name := range changed {
		if replacingUpdateTriggers[name] {
			return true
		}
	}
	return false
}

// UpdatePolicyReplaces tells whether a type's UpdatePolicy can make an
// update a replacement (ReplacingUpdate has anything to decide), so that
// callers resolve the policy only for those.
func UpdatePolicyReplaces(typeName string) bool { return typeName == autoScalingGroupType }

// WillReplace tells whether a resource's UpdatePolicy (resolved) asks for
// a replacing update: AutoScalingReplacingUpdate.WillReplace true (or
// "true"), on an Auto Scaling group.
func WillReplace(typeName string, updatePolicy any) bool {
	if typeName != autoScalingGroupType {
		return false
	}
	pol, _ := updatePolicy.(map[string]any)
	ru, _ := pol["AutoScalingReplacingUpdate"].(map[string]any)
	switch v := ru["WillReplace"].(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// ReplacingUpdate turns dec, an update in place of an Auto Scaling group
// whose UpdatePolicy asks for a replacing update, into a replacement when
// one of the changed properties (names, top-level) is a trigger (their
// change is otherwise a Conditional replacement, which the policy makes
// certain). Any other decision is returned as it is.
func ReplacingUpdate(typeName string, updatePolicy any, dec Decision, changed []string) Decision {
	if dec.Action != Update || !WillReplace(typeName, updatePolicy) {
		return dec
	}
	if launchChanged(changed) {
		dec.Action, dec.Replacement = CreateThenDelete, ReplacementTrue
	}
	return dec
}

// ChangedProperties are the top-level properties a decision's Changes
// touch.
func (d Decision) ChangedProperties() []string {
	var out []string
	for _, c := range d.Changes {
		if n := c.Name(); len(out) == 0 || out[len(out)-1] != n {
			out = append(out, n)
		}
	}
	return out
}
