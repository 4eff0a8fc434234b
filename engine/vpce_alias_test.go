package engine

import (
	"strings"
	"testing"
)

// The pattern of real templates that point a Route 53 alias at an
// interface VPC endpoint: the zone and the name split from the first of
// its DnsEntries. It creates, with the contract checker strict; an update
// that adds a subnet keeps the name; the stack deletes.
func TestVPCEndpointAliasTemplate(t *testing.T) {
	body := func(subnets string) string {
		return `Resources:
  Endpoint:
    Type: AWS::EC2::VPCEndpoint
    Properties:
      VpcId: vpc-0123456789abcdef0
      ServiceName: !Sub com.amazonaws.${AWS::Region}.execute-api
      VpcEndpointType: Interface
      PrivateDnsEnabled: true
      SubnetIds: [` + subnets + `]
  Alias:
    Type: AWS::Route53::RecordSet
    Properties:
      HostedZoneId: Z0123456789ABCDEFGHIJ
      Name: api.example.com
      Type: A
      AliasTarget:
        HostedZoneId: !Select [0, !Split [":", !Select [0, !GetAtt Endpoint.DnsEntries]]]
        DNSName: !Select [1, !Split [":", !Select [0, !GetAtt Endpoint.DnsEntries]]]
Outputs:
  Zone:
    Value: !Select [0, !Split [":", !Select [0, !GetAtt Endpoint.DnsEntries]]]
  Name:
    Value: !Select [1, !Split [":", !Select [0, !GetAtt Endpoint.DnsEntries]]]
  Entries:
    Value: !Join [",", !GetAtt Endpoint.DnsEntries]
`
	}
	e := newTestEngine(t, Options{Contract: ContractStrict, Region: "eu-west-1"})
	outputs := func(want string) map[string]string { t.Helper(); return restingOutputs(t, e, "api", want) }
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "api", TemplateBody: body("subnet-0123456789abcdef0, subnet-0123456789abcdef1")}); err != nil {
		t.Fatal(err)
	}
	first := outputs("CREATE_COMPLETE")
	if !strings.HasPrefix(first["Zone"], "Z") || !strings.HasPrefix(first["Name"], "vpce-") || !strings.HasSuffix(first["Name"], ".execute-api.eu-west-1.vpce.amazonaws.com") {
		t.Fatalf("outputs: %v", first)
	}
	if n := strings.Count(first["Entries"], ","); n != 3 || !strings.HasSuffix(first["Entries"], ":*.execute-api.eu-west-1.amazonaws.com") {
		t.Errorf("entries: %s, want the regional name, two zonal ones and the private one", first["Entries"])
	}
	if _, err := e.UpdateStack(ctx(), UpdateStackInput{StackName: "api", TemplateBody: body("subnet-0123456789abcdef0, subnet-0123456789abcdef1, subnet-0123456789abcdef2")}); err != nil {
		t.Fatal(err)
	}
	second := outputs("UPDATE_COMPLETE")
	if second["Name"] != first["Name"] || second["Zone"] != first["Zone"] || strings.Count(second["Entries"], ",") != 4 {
		t.Errorf("after adding a subnet: %v (before %v)", second, first)
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "api"}); err != nil {
		t.Fatal(err)
	}
	restingOutputs(t, e, "api", "DELETE_COMPLETE")
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}

// restingOutputs runs a stack to rest, fails the test unless it is then
// in status want, and returns its outputs by key.
func restingOutputs(t *testing.T, e *Engine, stack, want string) map[string]string {
	t.Helper()
	st, err := e.WaitForStack(ctx(), stack)
	if err != nil || st.StackStatus != want {
		t.Fatalf("stack %s: %s (%s), %v; want %s", stack, st.StackStatus, st.StackStatusReason, err, want)
	}
	out := map[string]string{}
	for _, o := range st.Outputs {
		out[o.OutputKey] = o.OutputValue
	}
	return out
}
