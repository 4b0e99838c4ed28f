#!/usr/bin/env python3
"""Checks that kivl's report does not depend on the number of solver threads: runs
`kivl verify --houdini --format json` with `--jobs 1` and `--jobs 2` (or the thread counts of
`--jobs`) on GPUVerify-generated programs and compares the reports, timings (`time_s`, `time_ms`) left out (issue 23,
"same result on every machine").

    scripts/jobs-determinism.py [--corpus DIR] [--kivl BIN] [--limit SECONDS] [--cache DIR]
                                [--sample N] [--files LIST] [--jobs 1,2] [--error-limits 5,1]
                                [--parallel P] [--report-only] [FILE...]

Files: the arguments, else the paths (relative to --corpus) listed in --files, else every
`.bpl` under the corpus's `gpuverify/` directory (every N-th with --sample N). kivl gets
GPUVerify's back-end setting (`--houdini`, as in scripts/compare-boogie.py) and a time limit
per solver check (`--timeout`, --limit); a run also has a wall-clock bound of four times that.

Whole reports are compared (verdict, every error with its message, locations and notes, the
implementations' outcomes, Houdini's candidates, rounds, checks and kept count, the number of
solver checks), with the `time_s` fields removed. Runs that reached the time limit, the memory
limit or the wall-clock bound are listed apart: a time limit is a wall-clock promise, whose
outcome may depend on the load. With `--error-limits 5,1` each file is also run with those
error limits (on the first thread count) and the implementations' outcomes are compared (the
errors themselves legitimately differ).

Resumable: each run's normalised report is cached as JSON under --cache (default
/tmp/kivl-jobs-determinism, outside the repository), keyed by the kivl binary (size and
modification time), the file and the flags, so a rerun skips runs already made; a new binary
starts afresh. `--report-only` prints the table over the cached runs. Exit status 1 when some
finished file's reports differ. The corpus (github.com/symbooglix/gpu) has no licence and is
not part of this repository.
"""
import argparse
import concurrent.futures
import glob
import hashlib
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Words of a report that was cut short by a resource limit (`--timeout`, `--memory-limit`).
# (A timeout reads "timed out after N s (--timeout)", docs/kbpl.md.)
LIMITED = ("timed out after", "time limit reached", "memory limit", "solver gave up")


# The report's timings (JSON fields), left out of the comparison.
TIMES = ("time_s", "time_ms")


def strip_times(value):
    """The report without its timings (`time_s`, `time_ms` anywhere)."""
    if isinstance(value, dict):
        return {k: strip_times(v) for k, v in value.items() if k not in TIMES}
    if isinstance(value, list):
        return [strip_times(v) for v in value]
    return value


def binary_key(kivl):
    st = os.stat(kivl)
    return hashlib.sha1(f"{os.path.realpath(kivl)}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:12]


def cache_path(cache, key, f, jobs, limit, error_limit):
    name = hashlib.sha1(os.path.abspath(f).encode()).hexdigest()[:16]
    return os.path.join(cache, key, f"{name}-j{jobs}-t{limit}-e{error_limit}.json")


def run(kivl, f, jobs, limit, error_limit):
    """One run: {"report": normalised JSON} or {"unfinished": why}."""
    cmd = [kivl, "verify", "--houdini", "--format", "json", "--jobs", str(jobs), "--timeout", str(limit)]
    if error_limit is not None:
        cmd += ["--error-limit", str(error_limit)]
    try:
        p = subprocess.run([*cmd, f], capture_output=True, text=True, timeout=limit * 4)
    except subprocess.TimeoutExpired:
        return {"unfinished": "wall-clock bound"}
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"unfinished": f"no JSON report (exit status {p.returncode}): {p.stderr.strip()[-200:]}"}
    text = json.dumps(report)
    if any(w in text for w in LIMITED):
        return {"unfinished": "a resource limit was reached", "report": strip_times(report)}
    return {"report": strip_times(report)}


def cached_run(a, key, f, jobs, error_limit):
    path = cache_path(a.cache, key, f, jobs, a.limit, error_limit)
    if os.path.exists(path):
        with open(path) as fh:
            return json.load(fh)
    if a.report_only:
        return None
    result = run(a.kivl, f, jobs, a.limit, error_limit)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as fh:
        json.dump(result, fh)
    os.replace(path + ".tmp", path)
    return result


def outcomes(report):
    """Each implementation's outcome and the verified count."""
    f = report["files"][0]
    return f.get("verified"), [(i["name"], i["outcome"]) for i in f.get("implementations", [])]


