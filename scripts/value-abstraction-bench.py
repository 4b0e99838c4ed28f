#!/usr/bin/env python3
"""The value abstraction (vcgen/src/abstract_values.rs, docs/kbpl.md §6) against the
bit-precise encoding (`--bit-precise-values`), paired on the same files: each file is run in
both modes, alternating which goes first, `--runs` times. Prints one row per file (verdict
counts and median wall time of each mode) and a summary: files whose verdicts differ, files
solved by one mode only, and the median and total of the wall-time ratio abstract/precise over
the files both finish.

    scripts/value-abstraction-bench.py [--kivl BIN] [--timeout S] [--runs R] [--jobs J]
                                       [--args "EXTRA ARGS"] FILE... | --list FILE

Files are `.bpl` (verified with `--houdini`, as GPUVerify's output is) or `.cl`/`.cu`/`.kbpl`
(with their `//args:` line 2 when they have one). A buggy file (`__injected_bug__`,
`__known_bug__`, `_race`, `_bug` in the name) that a mode verifies is listed: the abstraction
must never verify what the bit-precise encoding refutes.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def header_args(path):
    if path.endswith(".bpl"):
        return ["--houdini"]
    try:
        with open(path, errors="replace") as f:
            f.readline()
            second = f.readline().strip()
    except OSError:
        return []
    return shlex.split(second[len("//args:"):]) if second.startswith("//args:") else []


def run(kivl, path, extra, timeout, jobs):
    cmd = [kivl, "verify", "--format", "json", "--jobs", str(jobs), "--timeout", str(timeout)]
    cmd += header_args(path) + extra + [path]
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=2 * timeout + 30)
    except subprocess.TimeoutExpired:
        return time.time() - t0, "killed"
    wall = time.time() - t0
    try:
        files = json.loads(p.stdout)["files"]
        f = files[0]
        ok = sum(1 for i in f.get("implementations", []) if i.get("outcome") == "verified")
        verdict = f"{f.get('verdict')}:{ok}v/{len(f.get('errors', []))}e"
    except (ValueError, KeyError, IndexError):
        verdict = f"exit{p.returncode}"
    return wall, verdict


def solved(verdict):
    return verdict.split(":")[0] in ("verified", "errors")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--list")
    ap.add_argument("--kivl", default=os.path.join(ROOT, "target", "release", "kivl"))
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--args", default="")
    a = ap.parse_args()
    files = list(a.files)
    if a.list:
        base = os.path.dirname(a.list)
        with open(a.list) as f:
            files += [line.strip() if os.path.isabs(line.strip()) else os.path.join(base, line.strip())
                      for line in f if line.strip() and not line.startswith("#")]
    extra = shlex.split(a.args)
    modes = {"abstract": extra, "precise": extra + ["--bit-precise-values"]}
    ratios, total = [], {"abstract": 0.0, "precise": 0.0}
    differ, one_only, unsound = [], [], []
    print(f"{'abstract':>22} {'precise':>22}  file")
    for k, path in enumerate(files):
        walls = {m: [] for m in modes}
        verdicts = {}
        for r in range(a.runs):
            order = list(modes) if (k + r) % 2 == 0 else list(reversed(modes))
            for m in order:
                w, v = run(a.kivl, path, modes[m], a.timeout, a.jobs)
                walls[m].append(w)
                verdicts[m] = v
        med = {m: statistics.median(walls[m]) for m in modes}
        print(f"{verdicts['abstract']:>14} {med['abstract']:6.1f}s {verdicts['precise']:>14} {med['precise']:6.1f}s  {path}",
              flush=True)
        va, vp = verdicts["abstract"], verdicts["precise"]
        if solved(va) and solved(vp):
            ratios.append(med["abstract"] / max(med["precise"], 1e-3))
            for m in modes:
                total[m] += med[m]
            if va != vp:
                differ.append(path)
        elif solved(va) != solved(vp):
            one_only.append((path, va, vp))
        buggy = any(s in path for s in ("__injected_bug__", "__known_bug__", "_race", "_bug"))
        if buggy and va.startswith("verified"):
            unsound.append(path)
    print(f"\n{len(files)} files, {a.runs} paired run(s) each, --timeout {a.timeout}, --jobs {a.jobs}")
    if ratios:
        print(f"both solved: {len(ratios)}; wall time abstract/precise: median {statistics.median(ratios):.2f}, "
              f"total {total['abstract']:.1f} s / {total['precise']:.1f} s = {total['abstract'] / max(total['precise'], 1e-3):.2f}")
    print(f"verdicts differ: {len(differ)}" + "".join(f"\n  {p}" for p in differ))
    print(f"solved by one mode only: {len(one_only)}" + "".join(f"\n  {p}: abstract {x}, precise {y}" for p, x, y in one_only))
    print(f"buggy files verified with the abstraction: {len(unsound)}" + "".join(f"\n  {p}" for p in unsound))


if __name__ == "__main__":
    main()
