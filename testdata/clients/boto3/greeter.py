"""A custom resource handler, as its author writes it: CloudFormation's
request on standard input (stacksim serve --service-token ARN=exec:python3
greeter.py), the response on standard output."""
import json
import sys

req = json.load(sys.stdin)
props = req["ResourceProperties"]
physical = req.get("PhysicalResourceId") or "greeting-" + req["LogicalResourceId"]
resp = {
    "Status": "SUCCESS",
    "PhysicalResourceId": physical,
    "StackId": req["StackId"],
    "RequestId": req["RequestId"],
    "LogicalResourceId": req["LogicalResourceId"],
    "Data": {"Text": "hello " + props.get("Name", "nobody")},
}
if req["RequestType"] != "Delete" and props.get("Name") == "fail":
    resp = dict(resp, Status="FAILED", Reason="the name 'fail' is refused")
print(json.dumps(resp))
