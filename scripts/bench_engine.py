#!/usr/bin/env python3
"""make bench-engine: the in-process create benchmarks of issues 13 and 18,
each in a process of its own, in turn.

Issue 18 asks for a create of 500 resources under 5 ms in process
(BenchmarkCreate/500); issue 13, for a create from a 500-resource template
of 25 registry types (BenchmarkCreateMixed/500) within 1.2x of it. Run in
one process, the benchmarks share a heap: the one that runs second inherits
what the first compiled (25 registry schemas, their simulations and
validators: about 4 MB that every collection then marks), which slows it
and flatters their ratio. So each benchmark runs in a process of its own,
the order alternating from round to round, and the ratio is taken per
round (the machine's speed drifts between rounds more than within one).

It prints, for each benchmark, the median wall time (ns/op), CPU time
(cpu-ms/op, every thread) and allocations, then the ratios and whether the
goals hold. Exit status 1 when a goal fails.

  python3 scripts/bench_engine.py [--rounds 9] [--benchtime 100x] [--base REF]

With --base REF, the same benchmarks of git revision REF (built in a
temporary worktree) run in the same rounds, so that a change is measured
against its base on the same machine at the same moments.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

BENCHES = [
    ("create", "BenchmarkCreate$/500$", "BenchmarkCreate/500"),
    ("mixed", "BenchmarkCreateMixed$", "BenchmarkCreateMixed/500"),
    ("template", "BenchmarkCreateTemplate500$", "BenchmarkCreateTemplate500"),
]
CREATE_GOAL_MS = 5.0
MIXED_GOAL_RATIO = 1.2


def build(root, out):
    subprocess.run(["go", "test", "-c", "-o", out, "./engine"], cwd=root, check=True)


def run_one(binary, pattern, name, benchtime):
    """Runs one benchmark in a process of its own: (ms/op, cpu-ms/op, allocs/op)."""
    p = subprocess.run([binary, "-test.run", "^$", "-test.bench", pattern,
                        "-test.benchtime", benchtime, "-test.benchmem"],
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if not line.startswith(name + "-") and not line.startswith(name + " "):
            continue
        ns = re.search(r"\s([\d.]+) ns/op", line)
        cpu = re.search(r"\s([\d.]+) cpu-ms/op", line)
        allocs = re.search(r"\s(\d+) allocs/op", line)
        if ns and allocs:
            return float(ns.group(1)) / 1e6, float(cpu.group(1)) if cpu else float("nan"), int(allocs.group(1))
    sys.exit(f"bench-engine: {name} printed no result:\n{p.stdout}\n{p.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--benchtime", default="100x")
    ap.add_argument("--base", help="a git revision to measure beside the working tree")
    args = ap.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                          check=True).stdout.strip()
    tmp = tempfile.mkdtemp(prefix="bench-engine-")
    try:
        binaries = {"new": os.path.join(tmp, "new.test")}
        build(root, binaries["new"])
        if args.base:
            tree = os.path.join(tmp, "base")
            subprocess.run(["git", "worktree", "add", "--detach", "-q", tree, args.base], cwd=root, check=True)
            try:
                binaries["base"] = os.path.join(tmp, "base.test")
                build(tree, binaries["base"])
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=root, check=True)
        results = {(b, k): [] for b in binaries for k, _, _ in BENCHES}
        for r in range(args.rounds):
            order = [(b, bench) for b in binaries for bench in BENCHES]
            if r % 2:
                order.reverse()
            for b, (key, pattern, name) in order:
                results[(b, key)].append(run_one(binaries[b], pattern, name, args.benchtime))
            row = "  ".join(f"{b} {k} {results[(b, k)][-1][0]:6.2f}" for b in binaries for k, _, _ in BENCHES)
            print(f"round {r + 1}: {row}", flush=True)
        ok = True
        for b in binaries:
            print(f"\n{b}:" if len(binaries) > 1 else "")
            med = {}
            for key, _, name in BENCHES:
                rs = results[(b, key)]
                med[key] = statistics.median(x[0] for x in rs)
                print(f"  {name:28s} {med[key]:6.2f} ms/op (min {min(x[0] for x in rs):.2f})  "
                      f"{statistics.median(x[1] for x in rs):6.2f} cpu-ms/op  "
                      f"{statistics.median(x[2] for x in rs):7.0f} allocs/op")
            per_round = {k: [m[0] / c[0] for m, c in zip(results[(b, k)], results[(b, "create")])]
                         for k in ("mixed", "template")}
            for k in ("mixed", "template"):
                print(f"  {k}/create: median of the rounds' ratios {statistics.median(per_round[k]):.3f} "
                      f"(range {min(per_round[k]):.2f}-{max(per_round[k]):.2f}), ratio of the medians "
                      f"{med[k] / med['create']:.3f}")
            if b == "new":
                create_ok = med["create"] < CREATE_GOAL_MS
                mixed_ok = statistics.median(per_round["mixed"]) <= MIXED_GOAL_RATIO
                print(f"  goal, create of 500 under {CREATE_GOAL_MS} ms (issue 18): {'met' if create_ok else 'NOT met'}")
                print(f"  goal, mixed within {MIXED_GOAL_RATIO}x of create (issue 13): {'met' if mixed_ok else 'NOT met'}")
                ok = ok and create_ok and mixed_ok
        if args.base:
            print("\nnew/base, median of the rounds' ratios:")
            for key, _, name in BENCHES:
                rs = [n[0] / o[0] for n, o in zip(results[("new", key)], results[("base", key)])]
                allocs = statistics.median(x[2] for x in results[("new", key)]) / statistics.median(
                    x[2] for x in results[("base", key)])
                print(f"  {name:28s} time {statistics.median(rs):.3f}  allocs {allocs:.3f}")
        return 0 if ok else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
