#!/usr/bin/env python3
"""kivl on whole CUDA/OpenCL programs as their authors wrote them (issues 38 and 39).

Runs `kivl verify --format json [ARGS] FILE` on every `.cu`/`.cl` file under DIR (for example
NVIDIA's cuda-samples checkout's `Samples/`, with `-I Common`; nothing here is part of this
repository), with no size flags unless given, and prints one row per file (verdict, seconds,
the first error) and a summary: how many were verified, had errors, were rejected (exit 2:
clang errors, unsupported constructs) or did not finish, and the rejections grouped by their
first message, most common first.

    scripts/whole-programs.py [--bin KIVL] [--jobs N] [--timeout S] [--only TEXT] DIR [-- KIVL_ARGS...]

Example: scripts/whole-programs.py ../ext/cuda-samples/Samples -- -I ../ext/cuda-samples/Common
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time


def run(kivl, path, args, timeout):
    t0 = time.time()
    try:
        p = subprocess.run([kivl, "verify", "--format", "json", "--timeout", str(timeout), *args, path],
                           capture_output=True, text=True, timeout=2 * timeout + 30)
    except subprocess.TimeoutExpired:
        return path, "unfinished", time.time() - t0, "killed at the wall-clock bound"
    secs = time.time() - t0
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return path, "crash", secs, (p.stderr.strip().splitlines() or ["no output"])[-1]
    files = report.get("files", [])
    verdicts = [f.get("verdict") for f in files]
    errors = [e for f in files for e in f.get("errors", [])]
    first = errors[0]["message"] if errors else ""
    if p.returncode == 2:
        return path, "rejected", secs, first
    if p.returncode == 0 and all(v == "verified" for v in verdicts):
        return path, "verified", secs, ""
    if any(e.get("kind") in ("race", "divergence", "assertion", "precondition", "postcondition",
                             "invariant-entry", "invariant-maintained", "barrier-invariant")
           for e in errors):
        kinds = sorted({e["kind"] for e in errors})
        return path, "errors", secs, f"{','.join(kinds)}: {first}"
    return path, "unfinished", secs, first or ",".join(map(str, verdicts))


def reason(message):
    """A rejection's message without the names and numbers that make each one unique."""
    m = re.sub(r"`[^`]*`|'[^']*'", "X", message)
    m = re.sub(r"\d+", "N", m)
    return m[:120]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "kivl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--only", default="")
    ap.add_argument("dir")
    ap.add_argument("kivl_args", nargs="*")
    a = ap.parse_args()
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dir) for f in fs
                   if f.endswith((".cu", ".cl")) and a.only in os.path.join(d, f))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for row in ex.map(lambda p: run(a.bin, p, a.kivl_args, a.timeout), paths):
            path, status, secs, msg = row
            print(f"{status:10} {secs:6.1f}s  {os.path.relpath(path, a.dir)}  {msg[:160]}", flush=True)
            rows.append(row)
    counts = collections.Counter(r[1] for r in rows)
    print(f"\n{len(rows)} files: " + ", ".join(f"{counts[k]} {k}" for k in
                                             ("verified", "errors", "rejected", "unfinished", "crash")))
    times = sorted(r[2] for r in rows)
    if times:
        print(f"median {times[len(times) // 2]:.1f} s, p90 {times[int(len(times) * 0.9)]:.1f} s per file")
    reasons = collections.Counter(reason(r[3]) for r in rows if r[1] == "rejected")
    for msg, n in reasons.most_common():
        print(f"{n:4}  {msg}")
    return 1 if counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
