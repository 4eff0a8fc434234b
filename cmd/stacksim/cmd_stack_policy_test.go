package main

import "testing"

// set-stack-policy, get-stack-policy, the policy flags of create-stack and
// update-stack, and update-termination-protection, on a state file.
func TestCommandsStackPolicy(t *testing.T) {
	c := newCLI(t)
	dir := "testdata/stack-policy/"
	c.must(0, "create-stack", "--stack-name", "app", "--template-body", "file://"+dir+"v1.yaml", "--stack-policy-body", "file://"+dir+"policy.json", "--quiet")
	c.golden("get-stack-policy", 0, "get-stack-policy", "--stack-name", "app")
	c.golden("update-stack-denied-by-policy", 1, "update-stack", "--stack-name", "app", "--template-body", "file://"+dir+"v2.yaml")
	c.golden("set-stack-policy-invalid", 2, "set-stack-policy", "--stack-name", "app", "--stack-policy-body",
		`{"Statement":[{"Effect":"Allow","Action":"Delete:*","Principal":"*","Resource":"*"}]}`)
	c.golden("update-stack-policy-during-update", 0, "update-stack", "--stack-name", "app", "--template-body", "file://"+dir+"v2.yaml",
		"--stack-policy-during-update-body", `{"Statement":[{"Effect":"Allow","Action":"Update:*","Principal":"*","Resource":"*"}]}`)
	c.must(0, "set-stack-policy", "--stack-name", "app", "--stack-policy-url", "file://"+dir+"policy.json")
	c.golden("update-termination-protection", 0, "update-termination-protection", "--stack-name", "app", "--enable-termination-protection")
	c.golden("delete-stack-protected", 2, "delete-stack", "--stack-name", "app")
	c.must(0, "update-termination-protection", "--stack-name", "app", "--no-enable-termination-protection")
	c.must(0, "delete-stack", "--stack-name", "app", "--quiet")
}
