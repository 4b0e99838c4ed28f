#!/usr/bin/env python3
"""Termination (seed 004, `kivl verify --termination`) over GPUVerify's test suite (issue 19).

For every kernel of the suite that the front end translates, runs
`kivl verify --termination --format json` with the kernel's sizes and -D/-I options, and reads
the `termination` object of the JSON output (`loops`, `proven`, `status`). Prints how many
kernels have loops, how many of those are proven terminating, the unproven ones, and the time
per kernel (median, p90, max).

    scripts/termination-suite.py [--bin KIVL] [--jobs N] [--timeout S] [SUITE]

SUITE defaults to $KIVL_GPUVERIFY_SUITE or ../shared/gpuverify-testsuite/testsuite.
"""
import argparse
import concurrent.futures
import json
import os
import sys
import re
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# GPUVerify options that carry over to kivl as they are (kivl accepts GPUVerify's spellings).
SIZE = re.compile(r"^--(local_size|num_groups|global_size|blockDim|gridDim)=")


def kernels(suite):
    for d, _, fs in os.walk(suite):
        for f in fs:
            if f in ("kernel.cl", "kernel.cu"):
                yield os.path.join(d, f)


def arguments(path):
    """kivl arguments from the header's second line; None when it needs what this script
    does not map (the harness in tests/gpuverify/ is the complete mapping)."""
    with open(path, errors="replace") as fh:
        lines = fh.read().splitlines()
    if len(lines) < 2 or not lines[1].startswith("//"):
        return None
    out = []
    for a in lines[1][2:].split():
        a = a.replace("${KERNEL_DIR}", os.path.dirname(path))
        if SIZE.match(a) or a.startswith("-D") or a.startswith("-I"):
            out.append(a)
        elif a in ("--no-inline", "--no-infer"):
            continue
        else:
            return None
    return out


def run(kivl, path, args, timeout):
    start = time.time()
    try:
        p = subprocess.run(
            [kivl, "verify", "--termination", "--format", "json", "--jobs", "1", "--timeout", str(timeout), *args, path],
            capture_output=True, text=True, timeout=4 * timeout + 30)
        out = json.loads(p.stdout) if p.stdout.strip() else {}
    except (subprocess.TimeoutExpired, json.JSONDecodeError):
        out = {}
    files = out.get("files") or [{}]
    return path, files[0].get("termination"), time.time() - start


# Kernels of the suite with a run that never ends (in kivl's bit-vector semantics): none of
# them may be proven terminating, and the ratio that counts is over the others.
NONTERMINATING = {
    "OpenCL/nonterminating/kernel.cl": "while (true)",
    "OpenCL/break_test/kernel.cl": "x = 0 and work-item 5 or above: the guard x + 100 < 102 stays true",
    "CUDA/misc/pass/misc6/kernel.cu": "while (nondet()): a bodiless function may return non-zero forever",
    "CUDA/misc/pass/misc5/kernel.cu": "while (nondet()) loops",
    "CUDA/predication/test1/kernel.cu": "while (nondet()) loops",
    "CUDA/predication/test2/kernel.cu": "while (nondet()) loops",
    "CUDA/misc/pass/misc4/kernel.cu": "i += blockDim.x wraps past INT_MAX for w = INT_MAX (threads other than 1023 never reach w)",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite", nargs="?", default=os.environ.get(
        "KIVL_GPUVERIFY_SUITE", os.path.join(ROOT, "..", "shared", "gpuverify-testsuite", "testsuite")))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kivl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=30)
    a = ap.parse_args()
    todo = [(k, args) for k in sorted(kernels(a.suite)) if (args := arguments(k)) is not None]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda t: run(a.bin, t[0], t[1], a.timeout), todo))
    translated = [(p, t, s) for p, t, s in results if t is not None]
    looping = [(p, t, s) for p, t, s in translated if t.get("loops", 0) > 0]
    proven = [r for r in looping if r[1].get("status") == "proven"]
    times = sorted(s for _, _, s in translated)
    print(f"{len(todo)} kernels run, {len(translated)} translated and checked, "
          f"{len(looping)} with loops, {len(proven)} of them proven terminating "
          f"({100 * len(proven) / max(1, len(looping)):.1f}%)")
    if times:
        print(f"time per kernel: median {statistics.median(times):.2f} s, "
              f"p90 {times[int(0.9 * (len(times) - 1))]:.2f} s, max {times[-1]:.2f} s")
    rel = lambda p: os.path.relpath(p, a.suite)
    terminating = [r for r in looping if rel(r[0]) not in NONTERMINATING]
    proven_t = [r for r in terminating if r[1].get("status") == "proven"]
    print(f"of the {len(terminating)} with loops that always terminate, {len(proven_t)} proven "
          f"({100 * len(proven_t) / max(1, len(terminating)):.1f}%); "
          f"{len(looping) - len(terminating)} can run forever (NONTERMINATING in this script)")
    for p, t, _ in looping:
        if t.get("status") != "proven":
            why = NONTERMINATING.get(rel(p))
            print(f"  not proven: {rel(p)}  {t}" + (f"  (runs forever: {why})" if why else ""))
    wrong = [rel(p) for p, t, _ in looping if rel(p) in NONTERMINATING and t.get("status") == "proven"]
    if wrong:
        print(f"UNSOUND: proven terminating, but can run forever: {wrong}")
        sys.exit(1)


if __name__ == "__main__":
    main()
