#!/usr/bin/env bash
# Issue 16: the full mutation run. Every mutant of every correct kernel of tests/kernels/
# (gpu-passes/src/mutate.rs) is verified with the kernel's header arguments; every mutant that
# verifies is executed by `kivl run` (the header's sizes, or 4x2, 8x1 and 16x2 for symbolic
# sizes; seeded random schedules and round-robin). Prints the table per operator: generated,
# invalid, killed, inconclusive, crashed, survived, survivors checked by `kivl run`, buggy
# survivors (soundness failures, each printed with its mutant; the run fails if there is one).
# CI runs a seeded sample of the same test (`mutation_sample` in tests/mutation.rs).
#
#   scripts/mutation.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
exec cargo test --release -p kivl --test mutation -- --ignored full_mutation_run --nocapture
