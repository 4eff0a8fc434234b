package stackpolicy

import (
	"fmt"
	"strings"
)

// Decision is a policy's answer for one action on one resource.
type Decision struct {
	Allowed bool
	// Statement is the number (from 1) of the statement that decided: the
	// first that denies, or else the first that allows; 0 when none
	// matched (denied by default).
	Statement int
	// Reason is the resource's status reason when denied, in AWS's words.
	Reason string
}

// Evaluate decides whether the policy allows action on the resource
// logicalID of type resourceType: an explicit Deny wins, then an Allow;
// nothing matching denies (protect-stack-resources.html); a policy without
// statements allows everything.
func (p *Policy) Evaluate(action Action, logicalID, resourceType string) Decision {
	if len(p.Statements) == 0 {
		return Decision{Allowed: true} // {} protects nothing (doc.go)
	}
	resource := "LogicalResourceId/" + logicalID
	allow := 0
	for i, st := range p.Statements {
		if !st.applies(action, resource, resourceType) {
			continue
		}
		if st.Effect == "Deny" {
			return Decision{Statement: i + 1, Reason: fmt.Sprintf("Action denied by stack policy: Statement [#%d] does not allow [%s] for resource [%s];",
				i+1, strings.Join(orDefault(st.Action, string(action)), ", "), strings.Join(orDefault(st.Resource, resource), ", "))}
		}
		if allow == 0 {
			allow = i + 1
		}
	}
	if allow > 0 {
		return Decision{Allowed: true, Statement: allow}
	}
	// UNVERIFIED beyond its first words (doc.go).
	return Decision{Reason: fmt.Sprintf("Action not allowed by stack policy: No statement allows [%s] for resource [%s];", action, resource)}
}

// orDefault is the list a reason quotes: the statement's own, or (for a
// NotAction or NotResource statement) what was asked.
func orDefault(list []string, asked string) []string {
	if len(list) > 0 {
		return list
	}
	return []string{asked}
}

func (st *Statement) applies(action Action, resource, resourceType string) bool {
	if st.Action != nil && !anyMatch(st.Action, string(action)) {
		return false
	}
	if st.NotAction != nil && anyMatch(st.NotAction, string(action)) {
		return false
	}
	if st.Resource != nil && !anyResource(st.Resource, resource) {
		return false
	}
	if st.NotResource != nil && anyResource(st.NotResource, resource) {
		return false
	}
	for _, c := range st.Conditions {
		if !c.holds(resourceType) {
			return false
		}
	}
	return true
}

func (c Condition) holds(resourceType string) bool {
	for _, v := range c.Values {
		if c.Operator == "StringEquals" && v == resourceType {
			return true
		}
		if c.Operator == "StringLike" && match(v, resourceType) {
			return true
		}
	}
	return false
}

func anyMatch(patterns []string, s string) bool {
	for _, p := range patterns {
		if match(p, s) {
			return true
		}
	}
	return false
}

func anyResource(patterns []string, resource string) bool {
	for _, p := range patterns {
		if p == "*" || match(p, resource) {
			return true
		}
	}
	return false
}

// match reports whether s matches pattern, where * matches any run of
// characters and ? any one (case-sensitive, as StringLike is).
func match(pattern, s string) bool {
	// Iterative wildcard matching with backtracking to the last star.
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
