"""A handler author's integration test against stacksim serve, with boto3
unchanged: a stack with parameters and IAM capabilities, a custom resource
served by greeter.py (through --service-token), outputs read back, a failed
create rolled back, delete; an update rolled back by its rollback trigger, an
alarm set to ALARM through boto3's CloudWatch client.

Run by cmd/stacksim's TestServeBoto3 with STACKSIM_ENDPOINT set; by hand:
  stacksim serve --service-token \
    arn:aws:lambda:us-east-1:123456789012:function:greeter='exec:python3 testdata/clients/boto3/greeter.py' &
  STACKSIM_ENDPOINT=http://127.0.0.1:4599 python3 testdata/clients/boto3/handler_test.py
"""
import os
import unittest

import boto3
import botocore.exceptions

TOKEN = "arn:aws:lambda:us-east-1:123456789012:function:greeter"

TEMPLATE = """
Parameters:
  Name:
    Type: String
Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {Service: lambda.amazonaws.com}
            Action: sts:AssumeRole
  Greeting:
    Type: Custom::Greeting
    Properties:
      ServiceToken: %s
      Name: !Ref Name
      Role: !GetAtt Role.Arn
Outputs:
  Text:
    Value: !GetAtt Greeting.Text
  Id:
    Value: !Ref Greeting
""" % TOKEN


def client(service="cloudformation"):
    return boto3.client(
        service,
        endpoint_url=os.environ["STACKSIM_ENDPOINT"],
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )


