package scenario

import (
	"context"
	"strings"
	"testing"
)

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{"s.yaml: the file is empty"}},
		{"yaml", "name: x\nsteps: [\n", []string{"s.yaml:3:1: YAML: did not find expected node content"}},
		{"no name", "steps:\n  - note: hi\n", []string{"s.yaml:1:1: the scenario has no name"}},
		{"unknown top key", "name: x\nstep:\n  - note: hi\n", []string{`s.yaml:2:1: unknown key "step"`, `(did you mean "steps"?)`}},
		{"unknown operation", "name: x\nsteps:\n  - UpdateStak: {StackName: a}\n", []string{`s.yaml:3:5: unknown key "UpdateStak" in a step`, `did you mean "UpdateStack"?`}},
		{"unknown member", "name: x\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: 'Resources: {}', OnFailur: DELETE}\n",
			[]string{`s.yaml:3:64: unknown member "OnFailur" in CreateStack`, `did you mean "OnFailure"?`}},
		{"wrong type", "name: x\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: x, DisableRollback: maybe}\n",
			[]string{`s.yaml:3:67: CreateStack.DisableRollback must be true or false, not "maybe"`}},
		{"bad signals", "name: x\nsignals: sometimes\nsteps:\n  - note: hi\n", []string{`s.yaml:2:10: signals must be auto or manual, not "sometimes"`}},
		{"identifier not a mapping", "name: x\nsteps:\n  - CreateChangeSet: {StackName: a, ChangeSetName: c, ChangeSetType: IMPORT, TemplateBody: x, ResourcesToImport: [{ResourceType: T, LogicalResourceId: L, ResourceIdentifier: [a]}]}\n",
			[]string{`CreateChangeSet.ResourcesToImport[0].ResourceIdentifier must be a mapping of names to strings, not a list`}},
		{"identifier value not a string", "name: x\nsteps:\n  - CreateChangeSet: {StackName: a, ChangeSetName: c, ChangeSetType: IMPORT, TemplateBody: x, ResourcesToImport: [{ResourceType: T, LogicalResourceId: L, ResourceIdentifier: {Name: [a]}}]}\n",
			[]string{`CreateChangeSet.ResourcesToImport[0].ResourceIdentifier.Name must be a string, not a list`}},
		{"missing template file", "name: x\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: file://nope.yaml}\n",
			[]string{"s.yaml:3:47: TemplateBody: cannot read nope.yaml"}},
		{"two things", "name: x\nsteps:\n  - CreateStack: {StackName: a, TemplateBody: x}\n    note: hi\n",
			[]string{"s.yaml:4:5: a step does one thing"}},
		{"bad status", "name: x\nsteps:\n  - note: hi\n    expect: {status: UPDATE_ROLBACK_FAILED}\n",
			[]string{"s.yaml:4:22: expect.status:", "UPDATE_ROLLBACK_FAILED"}},
		{"bad drift", "name: x\nsteps:\n  - note: hi\n    expect: {drift: DRIFTD, resources: {Q: {drift: CHANGED}}}\n",
			[]string{`s.yaml:4:21: expect.drift: "DRIFTD" is not one of IN_SYNC, DRIFTED, NOT_CHECKED (did you mean "DRIFTED"?)`, `expect.resources.Q.drift: "CHANGED" is not one of`}},
		{"bad last operations", "name: x\nsteps:\n  - note: hi\n    expect: {lastOperations: [ROLLBAK]}\n",
			[]string{`s.yaml:4:31: expect.lastOperations[0]: "ROLLBAK" is not one of CREATE_STACK, UPDATE_STACK, DELETE_STACK, CONTINUE_ROLLBACK, ROLLBACK, CREATE_CHANGESET (did you mean "ROLLBACK"?)`}},
		{"last operations not a list", "name: x\nsteps:\n  - note: hi\n    expect: {lastOperations: ROLLBACK}\n",
			[]string{`s.yaml:4:30: expect.lastOperations must be a list of operation types`}},
		{"drift properties not a mapping", "name: x\nsteps:\n  - DriftResource: {StackName: a, LogicalResourceId: Q, Properties: [a]}\n",
			[]string{`DriftResource.Properties must be a mapping, not a list`}},
		{"bad stopAt", "name: x\nsteps:\n  - UpdateStack: {StackName: a, UsePreviousTemplate: true}\n    stopAt: Queue\n",
			[]string{"s.yaml:4:13: stopAt", "LOGICAL_ID:STATUS"}},
		{"bad inline fault", "name: x\nsteps:\n  - UpdateStack: {StackName: a, UsePreviousTemplate: true}\n    faults:\n      - match: {logicalId: Q}\n        thrTottle: 3\n",
			[]string{"s.yaml:6:9: faults:", `did you mean "throttle"?`}},
		{"bad service token", "name: x\nserviceTokens:\n  arn: builtin:nope\nsteps:\n  - note: hi\n",
			[]string{`s.yaml:3:8: service token arn: unknown builtin responder "nope"`}},
		{"bad event", "name: x\nsteps:\n  - note: hi\n    expect:\n      events: [Queue]\n",
			[]string{`s.yaml:5:16: an event is written "LOGICAL_ID STATUS"`}},
		// A key written twice is refused, not last-wins: a second steps:
		// [] would make the scenario pass with no expectation.
		{"duplicate steps", "name: x\nsteps:\n  - note: hi\n    expect: {status: CREATE_COMPLETE}\nsteps: []\n",
			[]string{`s.yaml:5:1: mapping key "steps" already defined at line 2, column 1; keep one (YAML would silently keep only the last)`}},
		{"duplicate expectation", "name: x\nsteps:\n  - note: hi\n    expect:\n      status: CREATE_COMPLETE\n      status: ROLLBACK_COMPLETE\n",
			[]string{`s.yaml:6:7: mapping key "status" already defined at line 5, column 7`}},
		{"duplicate member", "name: x\nsteps:\n  - CreateStack: {StackName: a, StackName: b, TemplateBody: x}\n",
			[]string{`s.yaml:3:33: mapping key "StackName" already defined at line 3, column 19`}},
		{"duplicate in a template in place", "name: x\nsteps:\n  - CreateStack:\n      StackName: a\n      TemplateBody:\n        Resources:\n          T: {Type: AWS::SNS::Topic}\n          T: {Type: AWS::SQS::Queue}\n",
			[]string{`s.yaml:8:11: mapping key "T" already defined at line 7, column 11`}},
		{"duplicate in an inline fault", "name: x\nsteps:\n  - UpdateStack: {StackName: a, UsePreviousTemplate: true}\n    faults:\n      - match: {logicalId: Q}\n        fail: NotFound\n        fail: Throttling\n",
			[]string{`s.yaml:7:9: mapping key "fail" already defined at line 6, column 9`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("s.yaml", []byte(tt.text))
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestRunReportsFailures(t *testing.T) {
	sc, err := Load("s.yaml", []byte(`name: failing
steps:
  - CreateStack:
      StackName: a
      TemplateBody: {Resources: {T: {Type: AWS::SNS::Topic}}}
    expect:
      status: UPDATE_COMPLETE
      resources: {T: DELETE_COMPLETE, U: CREATE_COMPLETE}
      events: [T CREATE_FAILED]
      lastOperations: [UPDATE_STACK]
  - UpdateStack: {StackName: a, UsePreviousTemplate: true}
  - note: a stack that is not there
    expect: {stack: nope, drift: IN_SYNC, lastOperations: [CREATE_STACK]}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), sc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"s.yaml:7:7: step 1 (CreateStack a): expected a to be UPDATE_COMPLETE, got CREATE_COMPLETE",
		"s.yaml:7:7: step 1 (CreateStack a): expected the last operations of a to be [UPDATE_STACK], got [CREATE_STACK]",
		"s.yaml:8:19: step 1 (CreateStack a): expected T to be DELETE_COMPLETE, got CREATE_COMPLETE",
		"s.yaml:8:39: step 1 (CreateStack a): a has no resource U",
		"s.yaml:9:16: step 1 (CreateStack a): expected the event T CREATE_FAILED",
		"s.yaml:11:5: step 2 (UpdateStack a) was refused: ValidationError: No updates are to be performed.",
		`s.yaml:13:13: step 3: stack "nope" does not exist`,
	}
	if len(res.Failures) != len(want) {
		t.Fatalf("failures:\n%s", strings.Join(res.Failures, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(res.Failures[i], w) {
			t.Errorf("failure %d:\n got %s\nwant %s", i, res.Failures[i], w)
		}
	}
}
