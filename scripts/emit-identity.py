#!/usr/bin/env python3
"""Whether two kivl binaries emit the same `.kbpl` for every kernel (a front-end refactor's check).

    scripts/emit-identity.py BEFORE AFTER [--jobs N] [--cache DIR] [--suite DIR] [--only PART]

Runs `BIN transform --emit kbpl ARGS FILE` with both binaries on every `.cl`/`.cu` of
tests/frontend/ (ARGS: the file's `//args:` line) and every `kernel.cl`/`kernel.cu` of
GPUVerify's suite (ARGS: the options on its second line that reach the front end: sizes, -D, -I,
--check-array-bounds; the others are left out), and compares stdout, stderr and the exit status;
both binaries run under the name `kivl` (usage messages print it). Prints the number of
files compared and each one that differs, with the first differing line; exits 1 if any does.

A binary's outputs are cached under --cache (default /tmp/kivl-emit-identity), keyed by the
binary's contents, so the "before" side runs once however often the "after" one changes.
SUITE defaults to $KIVL_GPUVERIFY_SUITE or ../shared/gpuverify-testsuite/testsuite.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = re.compile(r"^--(local_size|num_groups|global_size|blockDim|gridDim)=(.*)$")


def frontend_files():
    d = os.path.join(ROOT, "tests", "frontend")
    for f in sorted(os.listdir(d)):
        if f.endswith((".cl", ".cu")):
            path = os.path.join(d, f)
            args = []
            with open(path, errors="replace") as fh:
                for line in fh:
                    if not line.startswith("//"):
                        break
                    if line.startswith("//args:"):
                        args = line[len("//args:"):].split()
            yield path, args


def suite_args(path):
    """The options of a suite kernel's second line that the front end reads."""
    with open(path, errors="replace") as fh:
        lines = fh.read().splitlines()
    if len(lines) < 2 or not lines[1].startswith("//"):
        return []
    words = lines[1][2:].replace("${KERNEL_DIR}", os.path.dirname(path)).split()
    out = []
    i = 0
    while i < len(words):
        a = words[i]
        m = SIZE.match(a)
        if m:
            value = m.group(2).strip("[]")
            if value and "*" not in value:
                out.append(f"--{m.group(1)}={value}")
        elif a in ("-D", "-I") and i + 1 < len(words):
            out.append(a + words[i + 1])
            i += 1
        elif a.startswith(("-D", "-I")) or a == "--check-array-bounds":
            out.append(a)
        i += 1
    return out


def suite_files(suite):
    found = []
    for d, _, fs in os.walk(suite):
        for f in fs:
            if f in ("kernel.cl", "kernel.cu"):
                found.append(os.path.join(d, f))
    for path in sorted(found):
        yield path, suite_args(path)


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def run(binary, path, args, cache):
    key = hashlib.sha256(json.dumps([path, args]).encode()).hexdigest()[:24]
    cached = os.path.join(cache, key + ".json")
    if os.path.exists(cached):
        with open(cached) as fh:
            return json.load(fh)
    try:
        p = subprocess.run([binary, "transform", "--emit", "kbpl", *args, path], capture_output=True, timeout=600)
        out = [p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), p.returncode]
    except subprocess.TimeoutExpired:
        out = ["", "timeout", -1]
    # Usage messages name the binary: both run as `kivl` (a link), from different directories.
    out = [s.replace(binary, "KIVL") if isinstance(s, str) else s for s in out]
    tmp = cached + f".{os.getpid()}"
    with open(tmp, "w") as fh:
        json.dump(out, fh)
    os.replace(tmp, cached)
    return out


def first_difference(a, b):
    for k, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return f"line {k + 1}: {x!r} vs {y!r}"
    return f"lengths {len(a.splitlines())} vs {len(b.splitlines())} lines"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--cache", default="/tmp/kivl-emit-identity")
    default_suite = os.environ.get("KIVL_GPUVERIFY_SUITE") or os.path.join(
        ROOT, "..", "shared", "gpuverify-testsuite", "testsuite")
    ap.add_argument("--suite", default=default_suite)
    ap.add_argument("--only", help="only the files whose path contains this")
    a = ap.parse_args()

    files = list(frontend_files())
    if os.path.isdir(a.suite):
        files += list(suite_files(a.suite))
    else:
        print(f"no GPUVerify suite at {a.suite}: tests/frontend only", file=sys.stderr)
    if a.only:
        files = [f for f in files if a.only in f[0]]
    bins = []
    caches = []
    for side, b in (("before", a.before), ("after", a.after)):
        key = digest(b)
        c = os.path.join(a.cache, key)
        os.makedirs(c, exist_ok=True)
        caches.append(c)
        # Each binary runs under the name `kivl`, which its messages print.
        link_dir = os.path.join(a.cache, "bin", side)
        os.makedirs(link_dir, exist_ok=True)
        link = os.path.join(link_dir, "kivl")
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.abspath(b), link)
        bins.append(link)

    def both(item):
        path, args = item
        return path, [run(b, path, args, c) for b, c in zip(bins, caches)]

    differ = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for path, (x, y) in pool.map(both, files):
            if x != y:
                what = [n for n, i in (("stdout", 0), ("stderr", 1), ("status", 2)) if x[i] != y[i]]
                detail = first_difference(x[0], y[0]) if x[0] != y[0] else ""
                differ.append(f"{os.path.relpath(path, ROOT)}: {', '.join(what)} {detail}")
    frontend = sum(1 for f in files if "/tests/frontend/" in f[0])
    print(f"{len(files)} files compared ({frontend} of tests/frontend, {len(files) - frontend} of the suite), "
          f"{len(differ)} differ")
    for d in differ:
        print("  " + d)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
