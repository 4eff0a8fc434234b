#!/usr/bin/env python3
"""make bench-serve: stacksim serve beside moto_server, through the same boto3
client and the same template (500 AWS::SSM::Parameter, compact, under 51,200
bytes).

  - create until the waiter succeeds, then delete until the stack is gone:
    medians over RUNS alternating runs, and the ratio moto / stacksim;
  - requests per second and p50/p99 latency of DescribeStacks and
    DescribeStackEvents under 8 concurrent clients for DURATION seconds;
  - the server's resident memory with 10,000 resources (20 stacks of 500);
  - the client alone: the same boto3 calls and waiters against canned
    answers from this script (no stack is made), the floor no server can go
    under; each server's share of a figure is the figure less that floor.

stacksim runs with the contract checker on (--contract report) and its state
file saved after every change; the create/delete timings are also taken of
a second stacksim serve with --in-memory (no state file, as moto keeps its
account). Every server listens on 127.0.0.1 only.

  python3 scripts/bench_serve.py [--runs 5] [--duration 30] [--bin bin/stacksim]
"""
import argparse
import http.server
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import boto3
import botocore.config

# Compact YAML. moto needs a Name on every parameter; the names are the
# stack's (parameter S), so that stacks do not collide.
TEMPLATE = "Parameters:\n  S: {Type: String}\nResources:\n" + "".join(
    '  P%d: {Type: AWS::SSM::Parameter,Properties: {Type: String,Value: v,Name: !Sub "${S}%d"}}\n' % (i, i) for i in range(500))
assert len(TEMPLATE) < 51200, len(TEMPLATE)


def create(cfn, name):
    cfn.create_stack(StackName=name, TemplateBody=TEMPLATE, Parameters=[{"ParameterKey": "S", "ParameterValue": name + "-"}])

WAIT = {"Delay": 0.05, "MaxAttempts": 100000}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, name):
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit("%s exited: %s" % (name, proc.returncode))
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("%s did not listen on %d" % (name, port))


def client(url):
    return boto3.client("cloudformation", endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test",
                        config=botocore.config.Config(retries={"max_attempts": 1}, max_pool_connections=16))


def create_delete(cfn, name):
    t0 = time.perf_counter()
    create(cfn, name)
    cfn.get_waiter("stack_create_complete").wait(StackName=name, WaiterConfig=WAIT)
    t1 = time.perf_counter()
    cfn.delete_stack(StackName=name)
    cfn.get_waiter("stack_delete_complete").wait(StackName=name, WaiterConfig=WAIT)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1


