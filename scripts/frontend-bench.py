#!/usr/bin/env python3
"""Front-end time against verification time over GPUVerify's test suite (issue 17).

For each kernel.cl / kernel.cu of the suite (KIVL_GPUVERIFY_TESTSUITE, default
../shared/gpuverify-testsuite/testsuite), runs `kivl verify --format json` with the sizes of
the kernel's header and reads the report's `frontend` field (seconds in clang + opt, and in
reading and translating the IR) and the whole run's wall-clock time. Prints the medians and
totals; kernels the front end rejects count for the front end only.

    python3 scripts/frontend-bench.py [--kivl target/release/kivl] [--limit N]
"""
import argparse, glob, json, os, statistics, subprocess, time

SIZE_FLAGS = ("--local_size", "--num_groups", "--global_size", "--blockDim", "--gridDim", "-D", "-I")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--kivl", default=os.path.join(here, "..", "target", "release", "kivl"))
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    root = os.environ.get("KIVL_GPUVERIFY_TESTSUITE", os.path.join(here, "..", "..", "shared", "gpuverify-testsuite", "testsuite"))
    files = sorted(glob.glob(root + "/**/kernel.cl", recursive=True) + glob.glob(root + "/**/kernel.cu", recursive=True))
    if args.limit:
        files = files[: args.limit]
    clang, translate, total = [], [], []
    for f in files:
        with open(f, errors="replace") as fh:
            fh.readline()
            flags = [a for a in fh.readline().lstrip("/").split() if a.startswith(SIZE_FLAGS)]
        t0 = time.monotonic()
        p = subprocess.run([args.kivl, "verify", "--format", "json", "--houdini", "--timeout", "30"] + flags + [f],
                           capture_output=True, text=True)
        wall = time.monotonic() - t0
        try:
            fe = json.loads(p.stdout)["files"][0].get("frontend")
        except (ValueError, KeyError, IndexError):
            fe = None
        if fe:
            clang.append(fe["clang_s"])
            translate.append(fe["translate_s"])
            total.append(wall)
    n = len(total)
    if n == 0:
        print("no kernel reached verification")
        return
    fe_total = sum(clang) + sum(translate)
    print(f"{n} kernels translated of {len(files)}")
    print(f"clang + opt:  median {statistics.median(clang) * 1000:.0f} ms, total {sum(clang):.1f} s")
    print(f"translation:  median {statistics.median(translate) * 1000:.1f} ms, total {sum(translate):.1f} s")
    print(f"whole run:    median {statistics.median(total) * 1000:.0f} ms, total {sum(total):.1f} s "
          f"(front end {100 * fe_total / sum(total):.0f}%)")


if __name__ == "__main__":
    main()
