#!/usr/bin/env python3
"""How kivl's time grows with the length of a kernel (issue 42): generated CUDA kernels of N
unrolled FIR taps (straight-line code, `acc += in[i + k] * c;`, as code generators and
`#pragma unroll` produce), verified with `--time --format json` at fixed sizes. Prints one row
per N: wall time, the stages (front end, passes, VC generation, Houdini, verifying), the
solver's time summed over threads, peak memory, and the growth of the wall time against the
previous N (a linear pipeline grows by the ratio of the sizes).

    scripts/fir-scaling.py [--bin KIVL] [--sizes 1000,3000,10000,30000] [--runs R] [--timeout S]

With --runs R > 1 each size runs R times and the row shows the median run (by wall time).
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def kernel(n):
    lines = ["__global__ void fir(const float *in, float *out) {",
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
             "  float acc = 0.0f;"]
    lines += [f"  acc += in[i + {k}] * {0.5 + k * 0.001:.3f}f;" for k in range(n)]
    lines += ["  out[i] = acc;", "}"]
    return "\n".join(lines) + "\n"


def run(kivl, path, timeout):
    """One run: wall seconds, verdict, stage times, solver seconds, peak KB (GNU time's %M)."""
    mem = path + ".mem"
    t0 = time.time()
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", mem, kivl, "verify", "--time", "--format", "json",
                        "--timeout", str(timeout), "--local-size", "64", "--num-groups", "16", path],
                       capture_output=True, text=True)
    wall = time.time() - t0
    with open(mem) as fh:
        peak = int(fh.read().split()[-1])
    try:
        f = json.loads(p.stdout)["files"][0]
    except (json.JSONDecodeError, KeyError, IndexError):
        return {"wall": wall, "verdict": f"exit {p.returncode}", "stages": {}, "solver": 0, "peak": peak}
    t = f.get("time", {})
    return {"wall": wall, "verdict": f["verdict"], "stages": t.get("stages", {}),
            "solver": t.get("solver_ms", 0) / 1000, "peak": peak}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "kivl"))
    ap.add_argument("--sizes", default="1000,3000,10000,30000")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=300)
    a = ap.parse_args()
    cols = [("frontend_ms", "front end"), ("passes_ms", "passes"), ("vcgen_ms", "VC gen"),
            ("houdini_ms", "Houdini"), ("verifying_ms", "verifying")]
    print(f"{'N':>7} {'wall s':>8} " + " ".join(f"{c[1]:>10}" for c in cols)
          + f" {'solver s':>9} {'peak MB':>8} {'growth':>7}  verdict")
    prev = None
    with tempfile.TemporaryDirectory() as d:
        for n in [int(x) for x in a.sizes.split(",")]:
            path = os.path.join(d, f"fir{n}.cu")
            with open(path, "w") as fh:
                fh.write(kernel(n))
            runs = sorted((run(a.bin, path, a.timeout) for _ in range(a.runs)), key=lambda r: r["wall"])
            r = runs[len(runs) // 2]
            growth = f"{r['wall'] / prev:.1f}x" if prev else ""
            prev = r["wall"]
            stages = " ".join(f"{r['stages'].get(k, 0) / 1000:>10.2f}" for k, _ in cols)
            print(f"{n:>7} {r['wall']:>8.2f} {stages} {r['solver']:>9.2f} {r['peak'] / 1024:>8.0f} {growth:>7}  {r['verdict']}",
                  flush=True)


if __name__ == "__main__":
    main()
