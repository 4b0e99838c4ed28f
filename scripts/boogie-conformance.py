#!/usr/bin/env python3
"""How far kivl speaks Boogie: Boogie 2.4.1's outcome on the programs of Boogie's own `Test/`
directories (github.com/boogie-org/boogie) as the oracle, kivl's outcome beside it.

    scripts/boogie-conformance.py [--tests DIR] [--dirs D,D,...] [--nine] [--cache DIR]
                                  [--limit SECONDS] [--jobs N] [--kivl BIN]
                                  [--redo kivl|boogie|all] [--report-only] [--markdown FILE]

For every `.bpl` file the script reads the first `// RUN:` line that calls Boogie and keeps
the flags that change the verification outcome (`/errorLimit`, `/inlineDepth`,
`/contractInfer`, `/loopUnroll`, `/timeLimit`, `/proverOpt:O:…`, `/typeEncoding`,
`/noVerify`); printing and logging flags are dropped. Boogie runs with those flags; kivl runs
`kivl verify --format json` with their counterparts (`--error-limit`, `--inline-depth`,
`--houdini`, `--loop-unwind`, `--timeout`), or `kivl check` where the RUN line says
`/noVerify` (then only accepting or rejecting the program is compared). A Boogie flag without
a kivl counterpart is noted in the table.

Outcomes: `V/E` (Boogie's `finished with V verified, E errors`, kivl's `verified` count and
number of errors), `rejected` (parse, resolution or type errors), `unsupported` (kivl only),
`timeout`, `inconclusive`, `crash`. kivl agrees with Boogie when both give the same `V/E`, or
both reject the program, or (with `/noVerify`) both accept it. The agreement rate is taken
over the programs Boogie accepts.

Resumable: each file's result per tool is cached as JSON under --cache (default
~/.cache/kivl-boogie-conformance, outside the repository). Boogie's entry is keyed by the
file's text and flags, kivl's also by the kivl binary, so a rebuilt kivl is rerun and Boogie
never is. Boogie 2.4.1 passes `model_compress` to Z3, which Z3 4.8.12 rejects, and names `**`
`real_pow`: Boogie runs Z3 through a wrapper that drops the one and renames the other (as
scripts/validate-boogie-tests.sh does).

Each remaining difference is listed with its reason: kivl's own diagnostic for a program it
refuses, otherwise the reason recorded in scripts/boogie-conformance-reasons.tsv (file, tab,
reason) or `unexplained`.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NINE = ["test0", "test1", "test2", "test20", "test21", "textbook", "houdini", "bitvectors", "inline"]
WRAPPER = '#!/bin/sh\ngrep -v --line-buffered model_compress | sed -u "s/real_pow/^/g" | exec /usr/bin/z3 "$@"\n'
RUN = re.compile(r"^//\s*RUN:\s*%(?:parallel-)?boogie\b(.*)$", re.M)
SUMMARY = re.compile(r"finished with (\d+) verified, (\d+) errors?(.*)")
REJECTED = re.compile(r"parse errors? detected|resolution errors? detected|type checking errors? detected|"
                      r"name resolution errors|error\(s\) detected in")
# Boogie flag (lower case, no sign) -> (kivl option or None, takes a value)
FLAGS = {
    "errorlimit": ("--error-limit", True),
    "inlinedepth": ("--inline-depth", True),
    "contractinfer": ("--houdini", False),
    "loopunroll": ("--loop-unwind", True),
    "timelimit": ("--search-timeout", True),
    "proveropt": (None, True),
    "typeencoding": (None, True),
    "noverify": (None, False),
}


def run_flags(text):
    """The outcome-relevant Boogie flags of the file's first Boogie RUN line, as written."""
    m = RUN.search(text)
    if not m:
        return []
    out = []
    for tok in shlex.split(m.group(1).split('"%s"')[0].split("%s")[0]):
        name = re.sub(r"^[-/]", "", tok).split(":")[0].lower()
        if name in FLAGS:
            out.append("/" + re.sub(r"^[-/]", "", tok))
    return out


def kivl_args(flags, supported):
    """kivl's counterparts of Boogie `flags`, and the flags that have none."""
    args, missing = [], []
    for f in flags:
        name, _, value = f[1:].partition(":")
        opt, takes = FLAGS[name.lower()]
        if name.lower() == "errorlimit" and value == "0":
            value = "1"  # Boogie 2.4.1 reports one error under /errorLimit:0 (test13/ManyErrors.bpl)
        if opt is None or opt not in supported:
            if name.lower() not in ("noverify", "typeencoding"):
                missing.append(f)
            continue
        args += [opt, value] if takes else [opt]
    return args, missing


