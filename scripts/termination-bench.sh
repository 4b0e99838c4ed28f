#!/usr/bin/env bash
# Time of `kivl verify --termination` per kernel (termination only: `--only-divergence` keeps the
# race check out of the figure), over tests/kernels and tests/termination, or over the .kbpl/.bpl
# files given as arguments. Prints one line per kernel and the proven/total counts.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin kivl
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/kernels/*.kbpl tests/termination/*.kbpl)
proven=0; total=0; sum=0
for f in "${files[@]}"; do
  args=$(sed -n '1,8s#^//args:##p' "$f" | sed 's/--termination//')
  start=$(date +%s.%N)
  status=$(target/release/kivl verify --termination --only-divergence --format json $args "$f" 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0].get("termination",{}).get("status","-"))' || true)
  t=$(echo "$(date +%s.%N) - $start" | bc)
  printf '%-60s %-12s %6.2f s\n' "$f" "$status" "$t"
  total=$((total + 1)); [ "$status" = proven ] && proven=$((proven + 1))
  sum=$(echo "$sum + $t" | bc)
done
printf 'proven terminating: %d of %d kernels; %.2f s in all, %.3f s per kernel\n' "$proven" "$total" "$sum" "$(echo "$sum / $total" | bc -l)"
