#!/usr/bin/env bash
# Compares kivl's front end (parse, resolve, type-check) with Boogie 2.4.1's on Boogie's own
# front-end tests: for every FILE, `boogie /noVerify FILE` rejects it if it prints
# "N parse errors detected", "N name resolution errors detected" or "N type checking errors
# detected", and accepts it if it finishes; `kivl check FILE` accepts with exit 0 and rejects
# with exit 2. A file that kivl rejects with an `unsupported` diagnostic (polymorphism, ...) is
# listed apart and not counted as a disagreement.
#
#   scripts/boogie-frontend-agreement.sh [DIR...]
#       (default: the test0 and test1 directories of Boogie's test suite)
#
# Uses target/release/kivl if it is built, has `check`, and is newer than the sources of ivl/;
# otherwise builds and uses the example ivl/examples/check.rs (same exit codes). Environment:
# BOOGIE (default `boogie`), CORPUS (default /work/corpus/boogie/Test), CHECKER=kivl|example to
# force a choice.
# Prints one line per file (BOOGIE KIVL STATUS FILE), the disagreements, and a summary.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
boogie="${BOOGIE:-boogie}"
corpus="${CORPUS:-/work/corpus/boogie/Test}"
if [ $# -gt 0 ]; then dirs=("$@"); else dirs=("$corpus/test0" "$corpus/test1"); fi

command -v "$boogie" >/dev/null || { echo "boogie-frontend-agreement: '$boogie' not found" >&2; exit 2; }

kivl="$root/target/release/kivl"
fresh() { [ -x "$kivl" ] && "$kivl" check --help >/dev/null 2>&1 && [ -z "$(find "$root/ivl/src" -newer "$kivl" -print -quit)" ]; }
if [ "${CHECKER:-}" = kivl ] || { [ "${CHECKER:-}" != example ] && fresh; }; then
  checker=("$kivl" check --format json)
else
  cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p ivl --example check || exit 2
  checker=("$root/target/release/examples/check" --format json)
fi

agree=0; disagree=0; unsupported=0; crashed=0; total=0
disagreements=(); unsupported_files=()
printf '%-8s %-12s %-12s %s\n' BOOGIE KIVL STATUS FILE
for dir in "${dirs[@]}"; do
  for f in "$dir"/*.bpl; do
    [ -e "$f" ] || continue
    total=$((total + 1))
    rel="$(basename "$dir")/$(basename "$f")"

    bout="$(cd "$dir" && timeout 60 "$boogie" /noVerify "$(basename "$f")" 2>&1)"
    if echo "$bout" | grep -qE '^[0-9]+ (parse|name resolution|type checking) errors? detected'; then
      b=reject
    elif echo "$bout" | grep -q 'Boogie program verifier finished'; then
      b=accept
    else
      b=crash
    fi

    kout="$(timeout 60 "${checker[@]}" "$f" 2>&1)"
    rc=$?
    case $rc in
      0) k=accept ;;
      2) if echo "$kout" | grep -qE '"kind": ?"unsupported"'; then k=unsupported; else k=reject; fi ;;
      *) k="exit-$rc" ;;
    esac

    if [ "$b" = crash ]; then
      status=boogie-crash; crashed=$((crashed + 1))
    elif [ "$k" = unsupported ]; then
      status=unsupported; unsupported=$((unsupported + 1)); unsupported_files+=("$rel (boogie: $b)")
    elif [ "$b" = "$k" ]; then
      status=agree; agree=$((agree + 1))
    else
      status=DISAGREE; disagree=$((disagree + 1)); disagreements+=("$rel: boogie $b, kivl $k")
    fi
    printf '%-8s %-12s %-12s %s\n' "$b" "$k" "$status" "$rel"
  done
done

echo
if [ ${#disagreements[@]} -gt 0 ]; then
  echo "Disagreements:"
  printf '  %s\n' "${disagreements[@]}"
fi
if [ ${#unsupported_files[@]} -gt 0 ]; then
  echo "Rejected by kivl as unsupported:"
  printf '  %s\n' "${unsupported_files[@]}"
fi
echo "files: $total  agree: $agree  disagree: $disagree  unsupported: $unsupported  boogie-crash: $crashed"
[ "$disagree" -eq 0 ]
