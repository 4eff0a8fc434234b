package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/engine"
	"github.com/stacksim/stacksim/internal/readfile"
)

// stacksim state: the state file as readable JSON, and back. The state
// file itself is a database read by need (docs/state-format.md); its JSON
// form is what people read, diff and commit.

func (a *app) stateCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Export the state as JSON, or import it",
		Long: `The state file (--state, .stacksim/state.db by default) is a database that
commands read by need. 'state export' writes the whole account as readable,
stable JSON — the same state gives the same bytes — and 'state import' makes
a state file from such JSON again, after checking it in full.`,
		Example: `  stacksim state export > account.json
  stacksim --state copy.db state import account.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(a.stateExportCommand(), a.stateImportCommand())
	return cmd
}

func (a *app) stateExportCommand() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "export [--output-file FILE]",
		Short: "Write the whole state as JSON (stdout, or a file)",
		Example: `  stacksim state export > account.json
  stacksim state export --output-file account.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			e, err := a.openRead()
			if err != nil {
				return err
			}
			defer e.Close()
			data, err := e.MarshalState()
			if err != nil {
				return badInput(err)
			}
			if out == "" {
				_, err = a.stdout.Write(data)
				return err
			}
			if err := os.WriteFile(out, data, 0o600); err != nil {
				return badInput(fmt.Errorf("--output-file %s: %w", out, err))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "output-file", "", "write the JSON to this file instead of stdout (made with mode 0600: a state may hold NoEcho values)")
	return cmd
}

// maxImportBytes bounds the JSON state import reads (as the state file of
// format 1 was).
const maxImportBytes = 256 << 20

func (a *app) stateImportCommand() *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Make the state file from JSON (what state export wrote)",
		Example: `  stacksim state import account.json
  stacksim --state other.db state import account.json --force`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := readfile.Read(args[0], readfile.Limit{Max: maxImportBytes, What: "a state to import",
				Hint: "a state this large is not one stacksim exported: check the path"})
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return badInput(fmt.Errorf("state import %s: no such file", args[0]))
				}
				return badInput(fmt.Errorf("state import: %w", err))
			}
			opts, err := a.engineOptions()
			if err != nil {
				return err
			}
			if err := os.MkdirAll(filepath.Dir(a.statePath), 0o755); err != nil {
				return badInput(fmt.Errorf("state file %s: cannot make its directory: %w", a.statePath, err))
			}
			opts.StateLock = engine.StateLockOptions{Wait: max(a.lockTimeout, 0), Command: a.commandPath}
			if err := engine.ImportState(a.statePath, args[0], data, force, opts); err != nil {
				var locked *engine.StateLockedError
				if errors.As(err, &locked) {
					locked.Hint = a.lockHint(locked.Hint)
				}
				return badInput(err)
			}
			fmt.Fprintf(a.stderr, "stacksim: imported %s into the state file %s\n", args[0], a.statePath)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "replace the state file when it exists (by default an existing one is refused)")
	return cmd
}
