#!/usr/bin/env python3
"""make bench-scale: does a command cost the same in an account of 10,000
resources as in one of 500?

It builds two accounts with the CLI — one stack of 500 resources (s1), and
twenty such stacks (s1..s20, 10,000 resources) — then times, alternately in
the two accounts, the commands of issue 18:

  describe-stacks --stack-name s1
  describe-stack-events --stack-name s1
  update-stack of s1 that changes one property
  create-stack of another 500-resource stack (on a copy of the account)

and prints the median wall time and peak RSS of each (RUNS runs, default 7),
the ratio 10k/500, and whether the goals hold: ratio within 1.5, each under
50 ms, a read under 40 MB. Exit status 1 when a goal fails.

  python3 scripts/bench_scale.py [--bin bin/stacksim] [--runs 7] [--keep DIR]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RESOURCES = 500
STACKS = 20


def template(value):
    """500 SSM parameters; the first one's Value is the property that an
    update changes; every tenth refers to the one before it."""
    lines = ["Resources:"]
    for i in range(RESOURCES):
        lines.append(f"  P{i:03d}:")
        lines.append("    Type: AWS::SSM::Parameter")
        v = value if i == 0 else f"v{i}"
        if i % 10 == 9:
            lines.append(f"    Properties: {{Type: String, Value: !GetAtt P{i-1:03d}.Value}}")
        else:
            lines.append(f"    Properties: {{Type: String, Value: {v}}}")
    return "\n".join(lines) + "\n"


def run(binary, state, args, check=True):
    """Runs one command; returns (seconds, peak RSS in MB)."""
    env = dict(os.environ, NO_COLOR="1")
    start = time.perf_counter()
    p = subprocess.Popen([binary, "--state", state] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    err = p.stderr.read().decode()
    p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if check and code != 0:
        sys.exit(f"stacksim {' '.join(args)}: exit {code}\n{err}")
    return elapsed, usage.ru_maxrss / 1024.0


def build(binary, work, name, stacks, t1):
    state = os.path.join(work, name + ".db")
    for s in range(1, stacks + 1):
        run(binary, state, ["create-stack", "--stack-name", f"s{s}", "--template-body", "file://" + t1, "--quiet"])
    return state


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="bin/stacksim")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--keep", help="build the accounts in this directory and keep them")
    a = ap.parse_args()
    if a.runs < 5:
        sys.exit("--runs: at least 5 (the figures are medians)")
    binary = os.path.abspath(a.bin)
    work = a.keep or tempfile.mkdtemp(prefix="bench-scale-")
    os.makedirs(work, exist_ok=True)
    t1, t2 = os.path.join(work, "v1.yaml"), os.path.join(work, "v2.yaml")
    with open(t1, "w") as f:
        f.write(template("first"))
    with open(t2, "w") as f:
        f.write(template("second"))

    print(f"building the accounts in {work}: 1 stack and {STACKS} stacks of {RESOURCES} resources")
    t0 = time.perf_counter()
    small = build(binary, work, "a500", 1, t1)
    large = build(binary, work, "a10000", STACKS, t1)
    print(f"  built in {time.perf_counter() - t0:.1f} s; state files {os.path.getsize(small) / 1e6:.1f} MB and "
          f"{os.path.getsize(large) / 1e6:.1f} MB")

    version = {small: 1, large: 1}

    def update(state):
        version[state] = 2 if version[state] == 1 else 1
        return ["update-stack", "--stack-name", "s1", "--template-body",
                "file://" + (t2 if version[state] == 2 else t1), "--quiet"]

    def create(state):
        # On a copy of the account, flushed first: the create's own save
        # flushes the file, and must not pay for the copy's pages.
        copy = state + ".copy"
        shutil.copyfile(state, copy)
        fd = os.open(copy, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        return copy, ["create-stack", "--stack-name", "fresh", "--template-body", "file://" + t1, "--quiet"]

    commands = [
        ("describe-stacks", lambda s: (s, ["describe-stacks", "--stack-name", "s1"]), True),
        ("describe-stack-events", lambda s: (s, ["describe-stack-events", "--stack-name", "s1"]), True),
        ("update-stack (1 property)", lambda s: (s, update(s)), False),
        ("create-stack (500)", create, False),
    ]
    results = {}
    for name, make, _ in commands:
        times = {small: [], large: []}
        rss = {small: [], large: []}
        for _ in range(a.runs):
            for state in (small, large):  # alternately
                path, args = make(state)
                t, m = run(binary, path, args)
                times[state].append(t)
                rss[state].append(m)
        results[name] = (statistics.median(times[small]), statistics.median(times[large]),
                         statistics.median(rss[small]), statistics.median(rss[large]))

    print(f"\nmedians of {a.runs} alternating runs (wall ms; peak RSS MB):")
    print(f"  {'command':28} {'500':>8} {'10,000':>8} {'ratio':>6} {'RSS 500':>8} {'RSS 10k':>8}")
    ok = True
    for name, _, read in commands:
        s, l, ms, ml = results[name]
        ratio = l / s
        marks = []
        if ratio > 1.5:
            marks.append("ratio > 1.5")
        if l > 0.050:
            marks.append("over 50 ms")
        if read and ml > 40:
            marks.append("over 40 MB")
        ok = ok and not marks
        print(f"  {name:28} {s * 1e3:8.1f} {l * 1e3:8.1f} {ratio:6.2f} {ms:8.1f} {ml:8.1f}  "
              + ("ok" if not marks else "FAIL: " + ", ".join(marks)))
    if not a.keep:
        shutil.rmtree(work)
    print("\ngoals " + ("met" if ok else "NOT met"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
