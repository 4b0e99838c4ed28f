#!/usr/bin/env python3
"""Houdini on two solver threads against one: `kivl verify --houdini --jobs 2` and `--jobs 1`
side by side on GPUVerify-generated programs, per file and in total. The Boogie-engine issue
asks for a speed-up of at least 1.7 on the files where Houdini takes over 5 s on one thread.

    scripts/houdini-parallel-bench.py [--corpus DIR] [--files LIST] [--min SECONDS]
                                      [--runs N] [--kivl BIN] [--split-vc | --portfolio | --modes M,...]
                                      [--ceiling] [FILE...]

With `--split-vc` the two-thread runs split one implementation's assertions across the two
solvers in disjoint shares, one candidate's assertions in one share (`kivl verify --split-vc`); with `--portfolio` the two solvers race on the whole VC with
different random seeds (`kivl verify --portfolio`); without either, two threads only help
programs with several implementations. `--modes plain,split-vc,portfolio` measures several
two-thread modes against the same one-thread runs, a table and totals for each, and then the
total if each file had taken its faster mode (picked after the fact: a bound on what choosing a
mode per file could give).

Files: the arguments, else the paths (relative to --corpus) listed in --files, default
scripts/houdini-bench-files.txt (the corpus files where Houdini took over 5 s on one thread in
the last full comparison, `scripts/compare-boogie.py`). Each file is run `--runs` times per
thread count, alternating, and the best run counts; the Houdini phase's time comes from the
JSON report (`houdini.time_s`), the whole run's from the wall clock. Files whose one-thread
Houdini time is under --min (default 5 s) are shown but left out of the totals, as are files
whose verdicts (verified, errors or inconclusive, and the number of verified implementations)
differ between the two runs. A different number of reported errors is only noted: which of
several failing assertions Z3 finds first, within the error limit, varies from run to run.

Where kivl runs two Houdini searches (kernels without and with their modular candidates,
GPUVerify's `.bpl` without and with kivl's strided candidates; the second only when the first
does not verify), two threads run them side by side (gpu-passes/src/driver/speculate.rs). The
report's `houdini.time_s` is the time of the search that counts only, so the Houdini column
understates what two threads save there; the wall-clock columns hold both searches.

With `--ceiling` it also runs two one-thread copies of each file at the same time and prints
what the machine allows: twice the one-thread Houdini time over the slower copy's. That is the
speed-up two threads would give if they split the work perfectly and shared nothing; on a VM
whose two cores share caches and memory bandwidth it stays well under 2.

Run it on an otherwise idle machine with at least two cores. The corpus
(github.com/symbooglix/gpu) has no licence and is not part of this repository.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(kivl, f, jobs, limit, mode):
    """(houdini seconds, wall seconds, verdict summary) of one run, or None on a failure."""
    start = time.monotonic()
    extra = [mode] if mode and jobs > 1 else []
    try:
        p = subprocess.run([kivl, "verify", "--houdini", "--format", "json", "--jobs", str(jobs), *extra,
                            "--timeout", str(limit), f], capture_output=True, text=True, timeout=limit * 4)
    except subprocess.TimeoutExpired:
        return None
    wall = time.monotonic() - start
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return None
    file_report = report["files"][0]
    h = file_report.get("houdini")
    if not h or "time_s" not in h:
        return None
    verdict = (file_report.get("verdict"), file_report.get("verified"), len(file_report.get("errors", [])))
    return h["time_s"], wall, verdict, h.get("candidates", 0)


def run_pair(kivl, f, limit):
    """Houdini seconds of two one-thread runs of `f` started together, or None on a failure."""
    cmd = [kivl, "verify", "--houdini", "--format", "json", "--jobs", "1", "--timeout", str(limit), f]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for _ in range(2)]
    times = []
    for p in procs:
        try:
            out, _ = p.communicate(timeout=limit * 4)
            times.append(json.loads(out)["files"][0]["houdini"]["time_s"])
        except (subprocess.TimeoutExpired, json.JSONDecodeError, KeyError, IndexError):
            p.kill()
            return None
    return times


def summary(indent, rows):
    """Prints the totals of `rows` (one-thread and two-thread Houdini and wall seconds)."""
    if not rows:
        return
    h1 = sum(r[0] for r in rows)
    h2 = sum(r[1] for r in rows)
    w1 = sum(r[2] for r in rows)
    w2 = sum(r[3] for r in rows)
    geo = math.exp(sum(math.log(r[0] / r[1]) for r in rows) / len(rows))
    ratios = sorted(r[0] / r[1] for r in rows)
    print(f"{indent}files counted                 {len(rows)}")
    print(f"{indent}Houdini time, 1 thread        {h1:.1f} s")
    print(f"{indent}Houdini time, 2 threads       {h2:.1f} s")
    print(f"{indent}speed-up of the total         {h1 / h2:.2f}")
    print(f"{indent}geometric mean of speed-ups   {geo:.2f}")
    print(f"{indent}median speed-up               {ratios[len(ratios) // 2]:.2f}")
    print(f"{indent}whole runs (wall), total      {w1:.1f} s / {w2:.1f} s = {w1 / w2:.2f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.environ.get("KIVL_CORPUS", os.path.join(ROOT, "..", "corpus", "gpu")))
    ap.add_argument("--files", default=os.path.join(ROOT, "scripts", "houdini-bench-files.txt"))
    ap.add_argument("--min", type=float, default=5.0)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--limit", type=int, default=120, help="solver time limit per check (seconds)")
    ap.add_argument("--kivl", help="kivl binary (default: build target/release/kivl)")
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--split-vc", action="store_true", help="two-thread runs with --split-vc")
    modes.add_argument("--portfolio", action="store_true", help="two-thread runs with --portfolio")
    modes.add_argument("--modes", help="several two-thread modes, comma-separated: plain, split-vc, portfolio")
    ap.add_argument("--ceiling", action="store_true", help="also run two one-thread copies at once")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    if a.paths:
        files = [os.path.abspath(p) for p in a.paths]
    else:
        with open(a.files) as fh:
            rels = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
        files = [os.path.join(os.path.abspath(a.corpus), r) for r in rels]
    missing = [f for f in files if not os.path.exists(f)]
    if missing:
        sys.exit(f"missing {len(missing)} files, e.g. {missing[0]} (clone symbooglix/gpu or pass --corpus)")
    if (os.cpu_count() or 1) < 2:
        sys.exit("needs at least two cores")
    kivl = a.kivl
    if not kivl:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "kivl"], cwd=ROOT, check=True)
        kivl = os.path.join(ROOT, "target", "release", "kivl")
    if a.modes:
        flags = {"plain": None, "split-vc": "--split-vc", "portfolio": "--portfolio"}
        names = [m.strip() for m in a.modes.split(",") if m.strip()]
        unknown = [m for m in names if m not in flags]
        if unknown or not names:
            sys.exit(f"--modes: unknown mode(s) {unknown}; known: {', '.join(flags)}")
        modes = [(m, flags[m]) for m in names]
    else:
        mode = "--split-vc" if a.split_vc else ("--portfolio" if a.portfolio else None)
        modes = [(mode[2:] if mode else "plain", mode)]
    one_thread = {}
    counted = {}
    for name, mode in modes:
        if len(modes) > 1:
            print(f"\n== two threads: {name} ==")
        counted[name] = measure(a, kivl, files, mode, one_thread)
    if len(modes) > 1:
        best_of(counted)


def best_of(counted):
    """With several modes: the total if each file took the faster mode, picked after the fact
    (and, failing both, one thread): a bound on what choosing a mode per file could give."""
    common = set.intersection(*(set(c) for c in counted.values()))
    if not common:
        return
    # The one-thread runs are the same for every mode.
    one = {f: next(iter(counted.values()))[f][0] for f in common}
    fastest = {f: min(c[f][1] for c in counted.values()) for f in common}
    h1 = sum(one.values())
    best = sum(fastest.values())
    fallback = sum(min(fastest[f], one[f]) for f in common)
    print(f"\n== the faster mode per file, picked after the fact ({len(common)} files counted in every mode) ==")
    print(f"Houdini time, 1 thread        {h1:.1f} s")
    print(f"best two-thread mode          {best:.1f} s = {h1 / best:.2f}")
    print(f"  or one thread where faster  {fallback:.1f} s = {h1 / fallback:.2f}")


def measure(a, kivl, files, mode, one_thread):
    """The table and totals of one two-thread mode; one-thread runs are made once per file
    and kept in `one_thread` for the next mode. Returns the counted files' Houdini times (one
    thread, two threads) by file."""
    rows = []
    rows_differ = []
    ceilings = []
    times = {}
    print(f"{'houdini 1 thr':>13} {'2 thr':>7} {'speed-up':>8} {'wall 1':>7} {'wall 2':>7}  file")
    for f in files:
        best_one, verdict_one = one_thread.get(f, (None, None))
        best = {1: best_one, 2: None}
        verdicts = {1: verdict_one, 2: None}
        for _ in range(a.runs):
            for jobs in (1, 2) if f not in one_thread else (2,):
                r = run(kivl, f, jobs, a.limit, mode)
                if r is None:
                    continue
                verdicts[jobs] = r[2]
                if best[jobs] is None or r[0] < best[jobs][0]:
                    best[jobs] = r
        one_thread[f] = (best[1], verdicts[1])
        rel = os.path.relpath(f, os.path.abspath(a.corpus))
        if best[1] is None or best[2] is None:
            print(f"{'-':>13} {'-':>7} {'-':>8} {'-':>7} {'-':>7}  {rel} (a run failed or timed out)")
            continue
        (h1, w1, _, cands), (h2, w2, _, _) = best[1], best[2]
        same = verdicts[1][:2] == verdicts[2][:2]
        counted = h1 >= a.min and same
        note = "" if counted else ("  VERDICTS DIFFER" if not same else f"  (under {a.min:g} s, not counted)")
        if counted and not cands:
            note += "  (no candidates)"
        if same and verdicts[1] != verdicts[2]:
            note += f"  (errors reported: {verdicts[1][2]} and {verdicts[2][2]})"
        if a.ceiling:
            pair = run_pair(kivl, f, a.limit)
            ceiling = 2 * h1 / max(pair) if pair else None
            note += f"  (two copies at once: {pair[0]:.2f} s and {pair[1]:.2f} s, ceiling {ceiling:.2f})" if pair else ""
        print(f"{h1:13.2f} {h2:7.2f} {h1 / h2:8.2f} {w1:7.2f} {w2:7.2f}  {rel}{note}", flush=True)
        if counted:
            rows.append((h1, h2, w1, w2, cands))
            times[rel] = (h1, h2)
            if a.ceiling and pair:
                ceilings.append((h1, max(pair)))
        if not same:
            print(f"    jobs 1: {verdicts[1]}  jobs 2: {verdicts[2]}")
            rows_differ.append(rel)
    if not rows:
        print("no file took over the minimum on one thread")
        return times
    print()
    summary("", rows)
    inferring = [r for r in rows if r[4] > 0]
    if inferring and len(inferring) < len(rows):
        print(f"\nfiles with candidates only ({len(rows) - len(inferring)} counted files have none: their time is one")
        print("verification of the program as given, with nothing for Houdini to infer)")
        summary("  ", inferring)
    if ceilings:
        c = 2 * sum(h for h, _ in ceilings) / sum(p for _, p in ceilings)
        print(f"machine ceiling (two copies)  {c:.2f} over {len(ceilings)} files")
    if rows_differ:
        print(f"verdicts differ on {len(rows_differ)} files: " + ", ".join(rows_differ))
    return times


if __name__ == "__main__":
    main()
