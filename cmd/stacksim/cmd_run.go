package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/internal/readfile"
	"github.com/stacksim/stacksim/scenario"
)

// runCommand is `stacksim run`: replay scenarios in one process, without a
// state file.
func (a *app) runCommand() *cobra.Command {
	var goldenPath string
	var updateGolden bool
	cmd := &cobra.Command{
		Use:   "run SCENARIO.yaml... [--golden FILE [--update]]",
		Short: "Replay scenarios: stories of stack operations, with faults and expectations",
		Long: `Replay each scenario in one process, in memory (no state file): its steps —
operations with their templates, parameters, faults and service tokens — and
its expectations. The event log is printed on stdout; expectations that do
not hold are listed on stderr, each at its FILE:LINE:COL, then a summary.

--golden FILE compares the log with a stored one (a diff when they differ);
--update rewrites it. With several scenarios, a relative --golden names a
file beside each scenario (fixtures/*/scenario.yaml --golden golden.log).

Exit status: 0 when every expectation held (and every log matched its
golden file), 1 otherwise, 2 for a scenario file that cannot be read (every
problem listed at its FILE:LINE:COL). The format: docs/scenarios.md.`,
		Example: `  stacksim run fixtures/update-rollback-failed/scenario.yaml
  stacksim run fixtures/update-rollback-failed/scenario.yaml --golden fixtures/update-rollback-failed/golden.log
  stacksim run fixtures/*/scenario.yaml --golden golden.log --update`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if updateGolden && goldenPath == "" {
				return badInput(fmt.Errorf("--update rewrites the golden file: give it with --golden FILE"))
			}
			var scenarios []*scenario.Scenario
			var problems []error
			for _, path := range args {
				sc, err := scenario.LoadFile(path)
				if err != nil {
					problems = append(problems, err)
					continue
				}
				scenarios = append(scenarios, sc)
			}
			if len(problems) > 0 {
				return badInput(errors.Join(problems...))
			}
			handlers, err := a.handlerFlags.specs()
			if err != nil {
				return badInput(err)
			}
			pubs, err := a.openPublications()
			if err != nil {
				return err
			}
			defer func() {
				if err := pubs.close(); err != nil {
					fmt.Fprintf(a.stderr, "stacksim: %v\n", err)
				}
			}()
			color := a.colorFor(a.stderr)
			failed := false
			for i, sc := range scenarios {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				res, err := scenario.Run(cmd.Context(), sc, scenario.Options{Logger: a.log, SchemaDir: a.schemas, PermissiveTypes: a.permissive, Handlers: handlers, Notify: pubs.notify(), EventBridge: pubs.send()})
				if err != nil {
					if res != nil {
						fmt.Fprint(a.stdout, res.Log())
					}
					return &exitError{code: exitFailed, err: err}
				}
				log := res.Log()
				a.printLog(log)
				for _, f := range res.Failures {
					fmt.Fprintln(a.stderr, f)
				}
				summary := fmt.Sprintf("%s: %d expectation(s) held", sc.Name, res.Checked)
				bad := !res.OK()
				if bad {
					summary = fmt.Sprintf("%s: %d of %d expectation(s) did not hold", sc.Name, len(res.Failures), res.Checked)
				}
				if goldenPath != "" {
					path := goldenPath
					if len(scenarios) > 1 && !filepath.IsAbs(path) {
						path = filepath.Join(filepath.Dir(sc.File), path)
					}
					msg, ok, err := a.compareGolden(path, log, updateGolden)
					if err != nil {
						return badInput(err)
					}
					summary += ", " + msg
					bad = bad || !ok
				}
				failed = failed || bad
				mark := "ok  "
				if bad {
					mark = "FAIL"
				}
				if color {
					if bad {
						mark = ansiRed + mark + ansiReset
					} else {
						mark = ansiGreen + mark + ansiReset
					}
				}
				fmt.Fprintf(a.stderr, "%s %s\n", mark, summary)
			}
			if failed {
				return exitWith(exitFailed)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&goldenPath, "golden", "", "compare the event log with this file")
	cmd.Flags().BoolVar(&updateGolden, "update", false, "rewrite the --golden file with the event log")
	return cmd
}

// statusWord is the status of an event line of a log.
var statusWord = regexp.MustCompile(`\b[A-Z]+(?:_[A-Z]+)*_(?:IN_PROGRESS|COMPLETE|FAILED|SKIPPED)\b`)

// printLog writes a log, its statuses coloured on a terminal.
func (a *app) printLog(log string) {
	if !a.colorFor(a.stdout) {
		fmt.Fprint(a.stdout, log)
		return
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(log, "\n") {
		switch {
		case len(line) > 10 && line[2] == ':' && line[5] == ':':
			if loc := statusWord.FindStringIndex(line); loc != nil {
				w := line[loc[0]:loc[1]]
				line = ansiDim + line[:8] + ansiReset + line[8:loc[0]] + statusColor(w) + w + ansiReset + line[loc[1]:]
			}
		case strings.HasPrefix(line, "==") || strings.HasPrefix(line, "#"):
			line = ansiBold + strings.TrimSuffix(line, "\n") + ansiReset + "\n"
		case strings.HasPrefix(line, "!!"):
			line = ansiRed + strings.TrimSuffix(line, "\n") + ansiReset + "\n"
		}
		b.WriteString(line)
	}
	fmt.Fprint(a.stdout, b.String())
}

// compareGolden compares a log with its golden file, or rewrites it.
func (a *app) compareGolden(path, log string, update bool) (string, bool, error) {
	if update {
		if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
			return "", false, err
		}
		return "golden log written to " + path, true, nil
	}
	want, err := readfile.Read(path, goldenLimit)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("golden file %s does not exist: write it with --update", path)
	}
	if err != nil {
		return "", false, err
	}
	if bytes.Equal(want, []byte(log)) {
		return "golden log matched", true, nil
	}
	fmt.Fprintf(a.stderr, "the event log differs from %s (- golden, + now); if the change is right, run again with --update:\n%s", path, scenario.Diff(string(want), log))
	return "golden log differs", false, nil
}
