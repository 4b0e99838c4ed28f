#!/usr/bin/env python3
"""Runs `kivl verify --houdini` and Boogie 2.4.1 side by side on GPUVerify-generated programs
and prints the comparison table of the Boogie-engine issue: files where the verified/error
counts agree or disagree, files solved by one tool only, and the median and p90 wall-time
ratio kivl/Boogie over the files both finish. It also lists the buggy programs
(`__injected_bug__` / `__known_bug__` in the path) that kivl reports as verified.

    scripts/compare-boogie.py [--corpus DIR] [--limit SECONDS] [--sample N] [--cache DIR]
                              [--kivl BIN] [--redo kivl|boogie|all] [--report-only]
                              [--boogie-z3 gpuverify|default] [FILE...]

Resumable: each file's result per tool is cached as JSON under --cache (default
/tmp/kivl-compare, outside the repository), so a rerun skips files already done. `--redo kivl`
reruns kivl on the given files (e.g. after a fix) and keeps Boogie's cached result.
`--report-only` prints the table over the cached files without running anything.

Boogie gets GPUVerify's own back-end flags. With `--boogie-z3 default` it runs without
GPUVerify's `/z3opt:smt.relevancy=0`, which makes Z3's labels unreliable: Boogie then reports one
counterexample several times and false errors on some correct kernels. Both Boogie runs are
cached side by side (fields `boogie` and `boogie_default`), so the table can be printed against
either. Debian's Z3 4.8.12 rejects the `model_compress`
option Boogie sets, so Boogie runs Z3 through a wrapper that drops that line.
The corpus (github.com/symbooglix/gpu) has no licence and is not part of this repository.
"""
import argparse
import fcntl
import glob
import hashlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
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
UNFINISHED = re.compile(r"inconclusive|time ?out|timed out|out of memory|out of resource", re.I)


