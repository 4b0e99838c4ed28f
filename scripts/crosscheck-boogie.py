#!/usr/bin/env python3
"""Has Boogie 2.4.1 referee kivl's Houdini results, file by file.

kivl's verdict on a program with candidates rests on two things: the assignment its Houdini
computed, and its own VC for that assignment. This script takes kivl's assignment
(`--print-assignment`), writes a copy of the program in which every
`const {:existential true} b: bool;` becomes a plain constant fixed by an axiom to kivl's
value, and has Boogie verify that copy *without* Houdini (GPUVerify's other back-end flags).
Boogie then checks every candidate kivl kept (as an assertion and an invariant) and every
other assertion, with its own VC generation and encoding:

- kivl verified, Boogie verifies the copy: confirmed. The kept candidates are inductive and
  nothing fails, so every candidate set Houdini can keep includes them: a Houdini that reports
  an error for this program (as Boogie's own `/contractInfer` does with `smt.relevancy=0` on
  some files) reports a false alarm.
- kivl verified, Boogie finds an error in the copy: `REFUTED`, a possible soundness bug of kivl
  (or a false alarm of Boogie). Each one needs a look.
- kivl reported errors: Boogie's error count on the copy (the same assignment) is shown beside
  kivl's.

    scripts/crosscheck-boogie.py [--corpus DIR] [--cache DIR] [--limit S] [--kivl BIN]
                                 [--boogie-z3 gpuverify|default] [--from-compare] [FILE...]

`--from-compare` takes the files on which kivl and Boogie's `/contractInfer` disagreed in the
cache of `scripts/compare-boogie.py`. Results are cached per file under `--cache`
(field `crosscheck`). The corpus (symbooglix/gpu) is not part of this repository.
"""
import argparse
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("compare_boogie", os.path.join(HERE, "compare-boogie.py"))
compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare)

EXISTENTIAL = re.compile(r"const\s*\{:existential true\}\s*([\w$.#'~^?\\]+(?:\s*,\s*[\w$.#'~^?\\]+)*)\s*:\s*bool\s*;")
ASSIGNMENT = re.compile(r"^(\S+) = (True|False)$", re.M)


def fix_candidates(source, assignment):
    """The program with each candidate constant fixed to its value in `assignment`."""
    missing = []

    def fixed(m):
        names = [n.strip() for n in m.group(1).split(",")]
        out = []
        for n in names:
            if n not in assignment:
                missing.append(n)
                continue
            out.append(f"const {n}: bool; axiom {n} == {'true' if assignment[n] else 'false'};")
        return " ".join(out)

    text = EXISTENTIAL.sub(fixed, source)
    if missing:
        raise ValueError(f"kivl printed no value for {', '.join(missing)}")
    return text


def kivl_run(kivl, path, limit):
    """kivl's counts and assignment, or (None, None, note)."""
    cmd = [kivl, "verify", "--houdini", "--print-assignment", "--jobs", "1", "--timeout", str(int(limit)), path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 30)
    except subprocess.TimeoutExpired:
        return None, None, "wall-clock limit"
    m = compare.SUMMARY.search(p.stdout)
    if not m or compare.UNFINISHED.search(p.stdout):
        return None, None, "unfinished"
    assignment = {n: v == "True" for n, v in ASSIGNMENT.findall(p.stdout)}
    return [int(m.group(1)), int(m.group(2))], assignment, ""


def classify(k, b):
    if b is None:
        return "boogie unfinished"
    if k[1] == 0:
        return "confirmed" if b[1] == 0 else "REFUTED"
    return "errors confirmed" if b[1] > 0 else "kivl errors, Boogie verifies"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(compare.ROOT, "..", "corpus", "gpu"))
    ap.add_argument("--cache", default="/tmp/kivl-compare")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--kivl", help="kivl binary (default: build target/release/kivl)")
    ap.add_argument("--boogie-z3", choices=["gpuverify", "default"], default="gpuverify")
    ap.add_argument("--from-compare", action="store_true",
                    help="the files where the cached counts of kivl and Boogie's /contractInfer differ")
    ap.add_argument("--redo", action="store_true")
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    corpus = os.path.abspath(a.corpus)
    os.makedirs(os.path.join(a.cache, "results"), exist_ok=True)
    if a.from_compare:
        rows = [compare.load(a.cache, os.path.relpath(f, corpus)) for f in
                sorted(glob.glob(os.path.join(corpus, "gpuverify", "**", "*.bpl"), recursive=True))]
        rels = [r["file"] for r in rows if r.get("boogie") and r.get("kivl") and r["boogie"] != r["kivl"]]
    else:
        rels = [os.path.relpath(os.path.abspath(f), corpus) for f in a.files]
    if not rels:
        sys.exit("no files")
    kivl = a.kivl
    if not kivl:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "kivl"], cwd=compare.ROOT, check=True)
        kivl = os.path.join(compare.ROOT, "target", "release", "kivl")
    wrapper = os.path.join(a.cache, "z3-wrapper.sh")
    with open(wrapper, "w") as fh:
        fh.write(compare.WRAPPER)
    os.chmod(wrapper, 0o755)
    flags = [f for f in compare.BOOGIE_FLAGS if f != "/contractInfer"]
    if a.boogie_z3 == "default":
        flags = [f for f in flags if "relevancy" not in f]
    field = "crosscheck" if a.boogie_z3 == "gpuverify" else "crosscheck_default"
    tally = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, rel in enumerate(rels):
            row = compare.load(a.cache, rel)
            if field not in row or a.redo:
                k, assignment, note = kivl_run(kivl, os.path.join(corpus, rel), a.limit)
                b = None
                if k:
                    with open(os.path.join(corpus, rel)) as fh:
                        try:
                            text = fix_candidates(fh.read(), assignment)
                        except ValueError as e:
                            note = str(e)
                            text = None
                    if text is not None:
                        copy = os.path.join(tmp, "fixed.bpl")
                        with open(copy, "w") as fh:
                            fh.write(text)
                        b, _, note = compare.run(["boogie", *flags, f"/timeLimit:{int(a.limit)}",
                                                  f"/z3exe:{wrapper}", copy], a.limit)
                        b = compare.verdict(b)
                row = compare.save(a.cache, rel, {field: {"kivl": k, "boogie": b, "note": note}})
            c = row[field]
            verdict = classify(c["kivl"], c["boogie"]) if c["kivl"] else "kivl unfinished"
            tally[verdict] = tally.get(verdict, 0) + 1
            print(f"[{i + 1}/{len(rels)}] {rel}: kivl {c['kivl']}, Boogie on kivl's assignment {c['boogie']}"
                  f"  {verdict} {c['note']}".rstrip(), flush=True)
    print()
    for v, n in sorted(tally.items(), key=lambda x: -x[1]):
        print(f"{v:32} {n}")
    sys.exit(1 if tally.get("REFUTED") else 0)


if __name__ == "__main__":
    main()
