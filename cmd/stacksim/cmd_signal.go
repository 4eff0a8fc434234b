package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
)

func (a *app) signalResourceCommand() *cobra.Command {
	var stack, logicalID, uniqueID, status, until string
	cmd := &cobra.Command{
		Use:   "signal-resource --stack-name NAME --logical-resource-id ID --unique-id ID --status SUCCESS|FAILURE",
		Short: "Signal a resource that waits for signals: its CreationPolicy's, its wait condition's, a rolling update's batch",
		Long: `Send a signal to a resource, as aws cloudformation signal-resource (or
cfn-signal on an instance) does. A resource whose CreationPolicy has a
ResourceSignal, or a wait condition with a Handle, waits CREATE_IN_PROGRESS
for Count SUCCESS signals within its Timeout; a FAILURE signal, or the
timeout, fails its creation. An Auto Scaling group in a rolling update
with WaitOnResourceSignals waits, UPDATE_IN_PROGRESS, for one signal per
new instance of each batch within PauseTime. With --signals auto (the default) the
simulation sends SUCCESS signals itself 30 virtual seconds after the
resource is made; with --signals manual only this command does: stop the
operation while the resource waits (--until, or 'stacksim step'), then
signal it.` + mutatingHelp,
		Example: `  stacksim --signals manual create-stack --stack-name web --template-body file://web.yaml --until WebServer:CREATE_IN_PROGRESS
  stacksim signal-resource --stack-name web --logical-resource-id WebServer --unique-id i-0abc1234 --status SUCCESS`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var missing []string
			for _, f := range []struct{ name, value string }{{"--stack-name", stack}, {"--logical-resource-id", logicalID}, {"--unique-id", uniqueID}, {"--status", status}} {
				if f.value == "" {
					missing = append(missing, f.name)
				}
			}
			if len(missing) > 0 {
				return badInput(fmt.Errorf("the following arguments are required: %s", strings.Join(missing, ", ")))
			}
			in := engine.SignalResourceInput{StackName: stack, LogicalResourceId: logicalID, UniqueId: uniqueID, Status: status}
			return a.mutate(cmd.Context(), mutation{op: "SignalResource", stack: stack, until: until,
				call: func(ctx context.Context, e *engine.Engine, _ engine.Extensions) (any, error) {
					_, err := e.SignalResource(ctx, in)
					return nil, err
				}})
		},
	}
	cmd.Flags().StringVar(&stack, "stack-name", "", "the stack's name (or ARN)")
	cmd.Flags().StringVar(&logicalID, "logical-resource-id", "", "the logical id of the resource to signal")
	cmd.Flags().StringVar(&uniqueID, "unique-id", "", "the signal's unique id (an instance id, say); a second SUCCESS of the same id counts once")
	cmd.Flags().StringVar(&status, "status", "", "SUCCESS or FAILURE")
	cmd.Flags().StringVar(&until, "until", "", "stop right after this event, LOGICAL_ID:STATUS (the stack's name for a stack status; NESTED.LOGICAL_ID for a nested stack's resource), leaving the stack in motion")
	return cmd
}