def run(cmd, limit):
    """Runs one tool; returns ([verified, errors] or None, seconds, short note)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)  # the tool and its solver processes
        p.communicate()
        return None, limit, "wall-clock limit"
    elapsed = time.monotonic() - start
    m = SUMMARY.search(out)
    if not m:
        tail = (err.strip().splitlines() or out.strip().splitlines() or [""])[-1]
        return None, elapsed, f"exit {p.returncode}: {tail[:200]}"
    if UNFINISHED.search(out):
        return None, elapsed, "inconclusive/timeout: " + (UNFINISHED.search(out).group(0))
    return [int(m.group(1)), int(m.group(2))], elapsed, ""


def cache_path(cache, rel):
    h = hashlib.sha1(rel.encode()).hexdigest()[:16]
    return os.path.join(cache, "results", h + ".json")


def load(cache, rel):
    p = cache_path(cache, rel)
    if os.path.exists(p):
        with open(p) as fh:
            return json.load(fh)
    return {"file": rel}


def save(cache, rel, fields):
    """Adds `fields` to the cached row of `rel`. The update holds a lock and re-reads the row, so
    two runs (say Boogie with each Z3 profile, or kivl beside Boogie) can share one cache."""
    with open(os.path.join(cache, "results", ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        row = load(cache, rel)
        row.update(fields)
        p = cache_path(cache, rel)
        tmp = p + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(row, fh)
        os.replace(tmp, p)
        return row


def is_buggy(rel):
    return "__injected_bug__" in rel or "__known_bug__" in rel


def as_field(rows, key):
    """Rows whose `boogie` fields are the ones of the Boogie run `key` (`boogie` or `boogie_default`)."""
    if key == "boogie":
        return rows
    out = []
    for r in rows:
        r = dict(r)
        for suffix in ("", "_s", "_note"):
            r.pop("boogie" + suffix, None)
            if key + suffix in r:
                r["boogie" + suffix] = r[key + suffix]
        out.append(r)
    return out


def verdict(counts):
    """The counts of a finished run; `0 verified, 0 errors` (Boogie's summary when Houdini gave
    no outcome for the implementation, e.g. after a prover crash) is not a verdict."""
    return counts if counts and sum(counts) > 0 else None


def table(rows):
    rows = [dict(r, boogie=verdict(r.get("boogie")), kivl=verdict(r.get("kivl"))) for r in rows]
    done = [r for r in rows if "boogie_s" in r and "kivl_s" in r]
    both = [r for r in done if r["boogie"] and r["kivl"]]
    agree = [r for r in both if r["boogie"] == r["kivl"]]
    disagree = [r for r in both if r["boogie"] != r["kivl"]]
    only_b = [r for r in done if r["boogie"] and not r["kivl"]]
    only_k = [r for r in done if r["kivl"] and not r["boogie"]]
    ratios = sorted(r["kivl_s"] / r["boogie_s"] for r in both if r["boogie_s"] > 0)
    print()
    print(f"files done                 {len(done)} of {len(rows)}")
    print(f"finished by Boogie         {sum(1 for r in done if r['boogie'])}")
    print(f"finished by kivl           {sum(1 for r in done if r['kivl'])}")
    print(f"agree (verified/errors)    {len(agree)}")
    print(f"disagree                   {len(disagree)}")
    print(f"solved by Boogie only      {len(only_b)}")
    print(f"solved by kivl only        {len(only_k)}")
    print(f"solved by neither          {sum(1 for r in done if not r['kivl'] and not r['boogie'])}")
    same_verdict = [r for r in both if (r["boogie"][1] == 0) == (r["kivl"][1] == 0)]
    print(f"same verdict (verified or not) {len(same_verdict)} of {len(both)}")
    if ratios:
        p90 = ratios[min(len(ratios) - 1, int(0.9 * len(ratios)))]
        print(f"median time ratio kivl/Boogie  {statistics.median(ratios):.3f}")
        print(f"p90 time ratio kivl/Boogie     {p90:.3f}")
        print(f"total time Boogie {sum(r['boogie_s'] for r in both):.1f}s, kivl {sum(r['kivl_s'] for r in both):.1f}s")
    for r in disagree:
        print(f"DISAGREE {r['file']}: boogie {r['boogie']} kivl {r['kivl']}")
    for r in only_b:
        print(f"BOOGIE ONLY {r['file']}: kivl {r.get('kivl_note', '')}")
    for r in only_k:
        print(f"KIVL ONLY {r['file']}: boogie {r.get('boogie_note', '')}")
    buggy = [r for r in done if is_buggy(r["file"])]
    buggy_verified = [r for r in buggy if r["kivl"] and r["kivl"][1] == 0]
    print(f"buggy files: {len(buggy)}, reported verified by kivl: {len(buggy_verified)}")
    for r in buggy_verified:
        print(f"BUGGY VERIFIED {r['file']}")
    return 1 if buggy_verified else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(ROOT, "..", "corpus", "gpu"))
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--sample", type=int, default=0, help="take every N-th file")
    ap.add_argument("--cache", default="/tmp/kivl-compare", help="per-file result cache (outside the repo)")
    ap.add_argument("--kivl", help="kivl binary (default: build target/release/kivl)")
    ap.add_argument("--redo", choices=["kivl", "boogie", "all"], help="rerun this tool on the selected files")
    ap.add_argument("--redo-unfinished", action="store_true",
                    help="with --redo kivl: rerun only files kivl did not finish or disagreed on")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("--only", choices=["kivl", "boogie"], help="run just this tool (the other may run beside)")
    ap.add_argument("--json", help="also write all per-file results here")
    ap.add_argument("--boogie-z3", choices=["gpuverify", "default"], default="gpuverify",
                    help="Boogie with GPUVerify's Z3 options (relevancy=0) or with Z3's defaults")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    files = [os.path.abspath(f) for f in a.files] or sorted(
        glob.glob(os.path.join(corpus, "gpuverify", "**", "*.bpl"), recursive=True))
    if a.sample > 1:
        files = files[:: a.sample]
    if not files:
        sys.exit("no files (clone symbooglix/gpu next to the repository, or pass --corpus)")
    os.makedirs(os.path.join(a.cache, "results"), exist_ok=True)
    rels = [os.path.relpath(f, corpus) for f in files]
    key = "boogie" if a.boogie_z3 == "gpuverify" else "boogie_default"
    flags = BOOGIE_FLAGS if key == "boogie" else [f for f in BOOGIE_FLAGS if "relevancy" not in f]
    if a.report_only:
        sys.exit(table(as_field([load(a.cache, r) for r in rels], key)))
    kivl = a.kivl
    if not kivl:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "kivl"], cwd=ROOT, check=True)
        kivl = os.path.join(ROOT, "target", "release", "kivl")
    wrapper = os.path.join(a.cache, "z3-wrapper.sh")
    with open(wrapper, "w") as fh:
        fh.write(WRAPPER)
    os.chmod(wrapper, 0o755)
    rows = []
    for i, (f, rel) in enumerate(zip(files, rels)):
        row = load(a.cache, rel)
        ran = False
        if a.only != "kivl" and (key + "_s" not in row or a.redo in ("boogie", "all")):
            b, bt, note = run(["boogie", *flags, f"/timeLimit:{int(a.limit)}", f"/z3exe:{wrapper}", f], a.limit)
            row = save(a.cache, rel, {key: b, key + "_s": bt, key + "_note": note})
            ran = True
        redo_k = a.redo in ("kivl", "all") and (
            not a.redo_unfinished or not row.get("kivl") or row.get("kivl") != row.get(key))
        if a.only != "boogie" and ("kivl_s" not in row or redo_k):
            k, kt, note = run([kivl, "verify", "--houdini", "--jobs", "1", "--timeout", str(int(a.limit)), f],
                              a.limit)
            row = save(a.cache, rel, {"kivl": k, "kivl_s": kt, "kivl_note": note})
            ran = True
        rows.append(row)
        b, k = row.get(key), row.get("kivl")
        status = "agree" if b and k and b == k else ("DISAGREE" if b and k else "one/none")
        kivl_s = f"{row['kivl_s']:.2f}s" if "kivl_s" in row else "-"
        print(f"[{i + 1}/{len(files)}]{'' if ran else ' (cached)'} {rel}: boogie {b} {row.get(key + '_s', 0):.2f}s"
              f"  kivl {k} {kivl_s}  {status}", flush=True)
    code = table(as_field(rows, key))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    sys.exit(code)


if __name__ == "__main__":
    main()
