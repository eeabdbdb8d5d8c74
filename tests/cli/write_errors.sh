#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every command reports a failing standard output (a full disk, a closed descriptor) with
# the OS reason and exits 2; it used to exit 0 with nothing said. A closed standard output
# never lets output land in another file.
# Usage: bash write_errors.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EXAMPLES=$2
VALID=$EXAMPLES/01_valid_trace10_forward.jsonl
REJECTED=$EXAMPLES/04_span_end_unknown.jsonl
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

commands=(
  "check $VALID"
  "check --all $VALID"
  "check --json $VALID"
  "check --all $REJECTED"
  "check --json $REJECTED"
  "summary $VALID"
  "normalize $VALID -o -"
  "--help"
  "--version"
)
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086
  if [ -w /dev/full ]; then
    "$CT" $c >/dev/full 2>"$TMP/err"
    rc=$?
    [ $rc -eq 2 ] || fail "'$c' > /dev/full: exit $rc, expected 2"
    grep -q '^error: write standard output: No space left on device$' "$TMP/err" || fail "'$c' > /dev/full: '$(cat "$TMP/err")'"
  fi
  # shellcheck disable=SC2086
  "$CT" $c >&- 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "'$c' >&-: exit $rc, expected 2"
  grep -q '^error: write standard output: Bad file descriptor$' "$TMP/err" || fail "'$c' >&-: '$(cat "$TMP/err")'"
done

# A rejected plain check writes nothing to standard output: its exit code stays 1.
"$CT" check "$REJECTED" >/dev/full 2>/dev/null
[ $? -eq 1 ] || fail "rejected check > /dev/full: exit code changed"

# With standard output closed, the output file is still exactly the normalized trace
# (a descriptor opened for it must not become "standard output").
"$CT" normalize "$VALID" -o "$TMP/out.jsonl" >&- 2>"$TMP/err" || fail "normalize -o FILE >&-: exit $? ($(cat "$TMP/err"))"
cmp -s "$TMP/out.jsonl" "$EXAMPLES/01_valid_trace10_forward.normalized" || fail "normalize -o FILE >&-: output differs"
# Standard input closed: '-' is an unreadable input, exit 2, with the reason.
"$CT" check - <&- >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "check - <&-: exit $rc, expected 2"
grep -q '^error: read standard input: Bad file descriptor$' "$TMP/err" || fail "check - <&-: '$(cat "$TMP/err")'"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
