package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stacksim/stacksim/internal/corpus"
)

func writeCorpus(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		// Created and deleted: a parameter without a default, an SSM type
		// with a public default, a secret and a parameter its references
		// name.
		"ok.yaml": `Parameters:
  Name: {Type: String, AllowedPattern: "[a-z]{3,}"}
  Ami: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", Default: /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64}
  Subnets: {Type: "List<AWS::EC2::Subnet::Id>"}
Resources:
  P:
    Type: AWS::SSM::Parameter
    Properties:
      Type: String
      Value: !Sub "${Name} ${Ami} {{resolve:ssm:/team/setting}} {{resolve:secretsmanager:team/db:SecretString:user}}"
  Q:
    Type: AWS::SSM::Parameter
    Properties: {Type: String, Value: !Select [4, !Ref Subnets]}
`,
		// A macro the run makes, its function a pass-through.
		"macro/uses.yaml": "Transform: Tagger\nResources:\n  T:\n    Type: AWS::SNS::Topic\n",
		// Refused, and listed: an export no stack makes.
		"refused.yaml": "Resources:\n  T:\n    Type: AWS::SSM::Parameter\n    Properties: {Type: String, Value: !ImportValue nobody-exports-this}\n",
		// Rolled back, and not listed: a property the type does not have.
		"rolled-back.yaml": "Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties: {Nope: 1}\n",
	})
	known := map[string]corpus.Why{"refused.yaml": {Verdict: corpus.CannotHave, Reason: "an export no template makes"}}
	var out bytes.Buffer
	code := run(options{dir: dir, known: known}, &out)
	text := out.String()
	for _, want := range []string{
		"CREATE_COMPLETE    ok.yaml\n",
		"CREATE_COMPLETE    macro/uses.yaml\n",
		"REFUSED            refused.yaml: No export named nobody-exports-this found.",
		"ROLLBACK_COMPLETE  rolled-back.yaml: T (AWS::SNS::Topic): ",
		"The 2 that did not create, by verdict:\n",
		"  an input stacksim cannot have (1):\n    refused.yaml\n        an input stacksim cannot have: an export no template makes\n        stacksim: REFUSED No export named",
		"  unexplained (1), by reason: a fault of stacksim, or a verdict to write in internal/corpus/unmade.go:\n",
		"        rolled-back.yaml\n",
		"4 templates: 2 CREATE_COMPLETE (2 deleted to DELETE_COMPLETE; 0 given stand-ins for their author's code or macros), 2 did not create (0 template faults, 1 an input stacksim cannot have, 1 unexplained), 0 broke stacksim\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if code != 1 {
		t.Errorf("exit %d with a template that fails unexplained, want 1", code)
	}

	// Every failure explained: exit 0, unless too few create or the list
	// names a template that creates.
	known["rolled-back.yaml"] = corpus.Why{Verdict: corpus.TemplateFault, Reason: "Nope is no property of a topic"}
	out.Reset()
	if code := run(options{dir: dir, known: known, minCreated: 2}, &out); code != 0 {
		t.Errorf("exit %d with every failure explained, want 0\n%s", code, out.String())
	}
	out.Reset()
	if code := run(options{dir: dir, known: known, minCreated: 3}, &out); code != 1 {
		t.Errorf("exit %d with -min 3 and 2 created, want 1", code)
	}
	known["ok.yaml"] = corpus.Why{Verdict: corpus.TemplateFault, Reason: "stale"}
	out.Reset()
	if code := run(options{dir: dir, known: known}, &out); code != 1 || !strings.Contains(out.String(), "STALE ok.yaml creates, but internal/corpus/unmade.go lists it (template fault: stale): remove it\n") {
		t.Errorf("exit %d with a listed template that creates, want 1 and STALE\n%s", code, out.String())
	}
}

// A template that imports another's exports is created after it, its
// parameter given the producer's stack name; a parameter a property reads
// gets a value of the property's kind.
func TestRunProducersAndProperties(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"net/network.yaml": `Resources:
  Vpc: {Type: AWS::EC2::VPC, Properties: {CidrBlock: 10.0.0.0/16}}
Outputs:
  VpcId:
    Value: !Ref Vpc
    Export: {Name: !Sub "${AWS::StackName}-VpcId"}
`,
		"net/app.yaml": `Parameters:
  NetworkStack: {Type: String}
  Version: {Type: String}
  Subnets: {Type: CommaDelimitedList}
Resources:
  Sg:
    Type: AWS::EC2::SecurityGroup
    Properties:
      GroupDescription: app
      VpcId: {"Fn::ImportValue": !Sub "${NetworkStack}-VpcId"}
  Cluster:
    Type: AWS::EKS::Cluster
    Properties:
      Version: !Ref Version
      RoleArn: arn:aws:iam::123456789012:role/eks
      ResourcesVpcConfig: {SubnetIds: !Ref Subnets}
  Mount:
    Type: AWS::EFS::MountTarget
    Properties:
      FileSystemId: fs-0123456789abcdef0
      SecurityGroups: [!GetAtt Sg.GroupId]
      SubnetId: !Select [1, !Ref Subnets]
`,
	})
	var out, inputs bytes.Buffer
	code := run(options{dir: dir, known: map[string]corpus.Why{}, verbose: &inputs}, &out)
	if code != 0 || !strings.Contains(out.String(), "CREATE_COMPLETE    net/app.yaml\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), inputs.String())
	}
	given := inputs.String()
	for _, want := range []string{"NetworkStack=network,", "Version=1.", "Subnets=subnet-", "after stack network (net/network.yaml)"} {
		if !strings.Contains(given, want) {
			t.Errorf("no %q in the inputs:\n%s", want, given)
		}
	}
}

