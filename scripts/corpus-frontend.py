#!/usr/bin/env python3
"""kivl's front end on the real kernels of symbooglix/gpu (issue 18's measurements).

The corpus ($KIVL_CORPUS, a checkout of github.com/symbooglix/gpu; not part of this repository)
has, per kernel, the CUDA/OpenCL source with GPUVerify's header (`//pass`, then the options)
next to `kernel.bpl`, the Boogie GPUVerify generated from it. For every source this prints:

- whether the front end accepts it (`kivl verify` does not exit with status 2);
- whether `kivl verify X.cu` agrees with `kivl verify kernel.bpl` where both finish with a
  verdict (verified, or errors);
- for the sources with a planted bug (`#ifdef MUTATION` / `KERNEL_BUG`, and a
  `kernel__injected_bug__.bpl` beside them), the verdict with `-DMUTATION -DKERNEL_BUG`: such a
  kernel must never be reported verified (exit 3 if one is).

    scripts/corpus-frontend.py [--bin KIVL] [--jobs N] [--timeout S] [--sample K] [--only-bugs] [CORPUS]

`--sample K` runs every K-th source (sorted by path) for a quicker estimate.

Inference is on (`--houdini`), as GPUVerify's is; options the harness cannot map skip the
kernel with the reason.
"""
import argparse
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The option mapping of the termination script (sizes, -D, -I), not a second copy of it.
_spec = importlib.util.spec_from_file_location("termination_suite", os.path.join(ROOT, "scripts", "termination-suite.py"))
term = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(term)

BUG_MACROS = ("MUTATION", "KERNEL_BUG")


def verdict(kivl, target, args, timeout):
    """`verified`, `errors`, `invalid` (exit 2), `inconclusive` or `timeout`."""
    cmd = [kivl, "verify", "--format", "json", "--houdini", "--timeout", str(timeout), *args, target]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=4 * timeout + 30)
    except subprocess.TimeoutExpired:
        return "timeout"
    if p.returncode == 2:
        return "invalid"
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        return "inconclusive"
    c = out.get("counts", {})
    if p.returncode == 0:
        return "verified"
    if c.get("errors", 0) > 0:
        return "errors"
    return "inconclusive"


def check(kivl, src, timeout, only_bugs):
    args = term.arguments(src)
    if args is None:
        return src, None, None, None
    # The variants GPUVerify's authors generated a buggy program for (kernel__injected_bug__.bpl):
    # the others' macros do not always make a bug (removing a barrier between a work-item's
    # own write and read, BitonicSort's transpose_kernel, leaves it race-free).
    text = open(src, errors="replace").read()
    injected = os.path.isfile(os.path.join(os.path.dirname(src), "kernel__injected_bug__.bpl"))
    planted = injected and any(m in text for m in BUG_MACROS)
    bug = verdict(kivl, src, args + [f"-D{m}" for m in BUG_MACROS], timeout) if planted else None
    if only_bugs:
        return src, None, None, bug
    sizes = [a for a in args if not a.startswith(("-D", "-I"))]
    bpl = os.path.join(os.path.dirname(src), "kernel.bpl")
    mine = verdict(kivl, src, args, timeout)
    theirs = verdict(kivl, bpl, sizes, timeout) if os.path.isfile(bpl) else None
    return src, mine, theirs, bug


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=os.environ.get("KIVL_CORPUS", os.path.join(ROOT, "..", "corpus", "gpu")))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kivl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only-bugs", action="store_true", help="only the planted-bug variants")
    ap.add_argument("--sample", type=int, default=1, help="every K-th source only")
    a = ap.parse_args()
    base = os.path.join(a.corpus, "gpuverify")
    if not os.path.isdir(base):
        print(f"skipped: no corpus at {a.corpus} (set KIVL_CORPUS to a checkout of symbooglix/gpu)")
        return
    sources = sorted(os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs if f in ("kernel.cl", "kernel.cu"))
    sources = sources[:: max(1, a.sample)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda s: check(a.bin, s, a.timeout, a.only_bugs), sources))
    rel = lambda p: os.path.relpath(p, base)
    mapped = [r for r in rows if r[1] is not None or r[3] is not None]
    if not a.only_bugs:
        accepted = [r for r in mapped if r[1] != "invalid"]
        both = [r for r in accepted if r[1] in ("verified", "errors") and r[2] in ("verified", "errors")]
        agree = [r for r in both if r[1] == r[2]]
        print(f"{len(sources)} sources, {len(mapped)} with options kivl maps, {len(accepted)} accepted by the "
              f"front end ({100 * len(accepted) / max(1, len(mapped)):.1f}%)")
        print(f"both X.cl/X.cu and kernel.bpl finish on {len(both)}; they agree on {len(agree)} "
              f"({100 * len(agree) / max(1, len(both)):.1f}%)")
        for s, mine, theirs, _ in both:
            if mine != theirs:
                print(f"  disagree: {rel(s)}  source {mine}, bpl {theirs}")
    bugs = [r for r in rows if r[3] is not None]
    verified = [r for r in bugs if r[3] == "verified"]
    counts = {v: sum(1 for r in bugs if r[3] == v) for v in sorted({r[3] for r in bugs})}
    print(f"{len(bugs)} sources with a planted bug, built with -DMUTATION -DKERNEL_BUG: {counts}")
    for s, *_ in verified:
        print(f"  UNSOUND: verified with its bug planted: {rel(s)}")
    if verified:
        sys.exit(3)


if __name__ == "__main__":
    main()
