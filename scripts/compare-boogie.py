#!/usr/bin/env python3
"""Runs `kivl verify --houdini` and Boogie 2.4.1 side by side on GPUVerify-generated programs
and prints the comparison table of the Boogie-engine issue: files where the verified/error
counts agree or disagree, files solved by one tool only, and the median and p90 wall-time
ratio kivl/Boogie over the files both finish.

    scripts/compare-boogie.py [--corpus DIR] [--limit SECONDS] [--sample N] [--jobs J] [FILE...]

Boogie gets GPUVerify's own back-end flags. Debian's Z3 4.8.12 rejects the `model_compress`
option Boogie sets, so Boogie runs Z3 through a wrapper that drops that line.
The corpus (github.com/symbooglix/gpu) has no licence and is not part of this repository.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOOGIE_FLAGS = [
    "/contractInfer", "/doModSetAnalysis", "/inline:assume", "/typeEncoding:m",
    "/useArrayTheory", "/proverOpt:OPTIMIZE_FOR_BV=true", "/z3opt:smt.relevancy=0",
]
WRAPPER = """#!/bin/sh
# Drops Boogie's model_compress option, which Z3 4.8.12 rejects.
grep --line-buffered -v model_compress | exec /usr/bin/z3 "$@"
"""
SUMMARY = re.compile(r"finished with (\d+) verified, (\d+) errors?")


def run(cmd, limit):
    start = time.monotonic()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=limit).stdout
    except subprocess.TimeoutExpired:
        return None, limit
    elapsed = time.monotonic() - start
    m = SUMMARY.search(out)
    if not m or "inconclusive" in out.lower() or "time out" in out.lower() or "timed out" in out.lower():
        return None, elapsed
    return (int(m.group(1)), int(m.group(2))), elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "corpus", "gpu"))
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--sample", type=int, default=0, help="take every N-th file")
    ap.add_argument("--json", help="write per-file results here")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or sorted(glob.glob(os.path.join(a.corpus, "gpuverify", "**", "*.bpl"), recursive=True))
    if a.sample > 1:
        files = files[:: a.sample]
    if not files:
        sys.exit("no files (clone symbooglix/gpu next to the repository, or pass --corpus)")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    kivl = os.path.join(ROOT, "target", "release", "kivl")
    wrapper = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
    wrapper.write(WRAPPER)
    wrapper.close()
    os.chmod(wrapper.name, 0o755)
    rows = []
    for i, f in enumerate(files):
        b, bt = run(["boogie", *BOOGIE_FLAGS, f"/timeLimit:{int(a.limit)}", f"/z3exe:{wrapper.name}", f], a.limit)
        k, kt = run([kivl, "verify", "--houdini", "--jobs", "1", "--timeout", str(int(a.limit)), f], a.limit)
        rows.append({"file": os.path.relpath(f, a.corpus), "boogie": b, "boogie_s": bt, "kivl": k, "kivl_s": kt})
        status = "agree" if b and k and b == k else ("disagree" if b and k else "one/none")
        print(f"[{i + 1}/{len(files)}] {rows[-1]['file']}: boogie {b} {bt:.2f}s  kivl {k} {kt:.2f}s  {status}", flush=True)
    both = [r for r in rows if r["boogie"] and r["kivl"]]
    agree = [r for r in both if r["boogie"] == r["kivl"]]
    disagree = [r for r in both if r["boogie"] != r["kivl"]]
    only_b = [r for r in rows if r["boogie"] and not r["kivl"]]
    only_k = [r for r in rows if r["kivl"] and not r["boogie"]]
    ratios = sorted(r["kivl_s"] / r["boogie_s"] for r in both if r["boogie_s"] > 0)
    print()
    print(f"files                      {len(rows)}")
    print(f"finished by Boogie         {sum(1 for r in rows if r['boogie'])}")
    print(f"finished by kivl           {sum(1 for r in rows if r['kivl'])}")
    print(f"agree (verified/errors)    {len(agree)}")
    print(f"disagree                   {len(disagree)}")
    print(f"solved by Boogie only      {len(only_b)}")
    print(f"solved by kivl only        {len(only_k)}")
    if ratios:
        p90 = ratios[min(len(ratios) - 1, int(0.9 * len(ratios)))]
        print(f"median time ratio kivl/Boogie  {statistics.median(ratios):.3f}")
        print(f"p90 time ratio kivl/Boogie     {p90:.3f}")
        print(f"total time Boogie {sum(r['boogie_s'] for r in both):.1f}s, kivl {sum(r['kivl_s'] for r in both):.1f}s")
    for r in disagree:
        print(f"DISAGREE {r['file']}: boogie {r['boogie']} kivl {r['kivl']}")
    for r in only_b:
        print(f"BOOGIE ONLY {r['file']}")
    buggy_verified = [r for r in rows if ("__injected_bug__" in r["file"] or "__known_bug__" in r["file"])
                      and r["kivl"] and r["kivl"][1] == 0]
    print(f"buggy files reported verified by kivl: {len(buggy_verified)}")
    for r in buggy_verified:
        print(f"BUGGY VERIFIED {r['file']}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    os.unlink(wrapper.name)


if __name__ == "__main__":
    main()