def raw(url, action):
    """The body of one answer, as the client receives it."""
    import urllib.request
    body = ("Action=%s&Version=2010-05-15&StackName=load" % action).encode()
    # moto tells services apart by the SigV4 scope, as stacksim can.
    auth = "AWS4-HMAC-SHA256 Credential=test/20250101/us-east-1/cloudformation/aws4_request, SignedHeaders=host, Signature=0"
    req = urllib.request.Request(url + "/", data=body, headers={"Authorization": auth, "Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(req) as r:
        return r.read()


NS = "http://cloudformation.amazonaws.com/doc/2010-05-15/"


class Canned(http.server.BaseHTTPRequestHandler):
    """Answers CreateStack, DescribeStacks, DeleteStack and ListStacks at
    once, as a server would that made a stack in no time: the stack is
    CREATE_COMPLETE when first described, and gone after its delete. It
    times the client alone."""

    protocol_version = "HTTP/1.1"
    stacks = set()

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def do_POST(self):
        form = {}
        for kv in self.rfile.read(int(self.headers["Content-Length"])).split(b"&"):
            k, _, v = kv.partition(b"=")
            if k in (b"Action", b"StackName"):
                form[k.decode()] = urllib.parse.unquote_plus(v.decode())
        action, name = form.get("Action"), form.get("StackName", "")
        arn = "arn:aws:cloudformation:us-east-1:123456789012:stack/%s/0" % name
        status, result = 200, ""
        if action == "CreateStack":
            self.stacks.add(name)
            result = "<StackId>%s</StackId>" % arn
        elif action == "DeleteStack":
            self.stacks.discard(name)
        elif action == "ListStacks":
            result = "<StackSummaries/>"
        elif action == "DescribeStacks" and name in self.stacks:
            result = ("<Stacks><member><StackName>%s</StackName><StackId>%s</StackId><CreationTime>2025-01-01T00:00:00Z</CreationTime>"
                      "<StackStatus>CREATE_COMPLETE</StackStatus></member></Stacks>" % (name, arn))
        else:
            status = 400
        if status == 200:
            body = "<%sResponse xmlns=\"%s\"><%sResult>%s</%sResult><ResponseMetadata><RequestId>0</RequestId></ResponseMetadata></%sResponse>" % (
                action, NS, action, result, action, action)
        else:
            body = ("<ErrorResponse xmlns=\"%s\"><Error><Type>Sender</Type><Code>ValidationError</Code>"
                    "<Message>Stack with id %s does not exist</Message></Error><RequestId>0</RequestId></ErrorResponse>" % (NS, name))
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def canned_server():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Canned)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def load(url, call, duration, workers=8):
    lat = []
    lock = threading.Lock()
    stop = time.perf_counter() + duration

    def work():
        cfn = client(url)
        mine = []
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            call(cfn)
            mine.append(time.perf_counter() - t0)
        with lock:
            lat.extend(mine)

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lat.sort()
    return len(lat) / duration, lat[len(lat) // 2] * 1000, lat[int(len(lat) * 0.99)] * 1000


def cpu_seconds(pid):
    """The user and system CPU time a process has used."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        vals = dict(line.split(":", 1) for line in f)
    return int(vals["VmRSS"].split()[0]) / 1024, int(vals["VmHWM"].split()[0]) / 1024


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--bin", default="bin/stacksim")
    ap.add_argument("--skip-load", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    args = ap.parse_args()
    if not shutil.which("moto_server"):
        sys.exit("moto_server is not on this machine (pip install 'moto[server]')")
    tmp = tempfile.mkdtemp(prefix="bench-serve-")
    procs = []
    try:
        sport, mport, memport = free_port(), free_port(), free_port()
        stacksim = subprocess.Popen([args.bin, "serve", "--addr", "127.0.0.1:%d" % sport, "--state", os.path.join(tmp, "state.json"),
                                     "--contract", "report"], stderr=subprocess.DEVNULL)
        procs.append(stacksim)
        inmem = subprocess.Popen([args.bin, "serve", "--addr", "127.0.0.1:%d" % memport, "--in-memory",
                                  "--contract", "report"], stderr=subprocess.DEVNULL)
        procs.append(inmem)
        moto = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(mport)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(moto)
        wait_listening(sport, stacksim, "stacksim serve")
        wait_listening(memport, inmem, "stacksim serve --in-memory")
        wait_listening(mport, moto, "moto_server")
        canned = canned_server()
        timed = {"stacksim": "http://127.0.0.1:%d" % sport, "in-memory": "http://127.0.0.1:%d" % memport,
                 "moto": "http://127.0.0.1:%d" % mport, "client": "http://127.0.0.1:%d" % canned.server_address[1]}
        targets = {k: timed[k] for k in ("stacksim", "moto")}
        clients = {k: client(v) for k, v in timed.items()}
        for k, c in clients.items():  # warm them up (imports, first-call costs)
            c.list_stacks()
        print("template: %d resources, %d bytes; %d alternating runs" % (500, len(TEMPLATE), args.runs))
        times = {k: ([], []) for k in timed}
        names = list(timed)
        for i in range(args.runs):
            order = names[i % len(names):] + names[:i % len(names)]
            for k in order:
                c, d = create_delete(clients[k], "bench%d" % i)
                times[k][0].append(c)
                times[k][1].append(d)
        med = {k: (statistics.median(v[0]), statistics.median(v[1])) for k, v in times.items()}
        print("%-10s %12s %12s" % ("", "create (s)", "delete (s)"))
        for k in timed:
            print("%-10s %12.3f %12.3f   runs: create %s" % (k, med[k][0], med[k][1], " ".join("%.3f" % x for x in times[k][0])))
        print("ratio moto/stacksim: create %.1fx, delete %.1fx (state file saved before each answer)" % (med["moto"][0] / med["stacksim"][0], med["moto"][1] / med["stacksim"][1]))
        print("ratio moto/stacksim --in-memory: create %.1fx, delete %.1fx (no state file, as moto)" % (med["moto"][0] / med["in-memory"][0], med["moto"][1] / med["in-memory"][1]))
        floor = med["client"]
        share = {k: (med[k][0] - floor[0], med[k][1] - floor[1]) for k in ("stacksim", "in-memory", "moto")}
        print("the client alone (boto3 and its waiters against canned answers): create %.3f s, delete %.3f s;" % floor)
        print("  each server's share of create (figure less the client's): stacksim %.3f s, --in-memory %.3f s, moto %.3f s:"
              % (share["stacksim"][0], share["in-memory"][0], share["moto"][0]))
        print("  ratio moto/stacksim %.1fx, moto/stacksim --in-memory %.1fx; at 20x moto, stacksim's figure would be %.3f s, %.3f s above the client's"
              % (share["moto"][0] / max(share["stacksim"][0], 1e-6), share["moto"][0] / max(share["in-memory"][0], 1e-6),
                 med["moto"][0] / 20, med["moto"][0] / 20 - floor[0]))

        if not args.skip_load:
            for k, c in clients.items():
                create(c, "load")
                c.get_waiter("stack_create_complete").wait(StackName="load", WaiterConfig=WAIT)
            print("8 clients for %gs each (a stack of 500 resources); the server's CPU per request, and the answer's size:" % args.duration)
            pids = {"stacksim": stacksim.pid, "moto": moto.pid}
            for name, call in [("DescribeStacks", lambda c: c.describe_stacks(StackName="load")),
                               ("DescribeStackEvents", lambda c: c.describe_stack_events(StackName="load"))]:
                for k, url in targets.items():
                    size = len(raw(url, name))
                    cpu0 = cpu_seconds(pids[k])
                    rps, p50, p99 = load(url, call, args.duration)
                    cpu = (cpu_seconds(pids[k]) - cpu0) / (rps * args.duration) * 1000
                    print("  %-20s %-9s %8.0f req/s   p50 %7.1f ms   p99 %7.1f ms   server CPU %5.2f ms/req   %7d bytes"
                          % (name, k, rps, p50, p99, cpu, size))

        if not args.skip_memory:
            c = clients["stacksim"]
            for i in range(20):
                create(c, "mem%d" % i)
            c.get_waiter("stack_create_complete").wait(StackName="mem19", WaiterConfig=WAIT)
            rss, hwm = rss_mb(stacksim.pid)
            size = os.path.getsize(os.path.join(tmp, "state.json")) / (1 << 20)
            print("stacksim serve with 10,000 resources (20 stacks of 500%s): RSS %.0f MB, peak %.0f MB; state file %.1f MB"
                  % ("" if args.skip_load else ", and the load stack", rss, hwm, size))
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
