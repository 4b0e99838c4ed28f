#!/usr/bin/env bash
# Runs `kivl check` on every .bpl file of the symbooglix/gpu corpus (GPUVerify's output for
# 518 real CUDA/OpenCL kernels, 1,036 files) and prints how many pass.
#
#   scripts/check-corpus.sh [CORPUS_DIR]
#
# CORPUS_DIR is a checkout of github.com/symbooglix/gpu (default: ../corpus/gpu). The corpus has
# no licence, so it is not part of this repository.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-$root/../corpus/gpu}"
[ -d "$corpus/gpuverify" ] || { echo "no corpus at $corpus (clone symbooglix/gpu there)" >&2; exit 2; }
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
kivl="$root/target/release/kivl"
total=0; ok=0; failed=()
while IFS= read -r -d '' f; do
  total=$((total + 1))
  if "$kivl" check "$f" >/dev/null 2>&1; then ok=$((ok + 1)); else failed+=("$f"); fi
done < <(find "$corpus/gpuverify" "$corpus/other" -name '*.bpl' -print0 | sort -z)
for f in "${failed[@]:0:20}"; do echo "FAIL $f"; done
echo "kivl check: $ok of $total files pass"
start=$(date +%s.%N)
find "$corpus/gpuverify" -name '*.bpl' -print0 | xargs -0 "$kivl" check >/dev/null 2>&1 || true
end=$(date +%s.%N)
echo "kivl check on all of gpuverify/ in one process: $(echo "$end - $start" | bc) s"
[ "$ok" -eq "$total" ]
