package engine

import (
	"regexp"
	"testing"

	"github.com/stacksim/stacksim/resources/faults"
)

// A fail fault with fail.service reports the raw service error, without
// the handler's wrapper, as AWS's older non-registry types do; its request
// id is the same on every run.
func TestFaultRawServiceError(t *testing.T) {
	reason := func() string {
		e := newTestEngine(t, Options{})
		tpl := "Resources:\n  Zone:\n    Type: AWS::Route53::HostedZone\n    Properties:\n      Name: example.com\n"
		if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "dns", TemplateBody: tpl}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.WaitForStack(ctx(), "dns"); err != nil {
			t.Fatal(err)
		}
		inj, err := faults.Load("faults.yaml", []byte(`faults:
  - match: {logicalId: Zone, action: delete}
    fail:
      message: The specified hosted zone contains non-required resource record sets and so cannot be deleted.
      service: {name: AmazonRoute53, errorCode: HostedZoneNotEmpty}
`))
		if err != nil {
			t.Fatal(err)
		}
		in := DeleteStackInput{StackName: "dns"}
		in.Faults = inj.Faults()
		if _, err := e.DeleteStack(ctx(), in); err != nil {
			t.Fatal(err)
		}
		st, err := e.WaitForStack(ctx(), "dns")
		if err != nil || st.StackStatus != "DELETE_FAILED" {
			t.Fatalf("%v %v", st, err)
		}
		out, err := e.DescribeStackResource(ctx(), DescribeStackResourceInput{StackName: "dns", LogicalResourceId: "Zone"})
		if err != nil {
			t.Fatal(err)
		}
		return out.StackResourceDetail.ResourceStatusReason
	}
	got := reason()
	want := regexp.MustCompile(`^The specified hosted zone contains non-required resource record sets and so cannot be deleted\. ` +
		`\(Service: AmazonRoute53; Status Code: 400; Error Code: HostedZoneNotEmpty; Request ID: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}; Proxy: null\)$`)
	if !want.MatchString(got) {
		t.Fatalf("reason %q", got)
	}
	if again := reason(); again != got {
		t.Errorf("request id differs between runs: %q, %q", got, again)
	}
}
