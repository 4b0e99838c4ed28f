#!/usr/bin/env bash
# Front-end speed: `kivl check FILE` (parse + resolve + type-check) against
# `boogie /noVerify /doModSetAnalysis FILE` on the same file, side by side, and the time of
# `kivl check` over the whole GPUVerify corpus on one core.
#
#   scripts/bench-frontend.sh [FILE] [TREE]
#       FILE default: the GPUVerify corpus's sha1.bpl (3.7 MB, one kernel body)
#       TREE default: /work/corpus/gpu/gpuverify (518 files, 44 MB)
#
# Uses hyperfine when installed (mean, median and user time of several runs), else a loop with
# /usr/bin/time (best of RUNS). Prints the wall-clock (mean and median) and user-time ratios
# Boogie / kivl; the median is the steadier one on a machine whose speed drifts.
# Environment: BOOGIE (default `boogie`), KIVL (default target/release/kivl, built if missing),
# RUNS (default 10). The machine's load matters: run it on an otherwise idle machine.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-/work/corpus/gpu/gpuverify/gpgpu-sim_ispass2009/STO/sha1.bpl}"
tree="${2:-/work/corpus/gpu/gpuverify}"
boogie="${BOOGIE:-boogie}"
kivl="${KIVL:-$root/target/release/kivl}"
runs="${RUNS:-10}"

[ -f "$file" ] || { echo "bench-frontend: $file not found" >&2; exit 2; }
command -v "$boogie" >/dev/null || { echo "bench-frontend: '$boogie' not found" >&2; exit 2; }
if [ ! -x "$kivl" ]; then
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p kivl
fi
"$kivl" check "$file" >/dev/null || { echo "bench-frontend: kivl check rejects $file" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Prints "WALL USER" in seconds for a command.
measure() {
  local name="$1"; shift
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 2 --runs "$runs" --export-json "$tmp/$name.json" -N "$*" >/dev/null 2>&1 \
      || hyperfine --warmup 2 --runs "$runs" --export-json "$tmp/$name.json" "$*" >/dev/null
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["mean"], r["user"], r["median"])' \
      "$tmp/$name.json"
  else
    local best_w=999 best_u=999 w u
    for _ in $(seq "$runs"); do
      /usr/bin/time -f "%e %U" -o "$tmp/t" "$@" >/dev/null 2>&1
      read -r w u <"$tmp/t"
      best_w=$(python3 -c "print(min($best_w, $w))")
      best_u=$(python3 -c "print(min($best_u, $u))")
    done
    echo "$best_w $best_u $best_w"
  fi
}

echo "file: $file ($(du -h "$file" | cut -f1))"
read -r bw bu bm < <(cd "$(dirname "$file")" && measure boogie "$boogie" /noVerify /doModSetAnalysis "$file")
read -r kw ku km < <(measure kivl "$kivl" check "$file")
python3 - "$bw" "$bu" "$bm" "$kw" "$ku" "$km" <<'EOF'
import sys
bw, bu, bm, kw, ku, km = map(float, sys.argv[1:])
print(f"boogie /noVerify /doModSetAnalysis: wall {bw*1e3:8.1f} ms   user {bu*1e3:8.1f} ms   median wall {bm*1e3:8.1f} ms")
print(f"kivl check:                          wall {kw*1e3:8.1f} ms   user {ku*1e3:8.1f} ms   median wall {km*1e3:8.1f} ms")
print(f"ratio boogie/kivl:                   wall {bw/kw:8.1f} x    user {bu/ku:8.1f} x    median wall {bm/km:6.1f} x")
EOF

if [ -d "$tree" ]; then
  find "$tree" -name '*.bpl' | sort >"$tmp/files"
  n=$(wc -l <"$tmp/files")
  mb=$(cat $(cat "$tmp/files") | wc -c)
  start=$(date +%s.%N)
  # One core: every file in one process, pinned to CPU 0.
  xargs -a "$tmp/files" taskset -c 0 "$kivl" check >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  python3 -c "print(f'one core (taskset -c 0): {int(\"$n\")} files, {int(\"$mb\")/1e6:.1f} MB of $tree in {$end - $start:.2f} s')"
fi
