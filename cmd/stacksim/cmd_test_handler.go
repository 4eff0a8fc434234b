package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stacksim/stacksim/resources/contract/suite"
	"github.com/stacksim/stacksim/scenario"
)

// testHandlerCommand is `stacksim test-handler`: cfn test's contract
// suite against a --handler, offline.
func (a *app) testHandlerCommand() *cobra.Command {
	var keyword, junit, schemaFile string
	var noTime bool
	cmd := &cobra.Command{
		Use:   "test-handler [PROJECT_DIR] --handler TYPE=exec:COMMAND ARGS... [-k EXPR] [--junit FILE]",
		Short: "Run the contract tests of 'cfn test' against your resource handler, offline",
		Long: `Run the contract test suite of 'cfn test' against a resource handler that
--handler plugs in, offline and deterministically, with stacksim's contract
checker on: every test of the suite (contract_create_delete,
contract_create_read, contract_delete_read, contract_update_create_only_property,
...) with its fixtures, and every violation of the handler contract fails the
test it happened in, naming its rule.

PROJECT_DIR (the current directory by default) is a resource-type project as
'cfn init' lays it out: its schema (the one *.json at its top with a typeName,
or --schema-file) and inputs/inputs_N_create.json, inputs_N_update.json and
inputs_N_invalid.json, each set N run in turn; without inputs, they are
generated from the schema. Callbacks run in virtual time: each test shows the
virtual time its handler asked for, and the real time spent in the handler.

Exit status: 0 when every test passed or was skipped, 1 when one failed, 2 for
bad input. docs/handlers.md says how it differs from 'cfn test'.`,
		Example: `  stacksim test-handler examples/handlers/python --handler 'Example::Python::Box=exec+persistent:python3 examples/handlers/python/handler.py'
  stacksim test-handler . --handler 'Acme::Example::Thing=exec+rpdk-test+persistent:node launcher.js dist/handlers.js' -k 'delete and not list' --junit contract.xml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			var sel func(string, []string) bool
			if cmd.Flags().Changed("k") {
				m, err := suite.ParseSelect(keyword)
				if err != nil {
					return badInput(err)
				}
				sel = m
			}
			proj, err := suite.LoadProject(dir, schemaFile)
			if err != nil {
				return badInput(err)
			}
			if missing := suite.MissingHandlers(proj.Schema); len(missing) > 0 {
				return badInput(fmt.Errorf("%s: the schema declares no %s handler (handlers.%s); the contract tests need create, read and delete", proj.Schema.Source, strings.Join(missing, ", "), missing[0]))
			}
			specs, err := a.handlerFlags.specs()
			if err != nil {
				return badInput(err)
			}
			spec, err := handlerFor(specs, proj.Schema.TypeName)
			if err != nil {
				return badInput(err)
			}
			if spec.SchemaFile == "" {
				spec.SchemaFile = proj.Schema.Source
			}
			th, err := spec.Build(a.schemas, a.log)
			if err != nil {
				return badInput(err)
			}
			defer closeHandler(th.Handler)
			for _, n := range proj.Notes {
				fmt.Fprintf(a.stderr, "stacksim: %s\n", n)
			}
			p, err := providerOf(th)
			if err != nil {
				return badInput(err)
			}
			results := suite.Run(cmd.Context(), p, proj, suite.Options{Select: sel})
			if len(results) == 0 {
				return badInput(fmt.Errorf("-k %q selects no test; the tests are %s", keyword, testNames()))
			}
			suite.WriteText(a.stdout, results, suite.TextOptions{RealTime: !noTime})
			if junit != "" {
				var buf bytes.Buffer
				if err := suite.WriteJUnit(&buf, proj.Schema.TypeName, results); err != nil {
					return err
				}
				if err := os.WriteFile(junit, buf.Bytes(), 0o644); err != nil {
					return badInput(fmt.Errorf("--junit %s: %w", junit, err))
				}
			}
			if suite.Summarize(results).Failed > 0 {
				return exitWith(exitFailed)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&keyword, "k", "k", "", "run only the tests this expression selects, as pytest -k does: words (a part of a test's name, or a marker: create, read, update, delete, list) with and, or, not")
	f.StringVar(&junit, "junit", "", "also write the results as JUnit XML to this file")
	f.StringVar(&schemaFile, "schema-file", "", "the project's schema file (default: the one resource schema at the top of PROJECT_DIR)")
	f.BoolVar(&noTime, "no-handler-time", false, "leave the handler's real time out of the output, so that it is the same from run to run")
	return cmd
}

// handlerFor picks the --handler of the project's type.
func handlerFor(specs []scenario.HandlerSpec, typeName string) (scenario.HandlerSpec, error) {
	for _, s := range specs {
		if s.TypeName == typeName {
			return s, nil
		}
	}
	if len(specs) == 0 {
		return scenario.HandlerSpec{}, fmt.Errorf("test-handler needs the handler: give --handler %s=exec:COMMAND ARGS... (exec+persistent: for one long-lived process; exec+rpdk-test: for a plugin library's test entry point)", typeName)
	}
	return scenario.HandlerSpec{}, fmt.Errorf("no --handler serves %s, the type of the project's schema; give --handler %s=exec:COMMAND ARGS...", typeName, typeName)
}

func testNames() string {
	var names []string
	for _, t := range suite.Tests() {
		names = append(names, t.Name)
	}
	return strings.Join(names, ", ")
}