# The waiters' first poll succeeds (stacksim serve's instant pace); a short
# delay keeps a slower poll from sleeping 30 s.
FAST = {"Delay": 0.01, "MaxAttempts": 100}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.cfn = client()

    def outputs(self, name):
        stack = self.cfn.describe_stacks(StackName=name)["Stacks"][0]
        return {o["OutputKey"]: o["OutputValue"] for o in stack.get("Outputs", [])}

    def test_create_update_delete(self):
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            self.cfn.create_stack(StackName="greet", TemplateBody=TEMPLATE,
                                  Parameters=[{"ParameterKey": "Name", "ParameterValue": "world"}])
        self.assertEqual(e.exception.response["Error"]["Code"], "InsufficientCapabilitiesException")
        self.assertEqual(e.exception.response["Error"]["Message"], "Requires capabilities : [CAPABILITY_IAM]")

        self.cfn.create_stack(StackName="greet", TemplateBody=TEMPLATE, Capabilities=["CAPABILITY_IAM"],
                              Parameters=[{"ParameterKey": "Name", "ParameterValue": "world"}])
        self.cfn.get_waiter("stack_create_complete").wait(StackName="greet", WaiterConfig=FAST)
        self.assertEqual(self.outputs("greet"), {"Text": "hello world", "Id": "greeting-Greeting"})

        self.cfn.update_stack(StackName="greet", UsePreviousTemplate=True, Capabilities=["CAPABILITY_IAM"],
                              Parameters=[{"ParameterKey": "Name", "ParameterValue": "there"}])
        self.cfn.get_waiter("stack_update_complete").wait(StackName="greet", WaiterConfig=FAST)
        self.assertEqual(self.outputs("greet")["Text"], "hello there")

        events = self.cfn.describe_stack_events(StackName="greet")["StackEvents"]
        greeting = [(e["ResourceStatus"]) for e in events if e["LogicalResourceId"] == "Greeting"]
        self.assertEqual(greeting[:2], ["UPDATE_COMPLETE", "UPDATE_IN_PROGRESS"])

        self.cfn.delete_stack(StackName="greet")
        self.cfn.get_waiter("stack_delete_complete").wait(StackName="greet", WaiterConfig=FAST)
        with self.assertRaises(botocore.exceptions.ClientError) as e:
            self.cfn.describe_stacks(StackName="greet")
        self.assertEqual(e.exception.response["Error"]["Message"], "Stack with id greet does not exist")

    def test_handler_failure_rolls_back(self):
        self.cfn.create_stack(StackName="refused", TemplateBody=TEMPLATE, Capabilities=["CAPABILITY_IAM"],
                              Parameters=[{"ParameterKey": "Name", "ParameterValue": "fail"}])
        with self.assertRaises(botocore.exceptions.WaiterError):
            self.cfn.get_waiter("stack_create_complete").wait(StackName="refused", WaiterConfig=FAST)
        stack = self.cfn.describe_stacks(StackName="refused")["Stacks"][0]
        self.assertEqual(stack["StackStatus"], "ROLLBACK_COMPLETE")
        reasons = [e.get("ResourceStatusReason", "") for e in self.cfn.describe_stack_events(StackName="refused")["StackEvents"]
                   if e["LogicalResourceId"] == "Greeting" and e["ResourceStatus"] == "CREATE_FAILED"]
        self.assertEqual(len(reasons), 1)
        self.assertRegex(reasons[0], r"^Received response status \[FAILED\] from custom resource\. Message returned: "
                                     r"the name 'fail' is refused \(RequestId: [-0-9a-f]{36}\)$")

    def test_rollback_trigger(self):
        """An update watched by an alarm the test sets to ALARM, through
        CloudWatch's own client on the same endpoint, rolls back."""
        cw = client("cloudwatch")
        self.cfn.create_stack(StackName="alarms", TemplateBody=ALARM)
        self.cfn.get_waiter("stack_create_complete").wait(StackName="alarms", WaiterConfig=FAST)
        arn = "arn:aws:cloudwatch:us-east-1:123456789012:alarm:checkout-errors"
        watched = "Parameters: {V: {Type: String}}\nResources:\n  P: {Type: AWS::SSM::Parameter, Properties: {Type: String, Value: !Ref V}}\n"
        self.cfn.create_stack(StackName="shop", TemplateBody=watched, Parameters=[{"ParameterKey": "V", "ParameterValue": "1"}],
                              RollbackConfiguration={"RollbackTriggers": [{"Arn": arn, "Type": "AWS::CloudWatch::Alarm"}],
                                                     "MonitoringTimeInMinutes": 5})
        self.cfn.get_waiter("stack_create_complete").wait(StackName="shop", WaiterConfig=FAST)
        stack = self.cfn.describe_stacks(StackName="shop")["Stacks"][0]
        self.assertEqual(stack["RollbackConfiguration"]["RollbackTriggers"], [{"Arn": arn, "Type": "AWS::CloudWatch::Alarm"}])

        with self.assertRaises(botocore.exceptions.ClientError) as e:
            cw.set_alarm_state(AlarmName="nope", StateValue="ALARM", StateReason="test")
        self.assertEqual(e.exception.response["Error"]["Code"], "ResourceNotFound")
        cw.set_alarm_state(AlarmName="checkout-errors", StateValue="ALARM", StateReason="errors above 1")
        alarms = cw.describe_alarms(AlarmNames=["checkout-errors"])["MetricAlarms"]
        self.assertEqual([(a["AlarmName"], a["StateValue"]) for a in alarms], [("checkout-errors", "ALARM")])
        self.cfn.update_stack(StackName="shop", UsePreviousTemplate=True, Parameters=[{"ParameterKey": "V", "ParameterValue": "2"}])
        with self.assertRaises(botocore.exceptions.WaiterError):
            self.cfn.get_waiter("stack_update_complete").wait(StackName="shop", WaiterConfig=FAST)
        events = self.cfn.describe_stack_events(StackName="shop")["StackEvents"]
        rollback = [e.get("ResourceStatusReason") for e in events if e["ResourceStatus"] == "UPDATE_ROLLBACK_IN_PROGRESS"]
        self.assertEqual(rollback, ["Rollback triggered by alarm(s) in ALARM state: [%s]." % arn])

        cw.set_alarm_state(AlarmName="checkout-errors", StateValue="OK", StateReason="fixed")
        self.cfn.update_stack(StackName="shop", UsePreviousTemplate=True, Parameters=[{"ParameterKey": "V", "ParameterValue": "2"}])
        self.cfn.get_waiter("stack_update_complete").wait(StackName="shop", WaiterConfig=FAST)
        for name in ("shop", "alarms"):
            self.cfn.delete_stack(StackName=name)
            self.cfn.get_waiter("stack_delete_complete").wait(StackName=name, WaiterConfig=FAST)


ALARM = """
Resources:
  Errors:
    Type: AWS::CloudWatch::Alarm
    Properties:
      AlarmName: checkout-errors
      Namespace: AWS/Lambda
      MetricName: Errors
      Statistic: Sum
      Period: 60
      EvaluationPeriods: 1
      Threshold: 1
      ComparisonOperator: GreaterThanOrEqualToThreshold
"""


if __name__ == "__main__":
    unittest.main(verbosity=2)
