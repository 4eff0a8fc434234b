package main

import (
	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/statemachine"
)

// The document of `explain --stack-name ... --output json`: the stack (or
// its resource) as it is, the stack's resources that failed, and the
// explanation of the status it is in (statemachine.Explanation's JSON).
type liveExplanation struct {
	Stack           *explainedStack          `json:"stack,omitempty"`
	Resource        *explainedResource       `json:"resource,omitempty"`
	FailedResources []failedResource         `json:"failedResources,omitempty"`
	Explanation     statemachine.Explanation `json:"explanation"`
}

type explainedStack struct {
	StackName         string `json:"stackName"`
	StackID           string `json:"stackId"`
	StackStatus       string `json:"stackStatus"`
	StackStatusReason string `json:"stackStatusReason,omitempty"`
}

type explainedResource struct {
	LogicalResourceID    string `json:"logicalResourceId"`
	ResourceType         string `json:"resourceType"`
	StackName            string `json:"stackName"`
	ResourceStatus       string `json:"resourceStatus"`
	ResourceStatusReason string `json:"resourceStatusReason,omitempty"`
}

type failedResource struct {
	LogicalResourceID    string `json:"logicalResourceId"`
	ResourceStatus       string `json:"resourceStatus"`
	ResourceStatusReason string `json:"resourceStatusReason,omitempty"`
}

// structuredExplain: explain writes a document rather than prose when the
// command line asks for json, yaml or yaml-stream. The global default
// (json) and a settings file's output are for AWS's answers, not for
// explain's prose; text and table are prose.
func (a *app) structuredExplain(cmd *cobra.Command) bool {
	f := cmd.Flags().Lookup("output")
	if f == nil || !f.Changed {
		return false
	}
	if _, fromFile := a.fromConfig["output"]; fromFile {
		return false
	}
	switch a.output {
	case outputJSON, outputYAML, outputYAMLStream:
		return true
	}
	return false
}