def check_file(a, key, f):
    """(file, status, detail): status `same`, `differ`, `unfinished` or `not run`."""
    runs = {}
    for jobs in a.jobs:
        runs[("jobs", jobs)] = cached_run(a, key, f, jobs, None)
        # A run past the wall-clock bound leaves the file unfinished whatever the others give:
        # they are not run (on the heavy files that halves the time of the whole comparison).
        if (runs[("jobs", jobs)] or {}).get("unfinished") == "wall-clock bound":
            return f, "unfinished", f"jobs {jobs}: wall-clock bound (the other runs not made)"
    for e in a.error_limits:
        runs[("error-limit", e)] = cached_run(a, key, f, a.jobs[0], e)
    if any(r is None for r in runs.values()):
        return f, "not run", ""
    # Judged again: runs cached before a limit's wording was known to this script.
    for r in runs.values():
        if "unfinished" not in r and any(w in json.dumps(r["report"]) for w in LIMITED):
            r["unfinished"] = "a resource limit was reached"
    unfinished = [f"{k[0]} {k[1]}: {r['unfinished']}" for k, r in runs.items() if "unfinished" in r]
    if unfinished:
        return f, "unfinished", "; ".join(unfinished)
    # Stripped again: runs cached before a timing field was known to this script.
    first = strip_times(runs[("jobs", a.jobs[0])]["report"])
    diffs = [f"--jobs {j}" for j in a.jobs[1:] if strip_times(runs[("jobs", j)]["report"]) != first]
    base = outcomes(first) if a.error_limits else None
    diffs += [f"--error-limit {e}" for e in a.error_limits if outcomes(runs[("error-limit", e)]["report"]) != base]
    if diffs:
        detail = ", ".join(diffs) + f" differ from --jobs {a.jobs[0]}: " + describe(runs, a)
        return f, "differ", detail
    return f, "same", ""


def describe(runs, a):
    """A short account of what differs: the verified counts and Houdini's figures."""
    parts = []
    for k, r in runs.items():
        f = r["report"]["files"][0]
        h = f.get("houdini", {})
        parts.append(f"{k[0]} {k[1]}: verified {f.get('verified')}, errors {len(f.get('errors', []))}, "
                     f"kept {h.get('kept')}, checks {h.get('checks')}")
    return "; ".join(parts)


def files_of(a):
    if a.paths:
        return [os.path.abspath(p) for p in a.paths]
    corpus = os.path.abspath(a.corpus)
    if a.files:
        with open(a.files) as fh:
            return [os.path.join(corpus, l.strip()) for l in fh if l.strip() and not l.startswith("#")]
    files = sorted(glob.glob(os.path.join(corpus, "gpuverify", "**", "*.bpl"), recursive=True))
    return files[:: a.sample] if a.sample > 1 else files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=os.environ.get("KIVL_CORPUS", os.path.join(ROOT, "..", "corpus", "gpu")))
    ap.add_argument("--kivl", help="kivl binary (default: build target/release/kivl)")
    ap.add_argument("--limit", type=int, default=60, help="solver time limit per check (seconds)")
    ap.add_argument("--cache", default="/tmp/kivl-jobs-determinism", help="per-run cache (outside the repo)")
    ap.add_argument("--sample", type=int, default=1, help="take every N-th corpus file")
    ap.add_argument("--files", help="a list of corpus-relative paths")
    ap.add_argument("--jobs", default="1,2", help="thread counts to compare, the first is the reference")
    ap.add_argument("--error-limits", default="", help="error limits whose outcomes to compare too")
    ap.add_argument("--parallel", type=int, default=1, help="files run at the same time")
    ap.add_argument("--report-only", action="store_true")
    ap.add_argument("paths", nargs="*")
    a = ap.parse_args()
    a.jobs = [int(j) for j in a.jobs.split(",")]
    a.error_limits = [int(e) for e in a.error_limits.split(",") if e]
    files = files_of(a)
    if not files:
        sys.exit("no files (set KIVL_CORPUS or pass --corpus)")
    if not a.kivl:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "kivl"], cwd=ROOT, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        a.kivl = os.path.join(target, "release", "kivl")
    key = binary_key(a.kivl)
    counts = {"same": 0, "differ": 0, "unfinished": 0, "not run": 0}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.parallel)) as pool:
        for f, status, detail in pool.map(lambda f: check_file(a, key, f), files):
            counts[status] += 1
            rel = os.path.relpath(f, os.path.abspath(a.corpus))
            if status in ("differ", "unfinished"):
                print(f"{status.upper():10} {rel}: {detail}", flush=True)
    print()
    print(f"files                 {len(files)}")
    for status, n in counts.items():
        print(f"{status:21} {n}")
    return 1 if counts["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
