#!/usr/bin/env bash
# How kivl's verification condition grows with the length of a program (issue 16): straight-line
# programs of N assignments `x := x + 1;` ending in `assert x == N` (and a failing twin asserting
# N + 1), for N = 1,000, 10,000 and 100,000. For each N it prints the wall time and peak memory of
# `kivl transform --emit vc` (construction and printing) and of `kivl verify --timeout 10`, and the
# growth factor against the previous N: a linear VC grows about 10x per line.
#
#   scripts/vc-scaling.sh [KIVL]        (default: target/release/kivl, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
kivl="${1:-target/release/kivl}"
[ -x "$kivl" ] || cargo build --release --quiet -p kivl
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT

program() { # N TARGET
  awk -v n="$1" -v t="$2" 'BEGIN {
    print "procedure P() { var x: int; x := 0;"
    for (i = 0; i < n; i++) print "  x := x + 1;"
    printf "  assert x == %d; }\n", t }'
}

# Runs a command with its output dropped; prints "seconds peak_KB exit_status".
measure() {
  local code=0
  /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null 2>&1 || code=$?
  echo "$(cat "$dir/time" | tail -1) $code"
}

printf '%-8s %-8s %12s %10s %12s %10s %8s %8s\n' N program "emit vc (s)" "MB" "verify (s)" "MB" "growth" "verdict"
prev=""
for n in 1000 10000 100000; do
  for kind in ok bad; do
    target=$n
    [ "$kind" = bad ] && target=$((n + 1))
    f="$dir/line$n-$kind.bpl"
    program "$n" "$target" > "$f"
    read -r et em _ < <(measure "$kivl" transform --emit vc "$f")
    read -r vt vm code < <(measure "$kivl" verify --timeout 10 "$f")
    growth="-"
    if [ "$kind" = ok ] && [ -n "$prev" ]; then
      growth=$(awk -v a="$vt" -v b="$prev" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }')
    fi
    [ "$kind" = ok ] && prev="$vt"
    printf '%-8s %-8s %12s %10d %12s %10d %8s %8s\n' "$n" "$kind" "$et" $((em / 1024)) "$vt" $((vm / 1024)) "$growth" "exit $code"
  done
done