def spawn(cmd, limit, cwd):
    """Runs `cmd`; returns (stdout+stderr or None on timeout, exit status, seconds)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd,
                         start_new_session=True, errors="replace")
    try:
        out, _ = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, None, limit
    return out, p.returncode, time.monotonic() - start


def boogie_outcome(out):
    if out is None:
        return "timeout", ""
    if REJECTED.search(out) or re.search(r"\.bpl\(\d+,\d+\): [Ee]rror:", out):
        line = next((l for l in out.splitlines() if "rror" in l), "")
        return "rejected", line[:160]
    m = SUMMARY.search(out)
    if not m:
        return "crash", (out.strip().splitlines() or [""])[-1][:160]
    if re.search(r"[1-9]\d* (time outs?|out of (memory|resource)|inconclusives?)", m.group(3)):
        return "inconclusive", m.group(0)  # Boogie's extra counts: some implementation has no verdict
    return f"{m.group(1)}/{m.group(2)}", ""


def kivl_outcome(out, status, check_only):
    if out is None:
        return "timeout", ""
    try:
        j = json.loads(out[out.index("{"):])
    except (ValueError, json.JSONDecodeError):
        return "crash", (out.strip().splitlines() or [""])[-1][:160]
    f = (j.get("files") or [{}])[0]
    errs = f.get("errors", [])
    kinds = {e.get("kind") for e in errs}
    first = lambda k: next((f"line {(e.get('locations') or [{}])[0].get('line', '?')}: {e.get('message', '')}"
                            for e in errs if e.get("kind") == k), "")[:200]
    if "unsupported" in kinds:
        return "unsupported", first("unsupported")
    if kinds & {"syntax", "type", "io"}:
        k = next(k for k in ("syntax", "type", "io") if k in kinds)
        return "rejected", first(k)
    if check_only:
        return "0/0", ""
    if f.get("verdict") == "inconclusive" or "timeout" in kinds:
        return "inconclusive", first("timeout")
    if status == 4 or "verified" not in f:
        return "crash", (out.strip().splitlines() or [""])[-1][:160]
    return f"{f['verified']}/{len(errs)}", ""


def digest(*parts):
    h = hashlib.sha1()
    for p in parts:
        h.update(p if isinstance(p, bytes) else p.encode())
        h.update(b"\0")
    return h.hexdigest()[:20]


class Cache:
    def __init__(self, path):
        self.path = path
        os.makedirs(path, exist_ok=True)

    def get(self, key):
        p = os.path.join(self.path, key + ".json")
        if os.path.exists(p):
            with open(p) as fh:
                return json.load(fh)
        return None

    def put(self, key, value):
        p = os.path.join(self.path, key + ".json")
        with open(p + ".tmp", "w") as fh:
            json.dump(value, fh)
        os.replace(p + ".tmp", p)


def one_file(path, a, cache, kivl_id, supported, wrapper):
    """Boogie's and kivl's outcome on one file (each from the cache when it is there)."""
    with open(path, "rb") as fh:
        data = fh.read()
    text = data.decode("utf-8", "replace")
    flags = run_flags(text)
    check_only = any(f.lower() == "/noverify" for f in flags)
    bkey = "b-" + digest(data, " ".join(flags))
    args, missing = kivl_args(flags, supported)
    kkey = "k-" + digest(data, " ".join(flags), kivl_id, " ".join(args))
    d, name = os.path.split(path)
    b = None if a.redo in ("boogie", "all") else cache.get(bkey)
    if b is not None and "summary" not in b:
        b = None  # cached by a version that did not read Boogie's "out of resource" count
    if b is None and not a.report_only:
        out, _, secs = spawn(["boogie", "/nologo", f"/z3exe:{wrapper}"] + flags + [name], a.limit, d)
        outcome, note = boogie_outcome(out)
        summary = SUMMARY.search(out or "")
        b = {"outcome": outcome, "note": note, "s": round(secs, 2), "summary": summary.group(0) if summary else ""}
        cache.put(bkey, b)
    k = None if a.redo in ("kivl", "all") else cache.get(kkey)
    if k is None and not a.report_only and not a.boogie_only:
        cmd = [a.kivl, "check" if check_only else "verify", "--format", "json"]
        if not check_only:
            cmd += ([] if "--timeout" in args else ["--timeout", str(int(a.limit))]) + args
        out, status, secs = spawn(cmd + [name], a.limit + 10, d)
        outcome, note = kivl_outcome(out, status, check_only)
        k = {"outcome": outcome, "note": note, "s": round(secs, 2), "missing": missing}
        cache.put(kkey, k)
    return {"file": os.path.relpath(path, a.tests), "flags": flags, "boogie": b, "kivl": k}


def agrees(b, k):
    return b == k or (b == "rejected" and k in ("rejected", "unsupported"))


def accepted(b):
    return "/" in b


def reasons_table():
    p = os.path.join(ROOT, "scripts", "boogie-conformance-reasons.tsv")
    out = {}
    if os.path.exists(p):
        for line in open(p):
            if line.strip() and not line.startswith("#") and "\t" in line:
                f, r = line.rstrip("\n").split("\t", 1)
                out[f] = r
    return out


def report(rows, dirs, md):
    reasons = reasons_table()
    lines = ["How to read the table: `files` are the .bpl programs of the directory; `Boogie accepts`",
             "those Boogie 2.4.1 parses, type-checks and verifies to a `V verified, E errors` summary",
             "(the base of the rate); `kivl agrees` those where kivl gives the same V and E; `kivl",
             "unsupported` those of the accepted ones kivl refuses with an `unsupported` diagnostic;",
             "`Boogie rejects` programs Boogie refuses (kivl agrees when it refuses them too);",
             "`Boogie timeout/other` programs without a Boogie verdict (not counted).", "",
             "| directory | files | Boogie accepts | kivl agrees | % | kivl unsupported | Boogie rejects | "
             "Boogie timeout/other |", "|---|---|---|---|---|---|---|---|"]
    tot = [0] * 6
    for d in dirs:
        rs = [r for r in rows if r["file"].split(os.sep)[0] == d and r["boogie"] and r["kivl"]]
        acc = [r for r in rs if accepted(r["boogie"]["outcome"])]
        ag = [r for r in acc if agrees(r["boogie"]["outcome"], r["kivl"]["outcome"])]
        uns = [r for r in acc if r["kivl"]["outcome"] == "unsupported"]
        rej = [r for r in rs if r["boogie"]["outcome"] == "rejected"]
        other = len(rs) - len(acc) - len(rej)
        pct = f"{100 * len(ag) / len(acc):.0f}" if acc else "-"
        lines.append(f"| {d} | {len(rs)} | {len(acc)} | {len(ag)} | {pct} | {len(uns)} | {len(rej)} | {other} |")
        for i, v in enumerate([len(rs), len(acc), len(ag), len(uns), len(rej), other]):
            tot[i] += v
    pct = f"{100 * tot[2] / tot[1]:.1f}" if tot[1] else "-"
    lines.append(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | {pct} | {tot[3]} | {tot[4]} | {tot[5]} |")
    lines += ["", "Differences on programs Boogie accepts (Boogie's outcome, kivl's, reason):", ""]
    for r in rows:
        if not (r["boogie"] and r["kivl"]):
            continue
        b, k = r["boogie"]["outcome"], r["kivl"]["outcome"]
        if accepted(b) and not agrees(b, k):
            why = reasons.get(r["file"]) or r["kivl"]["note"] or "unexplained"
            if r["kivl"].get("missing"):
                why += f" (no kivl counterpart of {' '.join(r['kivl']['missing'])})"
            lines.append(f"- `{r['file']}` {' '.join(r['flags'])}: Boogie {b}, kivl {k}: {why}")
    text = "\n".join(lines)
    print(text)
    if md:
        with open(md, "w") as fh:
            fh.write(text + "\n")
    return tot


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tests", default="/work/corpus/boogie/Test", help="Boogie's Test/ directory")
    ap.add_argument("--dirs", help="comma-separated subdirectories (default: all)")
    ap.add_argument("--nine", action="store_true", help="only the nine directories of issue 23")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/kivl-boogie-conformance"))
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per file and tool")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--kivl", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                                                   "release", "kivl"))
    ap.add_argument("--redo", choices=["kivl", "boogie", "all"])
    ap.add_argument("--report-only", action="store_true", help="print the table from the cache only")
    ap.add_argument("--markdown", help="also write the table here")
    ap.add_argument("--boogie-only", action="store_true", help="fill Boogie's cache only (kivl not needed)")
    a = ap.parse_args()
    a.tests = os.path.abspath(a.tests)
    dirs = NINE if a.nine else (a.dirs.split(",") if a.dirs else sorted(
        d for d in os.listdir(a.tests) if os.path.isdir(os.path.join(a.tests, d))))
    files = [os.path.join(root, f) for d in dirs for root, _, fs in sorted(os.walk(os.path.join(a.tests, d)))
             for f in sorted(fs) if f.endswith(".bpl")]
    cache = Cache(a.cache)
    wrapper = os.path.join(a.cache, "z3wrap.sh")
    with open(wrapper, "w") as fh:
        fh.write(WRAPPER)
    os.chmod(wrapper, 0o755)
    kivl_id, helptext = "", ""
    if not a.boogie_only:
        with open(a.kivl, "rb") as fh:
            kivl_id = hashlib.sha1(fh.read()).hexdigest()
        helptext = subprocess.run([a.kivl, "verify", "--help"], capture_output=True, text=True).stdout
    supported = {o for o, _ in FLAGS.values() if o and o in helptext}
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(one_file, f, a, cache, kivl_id, supported, wrapper) for f in files]
        rows = []
        for n, fut in enumerate(futures, 1):
            rows.append(fut.result())
            if not a.report_only:
                r = rows[-1]
                kout = r["kivl"]["outcome"] if r["kivl"] else "-"
                print(f"[{n}/{len(files)}] {r['file']}: boogie {r['boogie']['outcome']}, kivl {kout}",
                      file=sys.stderr)
    report(rows, dirs, a.markdown)


if __name__ == "__main__":
    main()
