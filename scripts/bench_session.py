#!/usr/bin/env python3
"""make bench-session: does a long stacksim serve session stay the same
size and speed? What a test suite does all day against one server.

It starts `stacksim serve` over a fresh state file and, through boto3,
creates and deletes a stack of RESOURCES SSM parameters CYCLES times
(instant pace: each call returns with its operation at rest). It prints
the server's resident memory and the mean wall time per cycle after the
first cycle and at a quarter, a half and the whole of the run, and exits
1 when the memory at the end is more than LIMIT MB above that after the
first cycle. A deleted stack's records stay readable by its ARN, from
the state file; memory holds the live stacks.

  python3 scripts/bench_session.py [--bin bin/stacksim] [--cycles 800] [--resources 100] [--limit 64]
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import boto3


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="bin/stacksim")
    ap.add_argument("--cycles", type=int, default=800)
    ap.add_argument("--resources", type=int, default=100)
    ap.add_argument("--limit", type=float, default=64)
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"bench_session: {args.bin} is not an executable stacksim: build it first (make build), or give --bin PATH")
    if args.cycles < 1 or args.resources < 1 or args.resources > 500:
        sys.exit("bench_session: --cycles must be at least 1 and --resources between 1 and 500 (a template's limit)")
    work = tempfile.mkdtemp(prefix="stacksim-session-")
    port = free_port()
    server = subprocess.Popen([args.bin, "serve", "--addr", f"127.0.0.1:{port}", "--state", os.path.join(work, "state.db")],
                              stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        cfn = boto3.client("cloudformation", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                           aws_access_key_id="test", aws_secret_access_key="test")
        body = "Resources:\n" + "".join(
            f"  P{i}:\n    Type: AWS::SSM::Parameter\n    Properties: {{Type: String, Value: v{i}, Name: !Sub '${{AWS::StackName}}-{i}'}}\n"
            for i in range(args.resources))
        marks = sorted({1, args.cycles // 4, args.cycles // 2, args.cycles} - {0})
        print(f"stacksim serve: {args.cycles} create+delete cycles of a stack of {args.resources} SSM parameters")
        print("  cycles   RSS (MB)   ms per cycle")
        t0, first, last, ids = time.perf_counter(), None, None, []
        for i in range(1, args.cycles + 1):
            name = f"s{i}"
            ids.append(cfn.create_stack(StackName=name, TemplateBody=body)["StackId"])
            cfn.delete_stack(StackName=name)
            if i in marks:
                last = rss_mb(server.pid)
                first = first if first is not None else last
                print(f"  {i:6d}   {last:8.1f}   {(time.perf_counter() - t0) / i * 1000:12.1f}")
        # The first stack deleted is still described by its ARN.
        st = cfn.describe_stacks(StackName=ids[0])["Stacks"][0]
        events = cfn.describe_stack_events(StackName=ids[0])["StackEvents"]
        print(f"  the first stack, by its ARN: {st['StackStatus']}, {len(events)} events on the first page")
        grew = last - first
        ok = grew <= args.limit and st["StackStatus"] == "DELETE_COMPLETE"
        print(f"  memory grew {grew:.1f} MB over the session (limit {args.limit:g}): {'ok' if ok else 'FAILED'}")
        return 0 if ok else 1
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
