#!/usr/bin/env python3
"""kivl's front end on the real kernels of symbooglix/gpu (issue 18's measurements).

The corpus ($KIVL_CORPUS, a checkout of github.com/symbooglix/gpu; not part of this repository)
has, per kernel, the CUDA/OpenCL source `X.cl`/`X.cu` with GPUVerify's header (`//pass`, then
the options) next to `X.bpl`, the Boogie GPUVerify generated from it (`kernel.bpl` for most,
`kernel0.bpl`… or the kernel's name where a directory holds several). The sources are the ones
with such a `.bpl` beside them (487 of them; `X__injected_bug__.bpl` and `X__known_bug__.bpl`
are GPUVerify's buggy variants of `X`, not sources of their own). For every source this prints:

- whether the front end accepts it (`kivl verify` does not exit with status 2);
- whether `kivl verify X.cu` agrees with `kivl verify kernel.bpl` where both finish with a
  verdict (verified, or errors);
- for the sources with a planted bug (`#ifdef MUTATION` / `KERNEL_BUG`, and an
  `X__injected_bug__.bpl` or `X__known_bug__.bpl` beside them), the verdict with `-DMUTATION -DKERNEL_BUG`: such a
  kernel must never be reported verified (exit 3 if one is).

    scripts/corpus-frontend.py [--bin KIVL] [--jobs N] [--timeout S] [--sample K] [--only-bugs]
                               [--only PART,PART...] [--cache DIR] [--cached-only [--earlier-bin OLD]]
                               [CORPUS]

`--sample K` runs every K-th source (sorted by path) for a quicker estimate; `--only P,Q` the
sources whose path contains `P` or `Q` (to rerun the ones a change is about). Resumable: each
source's row is cached as JSON under --cache (default /tmp/kivl-corpus-frontend, outside the
repository), keyed by the kivl binary (size and modification time), the source and the time
limit, so a rerun skips the sources already done; a new binary starts afresh. `--cached-only`
prints the table over the sources a (still running or stopped) run has finished, running none;
with `--earlier-bin OLD` it takes OLD's row where the binary has none (a change whose effect is
confined to some sources is measured by rerunning those with `--only` and combining), and says
how many rows came from each binary.

Inference is on (`--houdini`), as GPUVerify's is; options the harness cannot map skip the
kernel with the reason.
"""
import argparse
import concurrent.futures
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The option mapping of the termination script (sizes, -D, -I), not a second copy of it.
_spec = importlib.util.spec_from_file_location("termination_suite", os.path.join(ROOT, "scripts", "termination-suite.py"))
term = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(term)

BUG_MACROS = ("MUTATION", "KERNEL_BUG")
# GPUVerify options the termination script leaves unmapped (it skips such kernels) that kivl
# has under another spelling: the header option, then kivl's arguments.
EXTRA = {"--equality-abstraction": ["--abstraction", "equality"], "--only-intra-group": ["--only-intra-group"]}
WARP_SYNC = re.compile(r"^--warp[-_]sync=(\d+)$")


def arguments(src):
    """kivl arguments for a source: the termination script's mapping (sizes, -D, -I), plus
    `--warp-sync=N`, `--equality-abstraction` and `--only-intra-group`, which that script does
    not map. None when an option is still unmapped."""
    args = term.arguments(src)
    if args is not None:
        return args
    with open(src, errors="replace") as fh:
        lines = fh.read().splitlines()
    if len(lines) < 2 or not lines[1].startswith("//"):
        return None
    out = []
    for a in lines[1][2:].split():
        m = WARP_SYNC.match(a)
        if m:
            out += ["--warp-sync", m.group(1)]
        elif a in EXTRA:
            out += EXTRA[a]
        else:
            # Everything else as the termination script maps it (one option at a time).
            one = term_option(src, a)
            if one is None:
                return None
            out += one
    return out


def term_option(src, option):
    """The termination script's mapping of one header option (a list), None if it has none."""
    if term.SIZE.match(option) or option.startswith(("-D", "-I")):
        return [option.replace("${KERNEL_DIR}", os.path.dirname(src))]
    if option in ("--no-inline", "--no-infer"):
        return []
    return None


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
    args = arguments(src)
    if args is None:
        return src, None, None, None
    # The variants GPUVerify's authors generated a buggy program for (X__injected_bug__.bpl, and
    # X__known_bug__.bpl where the macro restores a bug the original had): the 31 buggy
    # variants. The other sources' macros do not always make a bug (removing a barrier between
    # a work-item's own write and read, BitonicSort's transpose_kernel, leaves it race-free).
    text = open(src, errors="replace").read()
    stem = os.path.splitext(src)[0]
    buggy = any(os.path.isfile(stem + f"__{kind}_bug__.bpl") for kind in ("injected", "known"))
    planted = buggy and any(m in text for m in BUG_MACROS)
    bug = verdict(kivl, src, args + [f"-D{m}" for m in BUG_MACROS], timeout) if planted else None
    if only_bugs:
        return src, None, None, bug
    # The .bpl gets the sizes and the verification options (warps, abstraction), not -D/-I.
    sizes = [a for a in args if not a.startswith(("-D", "-I"))]
    bpl = os.path.splitext(src)[0] + ".bpl"
    mine = verdict(kivl, src, args, timeout)
    theirs = verdict(kivl, bpl, sizes, timeout) if os.path.isfile(bpl) else None
    return src, mine, theirs, bug


USER_INVARIANT = re.compile(r"__(global_|function_wide_)?invariant\s*\(")