// A nested stack's child template, in the corpus, is uploaded to the
// bucket and key its TemplateURL names before the parent is created; one
// the corpus does not hold is not.
func TestRunUploadsChildTemplates(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"solution/templates/child.yaml": `Resources:
  T: {Type: AWS::SNS::Topic}
Outputs:
  TopicArn: {Value: !Ref T}
`,
		"solution/main.yaml": `Parameters:
  TemplatesBucket: {Type: String}
Resources:
  Child:
    Type: AWS::CloudFormation::Stack
    Properties:
      TemplateURL: !Sub "https://${TemplatesBucket}.s3.${AWS::Region}.amazonaws.com/templates/child.yaml"
  Sub:
    Type: AWS::SNS::Subscription
    Properties: {TopicArn: !GetAtt Child.Outputs.TopicArn, Protocol: email, Endpoint: a@example.com}
`,
		"other/missing.yaml": `Resources:
  Child:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: "https://s3.amazonaws.com/elsewhere/gone.yaml"}
`,
	})
	var out, inputs bytes.Buffer
	run(options{dir: dir, known: map[string]corpus.Why{}, verbose: &inputs}, &out)
	if !strings.Contains(out.String(), "CREATE_COMPLETE    solution/main.yaml\n") {
		t.Errorf("the parent did not create:\n%s\n%s", out.String(), inputs.String())
	}
	if want := "solution/main.yaml: uploaded solution/templates/child.yaml as https://aaaaaaaa.s3.us-east-1.amazonaws.com/templates/child.yaml\n"; !strings.Contains(inputs.String(), want) {
		t.Errorf("no %q in\n%s", want, inputs.String())
	}
	if strings.Contains(inputs.String(), "other/missing.yaml: uploaded") {
		t.Errorf("uploaded a template the corpus does not hold:\n%s", inputs.String())
	}
}

// A template that names local artefacts that are there is packaged into
// the run's S3 directory first (as `stacksim package` would) and created
// from the packaged template; a property merely missing is no reason to
// package. One that names code that is not there gets a stand-in for it
// (beside links to what is there), unless -no-stand-ins; a child template
// that is not there gets none.
func TestRunPackagesLocalArtefacts(t *testing.T) {
	role := `  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {Version: "2012-10-17", Statement: [{Effect: Allow, Principal: {Service: lambda.amazonaws.com}, Action: sts:AssumeRole}]}
`
	dir := writeCorpus(t, map[string]string{
		"app/template.yaml": `Resources:
` + role + `  Fn:
    Type: AWS::Lambda::Function
    Properties: {Code: ./, Handler: index.handler, Runtime: python3.12, Role: !GetAtt Role.Arn}
  Child:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: ./nested/child.json}
`,
		"app/index.py":          "def handler(event, context):\n    return 1\n",
		"app/nested/child.json": `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}}`,
		// Over 51,200 bytes once packaged: uploaded, and created by URL.
		"big/template.yaml": "Metadata:\n  Filler: " + strings.Repeat("x", 60000) + "\nResources:\n" + role + `  Fn:
    Type: AWS::Lambda::Function
    Properties: {Code: ./, Handler: index.handler, Runtime: python3.12, Role: !GetAtt Role.Arn}
`,
		// ./src is not there; nested/child.json is.
		"gone/template.yaml": `Resources:
` + role + `  Fn:
    Type: AWS::Lambda::Function
    Properties: {Code: ./src, Handler: index.handler, Runtime: python3.12, Role: !GetAtt Role.Arn}
  Child:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: ./nested/child.json}
`,
		"gone/nested/child.json": `{"Resources": {"T": {"Type": "AWS::SNS::Topic"}}}`,
		// A child template that is not there: no stand-in.
		"nochild/template.yaml": `Resources:
  Child:
    Type: AWS::CloudFormation::Stack
    Properties: {TemplateURL: ./child.yaml}
`,
		"nocode/template.yaml": `Resources:
` + role + `  Fn:
    Type: AWS::Lambda::Function
    Properties: {Handler: index.handler, Runtime: python3.12, Role: !GetAtt Role.Arn}
`,
	})
	for _, standIns := range []bool{true, false} {
		var out, inputs bytes.Buffer
		run(options{dir: dir, known: map[string]corpus.Why{}, verbose: &inputs, noStandIns: !standIns}, &out)
		text, given := out.String(), inputs.String()
		created := []string{"app/template.yaml", "big/template.yaml"}
		notCreated := []string{"nochild/template.yaml", "nocode/template.yaml"}
		want := []string{
			"app/template.yaml: packaged into s3://corpus-artefacts first (stacksim package): /Resources/Fn/Properties/Code: ./ as {S3Bucket: corpus-artefacts, S3Key: ",
			"/Resources/Child/Properties/TemplateURL: ./nested/child.json as https://s3.amazonaws.com/corpus-artefacts/",
			"nochild/template.yaml: not packaged, stacksim package fails: Unable to upload artifact ./child.yaml referenced by TemplateURL parameter of Child resource.",
		}
		if standIns {
			created = append(created, "gone/template.yaml")
			want = append(want, "gone/template.yaml: a stand-in for its author's code: Fn Code: src\n",
				"gone/template.yaml: packaged into s3://corpus-artefacts first (stacksim package): /Resources/Fn/Properties/Code: ./src as {S3Bucket: corpus-artefacts, S3Key: ")
		} else {
			notCreated = append(notCreated, "gone/template.yaml")
			want = append(want, "gone/template.yaml: not packaged, stacksim package fails: Unable to upload artifact ./src referenced by Code parameter of Fn resource.")
		}
		for _, rel := range created {
			if !strings.Contains(text, "CREATE_COMPLETE    "+rel+"\n") {
				t.Errorf("stand-ins %v: the packaged %s did not create:\n%s\n%s", standIns, rel, text, given)
			}
		}
		for _, w := range want {
			if !strings.Contains(given, w) {
				t.Errorf("stand-ins %v: no %q in\n%s", standIns, w, given)
			}
		}
		for _, rel := range notCreated {
			if strings.Contains(text, "CREATE_COMPLETE    "+rel) {
				t.Errorf("stand-ins %v: %s created\n%s", standIns, rel, text)
			}
		}
		if strings.Contains(given, "nocode/template.yaml: packaged") || strings.Contains(given, "nochild/template.yaml: a stand-in") {
			t.Errorf("stand-ins %v: packaged a template that names no local artefact, or made up a child template:\n%s", standIns, given)
		}
	}
}

