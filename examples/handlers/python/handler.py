#!/usr/bin/env python3
"""A resource handler for Example::Python::Box, in Python's standard library
only, speaking stacksim's handler protocol.

stacksim writes each request as one line of JSON on standard input and reads
one ProgressEvent, one line of JSON, from standard output. The same loop
serves both of stacksim's modes: a process per request (one line, then the
end of input: --handler 'Example::Python::Box=exec:python3 handler.py') and
one long-lived process (--handler 'Example::Python::Box=exec+persistent:...').
Log to standard error: stacksim logs it, and quotes its end when the handler
fails.

The "cloud" is a directory (EXAMPLE_CLOUD_DIR, ./.cloud by default) with a
JSON file per box, so that tests control it and can look inside.
"""

import hashlib
import json
import os
import sys

TYPE_NAME = "Example::Python::Box"
READ_ONLY = ("Id", "Arn")
WRITE_ONLY = ("Secret",)
CREATE_ONLY = ("Name",)
STABILIZE_SECONDS = 5  # virtual seconds under stacksim: a callback costs nothing


def cloud_dir():
    d = os.environ.get("EXAMPLE_CLOUD_DIR", ".cloud")
    os.makedirs(d, exist_ok=True)
    return d


def box_path(box_id):
    return os.path.join(cloud_dir(), box_id + ".json")


def load(box_id):
    if not box_id or "/" in box_id:
        return None
    try:
        with open(box_path(box_id)) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def save(box):
    tmp = box_path(box["Id"]) + ".tmp"
    with open(tmp, "w") as f:
        json.dump(box, f, sort_keys=True)
    os.replace(tmp, box_path(box["Id"]))


def all_boxes():
    out = []
    for name in sorted(os.listdir(cloud_dir())):
        if name.endswith(".json"):
            box = load(name[: -len(".json")])
            if box is not None:
                out.append(box)
    return out


def box_id_of(name):
    return "box-" + hashlib.sha256(name.encode()).hexdigest()[:12]


def model_of(box):
    """What a handler answers: the box without its writeOnly properties."""
    return {k: v for k, v in box.items() if k not in WRITE_ONLY and k != "State"}


def props(desired):
    """The request's properties, with CloudFormation's strings undone."""
    out = dict(desired or {})
    if "Size" in out:
        out["Size"] = int(out["Size"])
    return out


def success(model=None, models=None):
    ev = {"status": "SUCCESS"}
    if model is not None:
        ev["resourceModel"] = model
    if models is not None:
        ev["resourceModels"] = models
    return ev


def failed(code, message):
    return {"status": "FAILED", "errorCode": code, "message": message}


def create(req):
    desired = props(req.get("desiredResourceState"))
    ctx = req.get("callbackContext") or {}
    if ctx.get("stabilizing"):  # the callback: the box is ready now
        box = load(ctx["id"])
        if box is None:
            return failed("NotStabilized", "box %s vanished while it was being made" % ctx["id"])
        box["State"] = "ready"
        save(box)
        return success(model_of(box))
    for p in READ_ONLY:
        if p in desired:
            return failed("InvalidRequest", "%s is read-only: the handler sets it" % p)
    name = desired.get("Name")
    if not name:
        return failed("InvalidRequest", "Name is required")
    box_id = box_id_of(name)
    if load(box_id) is not None:
        return failed("AlreadyExists", "a box named %s exists (%s)" % (name, box_id))
    box = dict(desired)
    box.update(Id=box_id, Arn="arn:example:box:%s:%s" % (req.get("region", ""), box_id), State="creating")
    save(box)
    return {"status": "IN_PROGRESS", "resourceModel": model_of(box),
            "callbackContext": {"stabilizing": True, "id": box_id}, "callbackDelaySeconds": STABILIZE_SECONDS}


def read(req):
    desired = req.get("desiredResourceState") or {}
    box = load(desired.get("Id"))
    if box is None:
        return failed("NotFound", "box %s not found" % desired.get("Id"))
    return success(model_of(box))


def update(req):
    desired = props(req.get("desiredResourceState"))
    previous = props(req.get("previousResourceState"))
    box = load(desired.get("Id"))
    if box is None:
        return failed("NotFound", "box %s not found" % desired.get("Id"))
    for p in CREATE_ONLY:
        if p in desired and desired.get(p) != box.get(p):
            return failed("NotUpdatable", "%s cannot change (from %s to %s); CloudFormation replaces the box" % (p, box.get(p), desired.get(p)))
    for p in ("Label", "Secret"):
        if p not in desired:
            box.pop(p, None)  # a property the template no longer sets goes
    box.update({k: v for k, v in desired.items() if k not in READ_ONLY})
    del previous  # the box itself is the truth; previousResourceState is the template's
    save(box)
    return success(model_of(box))


def delete(req):
    desired = req.get("desiredResourceState") or {}
    box = load(desired.get("Id"))
    if box is None:
        return failed("NotFound", "box %s not found" % desired.get("Id"))
    os.remove(box_path(box["Id"]))
    return success()


def list_(req):
    return success(models=[{"Id": b["Id"]} for b in all_boxes()])


HANDLERS = {"CREATE": create, "READ": read, "UPDATE": update, "DELETE": delete, "LIST": list_}


def handle(line):
    try:
        req = json.loads(line)
        action = req.get("action")
        if action not in HANDLERS:
            return failed("InvalidRequest", "unknown action %r" % action)
        print("%s %s %s" % (action, TYPE_NAME, req.get("logicalResourceIdentifier", "")), file=sys.stderr)
        return HANDLERS[action](req)
    except Exception as e:  # a bug answers FAILED and the process stays up
        print("handler error: %r" % e, file=sys.stderr)
        return failed("InternalFailure", "%s: %s" % (type(e).__name__, e))


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        sys.stdout.write(json.dumps(handle(line), sort_keys=True) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
