"""stacksim's bridge to AWS's SAM translator.

stacksim expands the AWS::Serverless-2016-10-31 transform with
aws-sam-translator, the library CloudFormation's own transform runs, and
never with a reimplementation. This script reads one request as JSON on
standard input:

    {"template": {...}, "parameterValues": {...}, "region": "us-east-1"}

and writes one answer as JSON on standard output:

    {"template": {...}, "version": "1.110.0"}   the processed template
    {"error": "Invalid Serverless ... "}        the translator refused it
    {"missing": "No module named ..."}          the translator is not installed (exit status 3)

With --serve it stays up: it reads one request per line and writes one
answer per line, until standard input ends, so that the translator is
imported once per stacksim process rather than once per template.
Anything the translator writes to standard output goes to standard error,
so that the answers are the only lines there.

It does not reach the network: managed policies are named from the map
the translator bundles (a name it does not know is not looked up), and no
credentials are given to it.
"""

import json
import sys

answers = sys.stdout


def write(answer):
    answers.write(json.dumps(answer) + "\n")
    answers.flush()


try:
    import samtranslator
    from samtranslator.model.exceptions import ExceptionWithMessage, InvalidDocumentException
    from samtranslator.translator.arn_generator import ArnGenerator
    from samtranslator.translator.transform import transform
except ImportError as err:
    write({"missing": str(err)})
    sys.exit(3)


class OfflinePolicies:
    """A managed policy loader that knows no more than the bundled map."""

    def load(self):
        return {}


def translate(request):
    """The answer to one request."""
    ArnGenerator.BOTO_SESSION_REGION_NAME = request["region"]
    params = dict(request.get("parameterValues") or {})
    try:
        out = transform(request["template"], params, OfflinePolicies())
    except InvalidDocumentException as err:
        return {"error": " ".join([err.message] + [cause.message for cause in err.causes])}
    except ExceptionWithMessage as err:
        return {"error": err.message}
    except Exception as err:  # the translator's own failure, shown as it is
        if type(err).__name__ in ("NoCredentialsError", "EndpointConnectionError", "NoRegionError"):
            return {"error": "%s: %s (the translator asked AWS for something, such as an application of the "
                             "Serverless Application Repository: offline, with no credentials, it cannot)"
                             % (type(err).__name__, err)}
        return {"error": "%s: %s" % (type(err).__name__, err)}
    return {"template": out, "version": samtranslator.__version__}


def serve():
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if line.strip():
            write(translate(json.loads(line)))


if "--serve" in sys.argv[1:]:
    serve()
else:
    write(translate(json.load(sys.stdin)))
