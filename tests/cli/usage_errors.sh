#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace usage errors exit 2 with an "error: " line; --help and --version exit 0.
# Usage: bash usage_errors.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EX=$2/01_valid_trace10_forward.jsonl
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_usage() {
  "$CT" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ $rc -eq 2 ] || fail "'$*': exit $rc, expected 2"
  head -n 1 "$TMP/err" | grep -q '^error: ..*' || fail "'$*': no error line on stderr"
  [ ! -s "$TMP/out" ] || fail "'$*': wrote to stdout"
}

expect_usage
expect_usage frobnicate "$EX"
expect_usage --frobnicate
expect_usage check
expect_usage check --frobnicate "$EX"
expect_usage check "$EX" "$EX"
expect_usage check -o "$TMP/x" "$EX"
expect_usage summary
expect_usage summary --all "$EX"
expect_usage normalize "$EX"
expect_usage normalize "$EX" -o
expect_usage normalize -o "$TMP/a" -o "$TMP/b" "$EX"
expect_usage normalize --json "$EX" -o "$TMP/a"
expect_usage check "$TMP/does-not-exist.jsonl"
expect_usage summary "$TMP/does-not-exist.jsonl"
expect_usage check "$TMP"
[ ! -e "$TMP/a" ] && [ ! -e "$TMP/b" ] || fail "a usage error created an output file"

"$CT" check "$TMP/does-not-exist.jsonl" 2>"$TMP/err"
[ "$(cat "$TMP/err")" = "error: open trace file $TMP/does-not-exist.jsonl: No such file or directory" ] \
  || fail "unreadable file message: '$(cat "$TMP/err")'"

for h in --help -h help "check --help" "normalize -h"; do
  # shellcheck disable=SC2086
  "$CT" $h >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ $rc -eq 0 ] || fail "'$h': exit $rc"
  for word in check normalize summary --all --json "-o OUT" --version "Exit codes" "never change the exit code"; do
    grep -qF -- "$word" "$TMP/out" || fail "'$h': help does not mention '$word'"
  done
done

"$CT" --version >"$TMP/out" 2>&1 || fail "--version: exit $?"
grep -Eq '^candle-trace [0-9]+\.[0-9]+\.[0-9]+' "$TMP/out" || fail "--version: '$(cat "$TMP/out")'"

# "--" ends the options, so a file may start with a dash.
cp "$EX" "$TMP/-dash.jsonl"
(cd "$TMP" && "$CT" check -- -dash.jsonl >/dev/null 2>&1) || fail "check -- -dash.jsonl"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
