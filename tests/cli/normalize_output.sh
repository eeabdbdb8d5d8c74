#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace normalize: exact output, refusal of rejected traces and of OUT == FILE, and
# that OUT is never touched when anything fails.
# Usage: bash normalize_output.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EXAMPLES=$2
TMP=$(mktemp -d)
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
no_temp_files() { ! ls -A "$1" | grep -q '\.tmp-'; }
# The f64 members (rms, abs_max, mean, norm) with their values masked.
mask_floats() { sed -E 's/"(rms|abs_max|mean|norm)":-?[0-9][0-9.eE+-]*/"\1":F/g' "$1"; }
# The .expected message of a parse error names the bare file; the tool prints the path it got.
expected_for() { local e; e=$(head -n 1 "$EXAMPLES/$1.expected"); printf '%s' "${e/ from $1.jsonl: / from $2: }"; }

for norm in "$EXAMPLES"/*.normalized; do
  name=$(basename "$norm" .normalized)
  "$CT" normalize "$EXAMPLES/$name.jsonl" -o "$TMP/$name.out" 2>"$TMP/err" || fail "$name: exit $? ($(cat "$TMP/err"))"
  cmp -s "$TMP/$name.out" "$norm" || fail "$name: output differs from $name.normalized"
  "$CT" normalize "$EXAMPLES/$name.jsonl" -o - >"$TMP/$name.stdout" 2>/dev/null || fail "$name -o -: exit $?"
  cmp -s "$TMP/$name.stdout" "$norm" || fail "$name -o -: stdout differs"
  "$CT" normalize "$EXAMPLES/$name.jsonl" --output="$TMP/$name.out2" 2>/dev/null || fail "$name --output=: exit $?"
  cmp -s "$TMP/$name.out2" "$norm" || fail "$name --output=: output differs"
  # The output is accepted and normalizes to itself, except for floats that upstream's
  # inexact conversion reads back as a neighbour (§11.4: example 16 changes two norms).
  "$CT" normalize "$TMP/$name.out" -o "$TMP/$name.again" 2>/dev/null || fail "$name again: exit $?"
  if [ "$name" = "16_float_inexact" ]; then
    cmp -s <(mask_floats "$TMP/$name.again") <(mask_floats "$norm") || fail "$name: normalizing again changed more than floats"
    cmp -s "$TMP/$name.again" "$norm" && fail "$name: normalizing again was expected to move two norms (§11.4)"
  else
    cmp -s "$TMP/$name.again" "$norm" || fail "$name: normalizing the normalized output changed it"
  fi
done
no_temp_files "$TMP" || fail "temporary files left behind after success"

# An existing OUT is replaced and keeps its permissions.
printf 'old\n' >"$TMP/existing.jsonl"
chmod 640 "$TMP/existing.jsonl"
"$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o "$TMP/existing.jsonl" 2>/dev/null || fail "replace existing: exit $?"
cmp -s "$TMP/existing.jsonl" "$EXAMPLES/01_valid_trace10_forward.normalized" || fail "replace existing: content"
[ "$(stat -c %a "$TMP/existing.jsonl")" = "640" ] || fail "replace existing: mode $(stat -c %a "$TMP/existing.jsonl"), expected 640"

# Rejected traces: exit 1, error message first, OUT untouched (existing or not).
for trace in "$EXAMPLES"/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  expected=$(expected_for "$name" "$trace")
  [ "$expected" = "VALID" ] && continue
  printf 'keep me\n' >"$TMP/keep.jsonl"
  "$CT" normalize "$trace" -o "$TMP/keep.jsonl" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ $rc -eq 1 ] || fail "$name normalize: exit $rc, expected 1"
  [ "$(head -n 1 "$TMP/err")" = "error: $expected" ] || fail "$name normalize: first stderr line '$(head -n 1 "$TMP/err")'"
  [ "$(cat "$TMP/keep.jsonl")" = "keep me" ] || fail "$name normalize: existing OUT was modified"
  "$CT" normalize "$trace" -o "$TMP/absent.jsonl" >/dev/null 2>&1
  [ ! -e "$TMP/absent.jsonl" ] || fail "$name normalize: OUT was created for a rejected trace"
  "$CT" normalize "$trace" -o - >"$TMP/stdout" 2>/dev/null
  [ ! -s "$TMP/stdout" ] || fail "$name normalize -o -: wrote output for a rejected trace"
done
no_temp_files "$TMP" || fail "temporary files left behind after refusals"

# OUT == FILE is refused (exit 2) under any spelling, and the file is untouched.
cp "$EXAMPLES/02_valid_trace9_train.jsonl" "$TMP/self.jsonl"
ln -s "$TMP/self.jsonl" "$TMP/link.jsonl"
ln "$TMP/self.jsonl" "$TMP/hard.jsonl"
for out in "$TMP/self.jsonl" "$TMP/./self.jsonl" "$TMP/link.jsonl" "$TMP/hard.jsonl"; do
  "$CT" normalize "$TMP/self.jsonl" -o "$out" >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "OUT == FILE ($out): exit $rc, expected 2"
  grep -q '^error: .*input file' "$TMP/err" || fail "OUT == FILE ($out): message '$(cat "$TMP/err")'"
  cmp -s "$TMP/self.jsonl" "$EXAMPLES/02_valid_trace9_train.jsonl" || fail "OUT == FILE ($out): input modified"
done
(cd "$TMP" && "$CT" normalize self.jsonl -o "$TMP/self.jsonl" >/dev/null 2>&1)
[ $? -eq 2 ] || fail "OUT == FILE (relative input): not refused"

# Unreadable input: exit 2 with the OS reason; OUT untouched.
printf 'keep me\n' >"$TMP/keep.jsonl"
"$CT" normalize "$TMP/missing.jsonl" -o "$TMP/keep.jsonl" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "missing input: exit $rc, expected 2"
[ "$(head -n 1 "$TMP/err")" = "error: open trace file $TMP/missing.jsonl: No such file or directory" ] \
  || fail "missing input: message '$(head -n 1 "$TMP/err")'"
[ "$(cat "$TMP/keep.jsonl")" = "keep me" ] || fail "missing input: OUT modified"

# OUT in a directory that does not exist, or OUT being a directory: exit 2, says where.
"$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o "$TMP/no/such/dir/out.jsonl" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "missing OUT directory: exit $rc, expected 2"
grep -qF "$TMP/no/such/dir" "$TMP/err" || fail "missing OUT directory: message '$(cat "$TMP/err")'"
mkdir "$TMP/adir"
"$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o "$TMP/adir" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "OUT is a directory: not refused"
no_temp_files "$TMP/adir" || fail "OUT is a directory: temporary file left"

# Read-only OUT directory (only meaningful when not running as root).
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$TMP/ro" && printf 'keep me\n' >"$TMP/ro/out.jsonl" && chmod 555 "$TMP/ro"
  "$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o "$TMP/ro/out.jsonl" >/dev/null 2>"$TMP/err"
  [ $? -eq 2 ] || fail "read-only OUT directory: not exit 2"
  [ "$(cat "$TMP/ro/out.jsonl")" = "keep me" ] || fail "read-only OUT directory: OUT modified"
  chmod 755 "$TMP/ro"
fi

# A device is written to, not replaced.
"$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o /dev/null 2>"$TMP/err" || fail "-o /dev/null: exit $? ($(cat "$TMP/err"))"
[ -c /dev/null ] || fail "/dev/null is no longer a character device"

# A failing standard output is reported (exit 2).
if [ -w /dev/full ]; then
  "$CT" normalize "$EXAMPLES/01_valid_trace10_forward.jsonl" -o - >/dev/full 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "-o - to /dev/full: exit $rc, expected 2"
  grep -q '^error: write standard output' "$TMP/err" || fail "-o - to /dev/full: message '$(cat "$TMP/err")'"
fi

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
