#!/usr/bin/env bash
# Issue 6 benchmark: total Houdini time over the loop kernels of tests/kernels/ with and without
# dynamic candidate killing (concrete runs drop refuted candidates before Houdini). Prints one
# line per kernel and the two totals; fails if the verdicts differ between the two modes.
#
#   scripts/infer-bench.sh [KERNEL_DIR] [--repeat N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
exec cargo run --quiet --release -p gpu-passes --example infer_bench -- "$@"