def lost_invariants(src):
    """A note when `src` states loop invariants (`__invariant`, `__global_invariant`…, also in
    the headers next to it) that GPUVerify's .bpl beside it lost: the .bpl of every such corpus
    kernel has no `originated_from_invariant` assertion, so kivl on the .bpl must do without
    them. Empty otherwise."""
    bpl = os.path.splitext(src)[0] + ".bpl"
    with open(bpl, errors="replace") as fh:
        if "originated_from_invariant" in fh.read():
            return ""
    directory = os.path.dirname(src)
    texts = [src] + [os.path.join(d, f) for d in (directory, os.path.dirname(directory))
                     for f in sorted(os.listdir(d)) if f.endswith(".h")]
    n = 0
    for path in texts:
        with open(path, errors="replace") as fh:
            n += len(USER_INVARIANT.findall(fh.read()))
    return f"  (the .bpl lacks the source's {n} loop invariants)" if n else ""


def is_source(directory, name):
    """A CUDA/OpenCL source with GPUVerify's Boogie for it beside it."""
    stem, ext = os.path.splitext(name)
    return ext in (".cl", ".cu") and os.path.isfile(os.path.join(directory, stem + ".bpl"))


def cache_path(a, src, binary=None):
    """Where the row of `src` is cached for this binary (or `binary`), time limit and mode."""
    st = os.stat(binary or a.bin)
    key = hashlib.sha1(f"{st.st_size}:{st.st_mtime_ns}:{src}:{a.timeout}:{a.only_bugs}".encode()).hexdigest()[:20]
    return os.path.join(a.cache, key + ".json")


def cached(a, src):
    """`check` of one source, through the cache (a row is a JSON list)."""
    path = cache_path(a, src)
    if not os.path.isfile(path) and a.earlier_bin and os.path.isfile(cache_path(a, src, a.earlier_bin)):
        path = cache_path(a, src, a.earlier_bin)
    if os.path.isfile(path):
        with open(path) as fh:
            return tuple(json.load(fh))
    row = check(a.bin, src, a.timeout, a.only_bugs)
    os.makedirs(a.cache, exist_ok=True)
    with open(path + ".tmp", "w") as fh:
        json.dump(row, fh)
    os.replace(path + ".tmp", path)
    print(f"  {os.path.relpath(src, a.corpus)}: source {row[1]}, bpl {row[2]}, planted bug {row[3]}", file=sys.stderr, flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", nargs="?", default=os.environ.get("KIVL_CORPUS", os.path.join(ROOT, "..", "corpus", "gpu")))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kivl"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--only-bugs", action="store_true", help="only the planted-bug variants")
    ap.add_argument("--sample", type=int, default=1, help="every K-th source only")
    ap.add_argument("--only", default="", help="only the sources whose path contains one of these comma-separated parts")
    ap.add_argument("--cache", default="/tmp/kivl-corpus-frontend", help="per-source results (outside the repository)")
    ap.add_argument("--cached-only", action="store_true",
                    help="run nothing: the table over the sources already in the cache (a partial run)")
    ap.add_argument("--earlier-bin", help="with --cached-only: where --bin has no row for a source, take the "
                    "row of this earlier binary (a rerun of only the sources a change can affect)")
    a = ap.parse_args()
    base = os.path.join(a.corpus, "gpuverify")
    if not os.path.isdir(base):
        print(f"skipped: no corpus at {a.corpus} (set KIVL_CORPUS to a checkout of symbooglix/gpu)")
        return
    sources = sorted(os.path.join(d, f) for d, _, fs in os.walk(base) for f in fs if is_source(d, f))
    sources = sources[:: max(1, a.sample)]
    if a.only:
        sources = [s for s in sources if any(part in s for part in a.only.split(","))]
    if a.cached_only:
        binaries = [a.bin] + ([a.earlier_bin] if a.earlier_bin else [])
        sources = [s for s in sources if any(os.path.isfile(cache_path(a, s, b)) for b in binaries)]
        print(f"(--cached-only: the {len(sources)} sources already run with this binary"
              f"{' or the earlier one' if a.earlier_bin else ''})")
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda s: cached(a, s), sources))
    rel = lambda p: os.path.relpath(p, base)
    from_earlier = sum(1 for s in sources if a.earlier_bin and not os.path.isfile(cache_path(a, s)))
    if from_earlier:
        print(f"({from_earlier} rows from the earlier binary {a.earlier_bin}, "
              f"{len(rows) - from_earlier} from {a.bin})")
    mapped = [r for r in rows if r[1] is not None or r[3] is not None]
    if not a.only_bugs:
        accepted = [r for r in mapped if r[1] != "invalid"]
        both = [r for r in accepted if r[1] in ("verified", "errors") and r[2] in ("verified", "errors")]
        agree = [r for r in both if r[1] == r[2]]
        print(f"{len(sources)} sources, {len(mapped)} with options kivl maps, {len(accepted)} accepted by the "
              f"front end ({100 * len(accepted) / max(1, len(mapped)):.1f}%)")
        print(f"both X.cl/X.cu and kernel.bpl finish on {len(both)}; they agree on {len(agree)} "
              f"({100 * len(agree) / max(1, len(both)):.1f}%)")
        lost = 0
        for s, mine, theirs, _ in both:
            if mine != theirs:
                why = lost_invariants(s) if (mine, theirs) == ("verified", "errors") else ""
                lost += bool(why)
                print(f"  disagree: {rel(s)}  source {mine}, bpl {theirs}{why}")
        if lost:
            print(f"of the disagreements, {lost} are sources whose loop invariants GPUVerify's .bpl does not "
                  f"carry (the source verifies with them, the .bpl cannot without them)")
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
