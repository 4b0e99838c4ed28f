#!/usr/bin/env bash
# Incremental verification (issue 20): a file of 50 procedures is verified by `kivl watch`,
# then one procedure body is edited ROUNDS times; each verification's time is the one `kivl
# watch` reports on stderr ("N of M units verified again in S s (C s of CPU time)", measured
# inside the process, so process start-up is not counted). Prints the full time, each
# re-verification's time and the median ratios; the target of issue 20 is at most 10 %. On a
# loaded machine compare the CPU times: the wall times then mostly measure waiting.
#
# MODE `houdini`: each loop also has four `{:candidate}` invariants (two of them false) and
# `kivl watch --houdini` verifies the file as one unit (Houdini's fixpoint is the whole
# program's); a re-verification then starts from the refutations of the unchanged procedures
# (the warm start), so it does fewer checks but still checks every procedure.
# MODE `kernels`: a file of 10 kernels with loops, verified with invariant inference, one unit
# per kernel; one kernel's body is edited, and only that kernel is verified again.
#
#   scripts/incremental-bench.sh [KIVL] [ROUNDS] [MODE]   (default: target/release/kivl, 5, plain)
set -euo pipefail
KIVL=${1:-target/release/kivl}
ROUNDS=${2:-5}
MODE=${3:-plain}
case "$MODE" in
  plain) flags=() ;;
  houdini) flags=(--houdini) ;;
  kernels) flags=(--local-size 16 --num-groups 2) ;;
  *) echo "MODE: plain, houdini or kernels" >&2; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
file=$dir/fifty.bpl
[ "$MODE" = kernels ] && file=$dir/ten.kbpl

# Procedure i: a loop with invariants and a postcondition, and a call of procedure i-1's
# contract, so that every verification does some solver work.
generate() { # $1: the body of procedure 25's update of t
  for i in $(seq 1 50); do
    step="t := t + 3;"
    [ "$i" = 25 ] && step=$1
    cat <<EOF
procedure P$i(n: int) returns (s: int, t: int)
  requires n >= 0;
  ensures t == 3 * n && s >= n;
{
  var k: int;
  s := 0; t := 0; k := 0;
  while (k < n)
    invariant 0 <= k && k <= n;
    invariant s >= k && t == 3 * k;
$( [ "$MODE" = houdini ] && printf '    invariant {:candidate} %s;\n' 's >= 0' 't <= 3 * n' 'k == n' "s < k + $i" )
  {
    s := s + k + 1;
    $step
    k := k + 1;
  }
$( [ "$i" -gt 1 ] && echo "  call s, t := P$((i - 1))(n);" )
  assert t == 3 * n;
}

EOF
  done
}

# Kernel i: a triangular loop writing its own chunk of A_i, and a strided loop over B_i; the
# inferred candidates make Houdini do the work. $1: kernel 5's first write.
generate_kernels() {
  for i in $(seq 1 10); do
    write="A$i[local_id_x * 16 + j] := j;"
    [ "$i" = 5 ] && write=$1
    cat <<EOF
var {:group_shared} A$i: [int]int;
var {:group_shared} B$i: [int]int;

procedure {:kernel} K$i(n: int)
{
  var j: int;
  var k: int;
  j := 0;
  while (j < local_id_x)
  {
    $write
    j := j + 1;
  }
  k := 0;
  while (k < n)
  {
    B$i[k * group_size_x + local_id_x] := A$i[local_id_x * 16];
    k := k + 1;
  }
}

EOF
  done
}

# The file with one of two versions of the edited line ($1: 0 or 1).
version() {
  if [ "$MODE" = kernels ]; then
    if [ "$1" = 1 ]; then generate_kernels "A5[local_id_x * 16 + j] := j + 1;"; else generate_kernels "A5[local_id_x * 16 + j] := j;"; fi
  elif [ "$1" = 1 ]; then generate "t := 3 + t;"; else generate "t := t + 3;"; fi
}

version 0 >"$file"
"$KIVL" watch --jobs 1 --poll-ms 20 "${flags[@]}" "$file" >"$dir/out" 2>"$dir/err" &
pid=$!

# The N-th timing line of `kivl watch` (waiting for it).
timing_line() {
  for _ in $(seq 1 6000); do
    line=$(grep 'units verified again' "$dir/err" | sed -n "${1}p")
    if [ -n "$line" ]; then
      echo "$line"
      return
    fi
    sleep 0.05
  done
  echo "no timing line $1" >&2
  exit 1
}
wall() { echo "$1" | sed -E 's/.* in ([0-9.]+) s .*/\1/'; }
cpu() { echo "$1" | sed -E 's/.*\(([0-9.]+) s of CPU time\)$/\1/'; }
units() { echo "$1" | sed -E 's/.*: ([0-9]+ of [0-9]+ units).*/\1/'; }
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", 100 * a / b }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

first=$(timing_line 1)
full_wall=$(wall "$first")
full_cpu=$(cpu "$first")
echo "full verification: $full_wall s wall, $full_cpu s CPU ($(units "$first"))"
walls=()
cpus=()
for r in $(seq 1 "$ROUNDS"); do
  version $((r % 2)) >"$file.new"
  mv "$file.new" "$file"
  line=$(timing_line $((r + 1)))
  w=$(percent "$(wall "$line")" "$full_wall")
  c=$(percent "$(cpu "$line")" "$full_cpu")
  walls+=("$w")
  cpus+=("$c")
  echo "edit $r: $(wall "$line") s wall ($w %), $(cpu "$line") s CPU ($c %), $(units "$line")"
done
echo "median re-verification: $(median "${walls[@]}") % of the full wall time, $(median "${cpus[@]}") % of its CPU time (target: at most 10 %)"
grep -v 'units verified again' "$dir/err" >&2 || true
