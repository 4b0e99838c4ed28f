#!/usr/bin/env bash
# kivl on GPUVerify's own test suite (issue 17), every kernel: prints `N passed, M failed,
# K skipped`, the baseline entries that now pass, and writes the per-kernel table (result, times,
# expectation, reason) to target/gpuverify-suite.txt. It runs the test `gpuverify_suite` of
# tests/gpuverify_suite.rs, which CI runs too.
#
#   scripts/gpuverify-suite.sh [--bless] [--bench] [--timeout S] [--bin KIVL] [FILTER]
#     --bless    rewrite tests/gpuverify-suite-baseline.txt from this run's failures and reasons
#                (after a change that fixes or breaks kernels; review the diff before committing)
#     --bench    also time the front end alone (`kivl transform KERNEL --emit kbpl`: clang and the
#                translation to .kbpl) against `kivl verify`, per kernel and in total
#     --timeout  kivl's --timeout per check (default 30; a run is killed at 2S+30 seconds)
#     --bin      score this kivl binary instead of the one cargo builds here
#     FILTER     only the kernels whose path contains FILTER (e.g. OpenCL/barrier_invariants)
#
# Environment: KIVL_GPUVERIFY_SUITE, the suite's testsuite/ folder (default
# ../shared/gpuverify-testsuite/testsuite); CARGO_TARGET_DIR as for cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
export KIVL_SUITE_SAMPLE=1 KIVL_SUITE_BLESS=0 KIVL_SUITE_BENCH=0 KIVL_SUITE_FILTER=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bless) KIVL_SUITE_BLESS=1 ;;
    --bench) KIVL_SUITE_BENCH=1 ;;
    --timeout) shift; export KIVL_SUITE_TIMEOUT="$1" ;;
    --bin) shift; KIVL_SUITE_BIN="$(realpath "$1")"; export KIVL_SUITE_BIN ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "gpuverify-suite: unknown option $1" >&2; exit 2 ;;
    *) KIVL_SUITE_FILTER="$1" ;;
  esac
  shift
done
exec cargo test --release --quiet --test gpuverify_suite -- --exact gpuverify_suite --nocapture
