package plan_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/stacksim/stacksim/plan"
	"github.com/stacksim/stacksim/resources"
	"github.com/stacksim/stacksim/template"
)

func bind(body string) *template.Bound {
	t, err := template.Parse("example.yaml", []byte(body))
	if err != nil {
		panic(err)
	}
	b, err := t.Bind(template.BindInput{Pseudo: template.Pseudo{Region: "us-east-1", StackName: "example"}})
	if err != nil {
		panic(err)
	}
	return b
}

// live answers Ref and Fn::GetAtt of the deployed resources, as the engine's
// resolver does.
type live map[string]string

func (l live) Ref(id string) (any, error)           { return l[id], nil }
func (l live) GetAtt(id, attr string) (any, error)  { return l[id] + "/" + attr, nil }
func (l live) ImportValue(name string) (any, error) { return nil, fmt.Errorf("no export %s", name) }

func ExampleForCreate() {
	p, err := plan.ForCreate(bind(`
Resources:
  Topic:
    Type: AWS::SNS::Topic
  Queue:
    Type: AWS::SQS::Queue
  Subscription:
    Type: AWS::SNS::Subscription
    Properties:
      Protocol: sqs
      TopicArn: !Ref Topic
      Endpoint: !GetAtt Queue.Arn
`))
	if err != nil {
		panic(err)
	}
	fmt.Print(p)
	// Output:
	// CREATE
	// CREATE_IN_PROGRESS  levels [1 2] [3]
	//   #1  Topic         AWS::SNS::Topic         Create  -
	//   #2  Queue         AWS::SQS::Queue         Create  -
	//   #3  Subscription  AWS::SNS::Subscription  Create  -  after=1,2
}

func ExampleForUpdate() {
	deployed := plan.Deployed{Resources: []plan.DeployedResource{
		{LogicalID: "Topic1", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:123456789012:one", Status: "CREATE_COMPLETE",
			Properties: map[string]any{"TopicName": "one"}},
		{LogicalID: "Topic2", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:123456789012:two", Status: "CREATE_COMPLETE",
			Properties: map[string]any{"DisplayName": "arn:aws:sns:us-east-1:123456789012:one"}, DependsOn: []string{"Topic1"}},
	}}
	schemas := plan.Schemas(func(typeName string) plan.Schema {
		if s, ok, _ := resources.EmbeddedSchema(typeName); ok {
			return s
		}
		return nil
	})
	p, err := plan.ForUpdate(plan.UpdateInput{
		Deployed: deployed,
		Desired: bind(`
Resources:
  Topic1:
    Type: AWS::SNS::Topic
    Properties:
      TopicName: uno
  Topic2:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: !Ref Topic1
`),
		Live:    live{"Topic1": "arn:aws:sns:us-east-1:123456789012:one", "Topic2": "arn:aws:sns:us-east-1:123456789012:two"},
		Schemas: schemas,
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(p)
	for _, c := range plan.Changes(p) {
		rc := c.ResourceChange
		fmt.Println(strings.TrimSpace(fmt.Sprint(rc.Action, " ", rc.LogicalResourceID, " ", rc.Replacement, " ", rc.PolicyAction)))
	}

	// The update fails creating Topic1's new physical resource: the engine
	// journals what ran, and the rollback undoes it.
	journal := plan.Journal{{Step: 1, LogicalID: "Topic1", Outcome: plan.Failed,
		OldPhysicalID: "arn:aws:sns:us-east-1:123456789012:one", NewPhysicalID: "arn:aws:sns:us-east-1:123456789012:uno"}}
	rb, err := plan.Rollback(p, journal, plan.RollbackOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Print(rb)
	b, _ := json.Marshal(rb.Steps[0].Action)
	fmt.Println(string(b))
	// Output:
	// UPDATE
	// UPDATE_IN_PROGRESS  levels [1] [2]
	//   #1  Topic1  AWS::SNS::Topic  CreateThenDelete  arn:aws:sns:us-east-1:123456789012:one  replacement=True policy=ReplaceAndDelete scope=Properties
	//   #2  Topic2  AWS::SNS::Topic  Update            arn:aws:sns:us-east-1:123456789012:two  replacement=False scope=Properties after=1
	// UPDATE_COMPLETE_CLEANUP_IN_PROGRESS  levels [3]
	//   #3  Topic1  AWS::SNS::Topic  Delete  arn:aws:sns:us-east-1:123456789012:one  policy=Delete replaces=1
	// Modify Topic1 True ReplaceAndDelete
	// Modify Topic2 False
	// UPDATE_ROLLBACK
	// UPDATE_ROLLBACK_IN_PROGRESS  levels [1]
	//   #1  Topic1  AWS::SNS::Topic  Restore  arn:aws:sns:us-east-1:123456789012:one  new=arn:aws:sns:us-east-1:123456789012:uno undoes=1 handler=none
	// UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS  levels [2]
	//   #2  Topic1  AWS::SNS::Topic  Delete  arn:aws:sns:us-east-1:123456789012:uno  policy=Delete undoes=1
	// "Restore"
}

func ExampleDecide() {
	schema := &resources.Schema{CreateOnlyProperties: []string{"/properties/TopicName"}}
	d := plan.Decide(schema, false,
		map[string]any{"TopicName": "one", "DisplayName": "One"},
		map[string]any{"TopicName": "two", "DisplayName": "Two"})
	fmt.Println(d.Action, d.Replacement)
	for _, c := range d.Changes {
		fmt.Println(c.Path, c.Before, "→", c.After, c.RequiresRecreation)
	}
	// Output:
	// CreateThenDelete True
	// /DisplayName One → Two Never
	// /TopicName one → two Always
}