// A template listed as needing stand-ins must create with them, and counts
// as not created without them; one that creates without the stand-ins it
// is listed for is stale.
func TestRunStandInVerdicts(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"count.yaml": `Transform: Count
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties: {TopicName: topic-%d}
    Count: 3
`,
		"plain.yaml": "Resources:\n  T: {Type: AWS::SNS::Topic}\n",
	})
	known := map[string]corpus.Why{
		"count.yaml": {Verdict: corpus.StandIn, Reason: "the Count macro's function is not in the corpus"},
		"plain.yaml": {Verdict: corpus.StandIn, Reason: "listed by mistake: it needs nothing"},
	}
	var out, inputs bytes.Buffer
	code := run(options{dir: dir, known: known, verbose: &inputs}, &out)
	text := out.String()
	if code != 1 || !strings.Contains(text, "CREATE_COMPLETE    count.yaml\n") ||
		!strings.Contains(text, "STALE plain.yaml creates without stand-ins, but internal/corpus/unmade.go says it needs them") ||
		!strings.Contains(text, "2 CREATE_COMPLETE (2 deleted to DELETE_COMPLETE; 1 given stand-ins") {
		t.Errorf("with stand-ins: exit %d\n%s", code, text)
	}
	delete(known, "plain.yaml")
	out.Reset()
	code = run(options{dir: dir, known: known, noStandIns: true}, &out)
	text = out.String()
	if code != 0 || strings.Contains(text, "CREATE_COMPLETE    count.yaml") ||
		!strings.Contains(text, "1 an input of its author's, given a stand-in") {
		t.Errorf("without stand-ins: exit %d\n%s", code, text)
	}
}

// The default of an SSM parameter type that names a parameter of the
// author's account is given to the account, with a value of its type;
// a public one is left to the engine.
func TestRunGivesSSMDefaults(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"net.yaml": `Parameters:
  Vpc: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::VPC::Id>", Default: /network/vpc/id}
  Ami: {Type: "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>", Default: /aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64}
Resources:
  Sg:
    Type: AWS::EC2::SecurityGroup
    Properties: {GroupDescription: app, VpcId: !Ref Vpc}
  P:
    Type: AWS::SSM::Parameter
    Properties: {Type: String, Value: !Ref Ami}
`,
	})
	var out, inputs bytes.Buffer
	code := run(options{dir: dir, known: map[string]corpus.Why{}, verbose: &inputs}, &out)
	if code != 0 || !strings.Contains(out.String(), "CREATE_COMPLETE    net.yaml\n") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), inputs.String())
	}
	if given := inputs.String(); !strings.Contains(given, "net.yaml: ssm /network/vpc/id=vpc-") || strings.Contains(given, "ssm /aws/") {
		t.Errorf("want /network/vpc/id given a VPC id and no /aws/ name given:\n%s", given)
	}
}
