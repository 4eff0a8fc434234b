package engine

import (
	"strings"
	"testing"
)

// A target group's LoadBalancerArns list the load balancer once a
// listener forwards to it, which templates read (an alarm's LoadBalancer
// dimension) from a resource that DependsOn the listener. It creates with
// the contract checker strict, and deletes.
func TestTargetGroupLoadBalancerArnsTemplate(t *testing.T) {
	body := `Resources:
  LB:
    Type: AWS::ElasticLoadBalancingV2::LoadBalancer
    Properties:
      Subnets: [subnet-0123456789abcdef0, subnet-0123456789abcdef1]
  TG:
    Type: AWS::ElasticLoadBalancingV2::TargetGroup
    Properties:
      Port: 80
      Protocol: HTTP
      VpcId: vpc-0123456789abcdef0
  Listener:
    Type: AWS::ElasticLoadBalancingV2::Listener
    Properties:
      LoadBalancerArn: !Ref LB
      Port: 80
      Protocol: HTTP
      DefaultActions:
        - Type: forward
          TargetGroupArn: !Ref TG
  Alarm:
    Type: AWS::CloudWatch::Alarm
    DependsOn: Listener
    Properties:
      MetricName: UnHealthyHostCount
      Namespace: AWS/ApplicationELB
      Statistic: Maximum
      Period: 60
      EvaluationPeriods: 1
      Threshold: 1
      ComparisonOperator: GreaterThanOrEqualToThreshold
      Dimensions:
        - Name: LoadBalancer
          Value: !Select [1, !Split ["loadbalancer/", !Select [0, !GetAtt TG.LoadBalancerArns]]]
        - Name: TargetGroup
          Value: !GetAtt TG.TargetGroupFullName
Outputs:
  L:
    Value: !Join [",", !GetAtt TG.LoadBalancerArns]
  F:
    Value: !GetAtt TG.TargetGroupFullName
`
	e := newTestEngine(t, Options{Contract: ContractStrict})
	if _, err := e.CreateStack(ctx(), CreateStackInput{StackName: "web", TemplateBody: body}); err != nil {
		t.Fatal(err)
	}
	if l := restingOutputs(t, e, "web", "CREATE_COMPLETE")["L"]; !strings.Contains(l, ":loadbalancer/app/web-LB-") {
		t.Errorf("LoadBalancerArns = %q, want the stack's load balancer", l)
	}
	if _, err := e.DeleteStack(ctx(), DeleteStackInput{StackName: "web"}); err != nil {
		t.Fatal(err)
	}
	restingOutputs(t, e, "web", "DELETE_COMPLETE")
	if err := e.CheckInvariants(ctx()); err != nil {
		t.Fatal(err)
	}
}
