#!/usr/bin/env bash
# Re-runs Boogie 2.4.1 on every program of tests/boogie/ and compares Boogie's verdict with the
# expectation written in the file's header (format: tests/boogie/README.md). Prints one table row
# per file and exits 1 if any file disagrees, 2 if Boogie or z3 is missing.
#
#   scripts/validate-boogie-tests.sh [DIR]        (default DIR: tests/boogie)
#
# Environment: BOOGIE (default `boogie`), Z3 (default /usr/bin/z3), TIMEOUT per file (default 120 s).
#
# Boogie 2.4.1 passes the option `model_compress` to z3 on its standard input, which z3 4.8.12
# rejects; the script therefore runs z3 through a wrapper that drops that line. It also renames
# `real_pow`, Boogie's name for `**`, to z3's `^` (z3 4.8.12 does not know `real_pow`).
# Boogie's Houdini mode (/contractInfer) prints the same error once per Houdini round; an error
# (its first line together with its "Related location" line) is counted once.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/tests/boogie}"
boogie="${BOOGIE:-boogie}"
z3="${Z3:-/usr/bin/z3}"
limit="${TIMEOUT:-120}"

command -v "$boogie" >/dev/null || { echo "validate-boogie-tests: '$boogie' not found" >&2; exit 2; }
[ -x "$z3" ] || { echo "validate-boogie-tests: z3 not found at $z3" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
wrap="$tmp/z3wrap.sh"
printf '#!/bin/sh\ngrep -v --line-buffered model_compress | sed -u "s/real_pow/^/g" | "%s" "$@"\n' "$z3" >"$wrap"
chmod +x "$wrap"

# Prints the sorted, comma-separated list of numbers in "$1" (spaces ignored).
normalise_lines() {
  echo "$1" | tr -d ' ' | tr ',' '\n' | grep -E '^[0-9]+$' | sort -n | paste -sd, -
}

total=0
bad=0
printf '%-34s %-12s %-12s %-22s %-22s %s\n' FILE EXPECT ACTUAL EXPECTED-LINES ACTUAL-LINES STATUS
for f in "$dir"/*.bpl; do
  [ -e "$f" ] || continue
  total=$((total + 1))
  name="$(basename "$f")"
  # The header (tests/README.md): `//pass` is Boogie's `verified`, `//xfail: errors N` its `errors N`.
  expect="$(sed -n '1s|^//pass *$|verified|p; 1s|^//xfail: *||p' "$f" | sed 's/ *$//')"
  want_lines="$(normalise_lines "$(sed -n '1,5s|^//error-lines:||p' "$f")")"
  flags=()
  if sed -n '1,5p' "$f" | grep -q '^//args:.*--houdini'; then flags+=("/contractInfer"); fi
  depth="$(sed -n '1,5s|^//args:.*--inline-depth \([0-9]*\).*|\1|p' "$f")"
  if [ -n "$depth" ]; then flags+=("/inlineDepth:$depth"); fi

  out="$(cd "$(dirname "$f")" && timeout "$limit" "$boogie" "/z3exe:$wrap" "${flags[@]}" "$name" 2>&1)"
  rc=$?

  if [ $rc -eq 124 ]; then
    actual="timeout"
    got_lines=""
  elif echo "$out" | grep -qE '\): error|parse errors detected|resolution errors detected|type checking errors detected'; then
    actual="invalid"
    got_lines=""
  elif ! echo "$out" | grep -q 'Boogie program verifier finished with'; then
    actual="inconclusive"
    got_lines=""
  else
    # One key per distinct error: its header line plus the related-location line, if any.
    keys="$(echo "$out" | awk -v n="$name" '
      function flush() { if (key != "") print key; key = "" }
      index($0, n "(") == 1 && $0 ~ /\): Error/ { flush(); key = $0; next }
      index($0, n "(") == 1 && $0 ~ /Related location/ { if (key != "") key = key " | " $0; next }
      { flush() }
      END { flush() }' | sort -u)"
    if [ -z "$keys" ]; then
      if echo "$out" | grep -qE 'finished with [0-9]+ verified, 0 errors$'; then
        actual="verified"
      else
        actual="inconclusive"
      fi
      got_lines=""
    else
      count="$(echo "$keys" | wc -l | tr -d ' ')"
      actual="errors $count"
      got_lines="$(normalise_lines "$(echo "$keys" | sed -E "s|^[^(]*\(([0-9]+),.*|\1|" | paste -sd, -)")"
    fi
  fi

  status="ok"
  if [ "$actual" != "$expect" ] || [ "$got_lines" != "$want_lines" ]; then
    status="MISMATCH"
    bad=$((bad + 1))
  fi
  printf '%-34s %-12s %-12s %-22s %-22s %s\n' "$name" "$expect" "$actual" "${want_lines:--}" "${got_lines:--}" "$status"
done

echo "validated $total files: $((total - bad)) agree with Boogie, $bad mismatches"
[ "$bad" -eq 0 ] && [ "$total" -gt 0 ]
