#!/usr/bin/env bash
# Re-runs every example of docs/kbpl.md and compares kivl's exit status with the verdict the
# reference states. Usage: bash docs/examples/check.sh [path/to/kivl]   (default: target/release/kivl)
set -u
# The binary's path is resolved before changing to the examples' folder (a relative path given
# from the project root must keep working there).
KIVL=$(realpath "${1:-$(dirname "$0")/../../target/release/kivl}")
cd "$(dirname "$0")"
fail=0
# expected-exit-status  arguments...
while read -r want args; do
  [ -z "$want" ] && continue
  # shellcheck disable=SC2086
  "$KIVL" $args >/dev/null 2>&1
  got=$?
  if [ "$got" = "$want" ]; then echo "ok    $want  kivl $args"; else echo "FAIL  want $want got $got  kivl $args"; fail=1; fi
done <<'LIST'
0 verify --local-size 64 --num-groups 8 first.kbpl
0 verify --local-size 64 --num-groups 8 --termination first.kbpl
1 verify --local-size 64 --num-groups 8 first_race.kbpl
1 verify first.kbpl
0 verify first_1d.kbpl
0 verify --termination first_1d.kbpl
1 run --local-size 8 first_race.kbpl
0 run --local-size 8 first.kbpl
0 verify contracts.kbpl
0 verify decls.kbpl
0 verify stmts.kbpl
0 verify other.kbpl
0 verify --local-size 32 binv.kbpl
1 verify --local-size 32 binv_bad.kbpl
1 verify --local-size 32 binv_none.kbpl
1 verify --local-size 32 binv_self.kbpl
0 verify --local-size 32 benign.kbpl
1 verify --local-size 32 --no-benign-tolerance benign.kbpl
0 verify --abstraction equality benign_rw.kbpl
1 verify --abstraction equality --no-benign-tolerance benign_rw.kbpl
1 verify --abstraction equality benign_rw_bad.kbpl
0 verify --local-size 16 --num-groups 2 atomic_taken_loop.kbpl
1 verify --local-size 16 --num-groups 2 atomic_taken_loop_race.kbpl
0 verify --local-size 8 --num-groups 4 grid_barrier.kbpl
1 verify --local-size 8 --num-groups 4 grid_barrier_race.kbpl
2 run --local-size 8 --num-groups 4 grid_barrier.kbpl
2 run --local-size 4 --num-groups 2 atomic_taken_loop.kbpl
1 verify --local-size 32 div.kbpl
0 verify loop.kbpl
0 verify --termination loop.kbpl
1 verify --no-infer loop_infer.kbpl
0 verify loop_infer.kbpl
0 verify --houdini loop_infer.kbpl
0 verify --houdini --termination loop_infer.kbpl
0 verify --houdini --print-assignment houdini.bpl
1 verify houdini.bpl
0 verify nonterm.kbpl
1 verify --termination nonterm.kbpl
1 verify intbv.kbpl
0 verify --termination le_int.kbpl
1 verify --termination le_bv.kbpl
2 check bad_syntax.kbpl
2 check bad_type.kbpl
2 check bad_gpu.kbpl
0 check poly.kbpl
2 verify irred.kbpl
2 check wide.kbpl
2 verify nosuch.kbpl
2 verify contra.kbpl
0 run --local-size 4 --runs 3 --inputs inputs.json first.kbpl
1 verify --local-size 8 two_kernels.kbpl
0 verify --local-size 16 --num-groups 4 atomics.kbpl
1 verify --stop-at-first-error first_error.bpl
1 verify --stop-at-first-error --jobs 1 first_error.bpl
1 verify --local-size 16 --num-groups 4 atomics_race.kbpl
0 run --local-size 16 --num-groups 4 atomics.kbpl
1 run --local-size 16 --num-groups 4 atomics_race.kbpl
LIST
exit $fail
