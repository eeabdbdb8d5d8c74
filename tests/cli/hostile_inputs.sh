#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace on inputs that are not plain regular files, or do not hold still, and on
# hostile content: FIFOs with and without a writer, pipes, procfs, devices, a file that
# grows while it is read, symlink loops, compressed traces, NUL bytes, overlong UTF-8 and
# deep nesting. Never a hang, never a wrong verdict.
# Usage: bash hostile_inputs.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EXAMPLES=$2
VALID=$EXAMPLES/01_valid_trace10_forward.jsonl
TMP=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  rm -rf "$TMP"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect_valid() { # label, then the command
  local label=$1
  shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ $rc -eq 0 ] || fail "$label: exit $rc ($(head -c 300 "$TMP/err"))"
  grep -q ': valid (candle-graph/trace/10, 16 records)$' "$TMP/out" || fail "$label: output '$(cat "$TMP/out")'"
}

# Pipes and FIFOs with a writer are read to their end (they used to read as empty and be
# rejected as "missing a meta event").
expect_valid "<(cat FILE)" "$CT" check <(cat "$VALID")
expect_valid "cat FILE | check /dev/stdin" bash -c 'cat "$2" | "$1" check /dev/stdin' _ "$CT" "$VALID"
expect_valid "check - < FILE" bash -c '"$1" check - <"$2"' _ "$CT" "$VALID"
expect_valid "cat FILE | check -" bash -c 'cat "$2" | "$1" check -' _ "$CT" "$VALID"
mkfifo "$TMP/fifo"
# Every writer of a FIFO is under a timeout: one whose reader died would block in open() for
# good and hold the whole test until ctest's timeout.
(sleep 0.3; timeout 30 bash -c 'cat "$1" >"$2"' _ "$VALID" "$TMP/fifo") &
expect_valid "FIFO with a writer" timeout 20 "$CT" check "$TMP/fifo"
wait
"$CT" summary <(cat "$VALID") >"$TMP/sum" 2>"$TMP/err" || fail "summary <(cat FILE): exit $? ($(cat "$TMP/err"))"
"$CT" normalize <(cat "$VALID") -o - >"$TMP/norm" 2>/dev/null || fail "normalize <(cat FILE): exit $?"
cmp -s "$TMP/norm" "$EXAMPLES/01_valid_trace10_forward.normalized" || fail "normalize <(cat FILE): output differs"

# A FIFO with no writer: candle-trace says it waits (it used to hang silently in open()),
# reads the trace once a writer comes, and a signal ends the wait.
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
timeout 30 "$CT" check "$TMP/fifo" >"$TMP/out" 2>"$TMP/err" &
checker=$!
pids+=("$checker")
for _ in $(seq 50); do grep -q 'waiting for data' "$TMP/err" && break; sleep 0.1; done
grep -q "^note: waiting for data from $TMP/fifo" "$TMP/err" || fail "FIFO without writer: no waiting note ('$(cat "$TMP/err")')"
timeout 30 bash -c 'cat "$1" >"$2"' _ "$VALID" "$TMP/fifo"
wait "$checker"
rc=$?
[ $rc -eq 0 ] || fail "FIFO, writer after 2 s: exit $rc"
grep -q ': valid (' "$TMP/out" || fail "FIFO, writer after 2 s: '$(cat "$TMP/out")'"
rm -f "$TMP/fifo" && mkfifo "$TMP/fifo"
"$CT" check "$TMP/fifo" >/dev/null 2>"$TMP/err" &
checker=$!
pids+=("$checker")
sleep 0.5
start=$(date +%s%N)
kill -TERM "$checker"
wait "$checker"
rc=$?
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ $rc -eq 143 ] || fail "FIFO without writer, SIGTERM: exit $rc, expected 143"
[ $elapsed_ms -lt 2000 ] || fail "FIFO without writer: SIGTERM took $elapsed_ms ms"

# procfs reports a size of 0 but has content: it is read (and is no trace).
"$CT" check /proc/self/status >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || fail "/proc/self/status: exit $rc, expected 1"
grep -q '^error: parse trace JSONL line 1 from /proc/self/status' "$TMP/err" || fail "/proc/self/status: '$(head -n 1 "$TMP/err")'"

# Devices may never end (/dev/zero, /dev/urandom): refused at once, exit 2.
for dev in /dev/zero /dev/urandom /dev/null; do
  [ -e "$dev" ] || continue
  timeout 10 "$CT" check "$dev" >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "$dev: exit $rc, expected 2"
  grep -q "^error: open trace file $dev: it is a device" "$TMP/err" || fail "$dev: '$(cat "$TMP/err")'"
done
timeout 10 "$CT" check - </dev/zero >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "check - < /dev/zero: not refused"

# A pipe that never ends a line (cat /dev/zero |) stops at the stream line limit, exit 2.
# ASan (TI_SANITIZED) makes the byte-by-byte scan several times slower: a longer bound there,
# still far from "hangs".
pipe_limit=60
[ -n "${TI_SANITIZED:-}" ] && pipe_limit=600
timeout "$pipe_limit" bash -c 'head -c 300000000 /dev/zero | "$1" check -' _ "$CT" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "a 300 MB line from a pipe: exit $rc, expected 2"
grep -q 'line 1 is longer than 268435456 bytes' "$TMP/err" || fail "a 300 MB line from a pipe: '$(cat "$TMP/err")'"

# A 200 MB line (a span name) is just a long line: valid from a file and from a pipe.
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"'; head -c 200000000 /dev/zero | tr '\0' n
  printf '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n'
  echo '{"kind":"terminal","outcome":"complete","timestamp_ns":1000}'; } >"$TMP/long-line.jsonl"
"$CT" check "$TMP/long-line.jsonl" >"$TMP/out" 2>"$TMP/err" || fail "200 MB line: exit $? ($(head -c 300 "$TMP/err"))"
grep -q ': valid (candle-graph/trace/10, 4 records)$' "$TMP/out" || fail "200 MB line: '$(cat "$TMP/out")'"
"$CT" check - <"$TMP/long-line.jsonl" >/dev/null 2>&1 || fail "200 MB line from a redirected file: exit $?"
cat "$TMP/long-line.jsonl" | "$CT" check - >/dev/null 2>"$TMP/err" || fail "200 MB line from a pipe: exit $? ($(head -c 300 "$TMP/err"))"
rm -f "$TMP/long-line.jsonl"

# A file that grows while it is read: "changed while it was read", exit 2, and none of the
# errors a cut file seems to have (it used to report false span_end errors).
# A trace still being written: span_starts so far, its span_ends still coming.
awk 'NR == 1 { print; exit } END { for (i = 0; i < 400000; i++)
  printf "{\"kind\":\"span_start\",\"id\":\"s%d\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n", i }' \
  "$VALID" >"$TMP/growing.jsonl"
(i=0; while :; do printf '{"kind":"span_end","id":"s%d","duration_ns":1}\n' $i >>"$TMP/growing.jsonl"; i=$((i + 1)); done) &
appender=$!
pids+=("$appender")
size_before=$(stat -c %s "$TMP/growing.jsonl")
for _ in $(seq 100); do [ "$(stat -c %s "$TMP/growing.jsonl")" -gt "$size_before" ] && break; sleep 0.01; done
"$CT" check --all "$TMP/growing.jsonl" >"$TMP/out" 2>"$TMP/err"
rc=$?
kill "$appender" 2>/dev/null
wait "$appender" 2>/dev/null
[ $rc -eq 2 ] || fail "growing file: exit $rc, expected 2"
grep -q "^error: read trace file $TMP/growing.jsonl: the file changed while it was read" "$TMP/err" \
  || fail "growing file: '$(head -c 300 "$TMP/err")'"
[ ! -s "$TMP/out" ] || fail "growing file: a report was printed for it"

# A symlink loop says what it is.
ln -s "$TMP/loop-b" "$TMP/loop-a" && ln -s "$TMP/loop-a" "$TMP/loop-b"
"$CT" check "$TMP/loop-a" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "symlink loop: not exit 2"
grep -q 'symbolic link loop' "$TMP/err" || fail "symlink loop: '$(cat "$TMP/err")'"

# Compressed traces: upstream's verdict (line 1 is not UTF-8), then a hint.
gzip -c "$VALID" >"$TMP/trace.jsonl.gz"
"$CT" check "$TMP/trace.jsonl.gz" >/dev/null 2>"$TMP/err"
[ $? -eq 1 ] || fail "gzip: not exit 1"
[ "$(head -n 1 "$TMP/err")" = "error: read trace JSONL line 1 from $TMP/trace.jsonl.gz: stream did not contain valid UTF-8" ] \
  || fail "gzip: first line '$(head -n 1 "$TMP/err")'"
grep -q "^note: $TMP/trace.jsonl.gz is gzip-compressed" "$TMP/err" || fail "gzip: no hint ('$(cat "$TMP/err")')"
printf '\x28\xb5\x2f\xfd\x00\x58\x00\x00' >"$TMP/trace.jsonl.zst"
"$CT" check "$TMP/trace.jsonl.zst" >/dev/null 2>"$TMP/err"
grep -q "is zstd-compressed" "$TMP/err" || fail "zstd: no hint ('$(cat "$TMP/err")')"

# Hostile content: one bad line each (line 2), exit 1, the same from a pipe.
meta=$(head -n 1 "$VALID")
rest=$(tail -n +2 "$VALID")
check_bad_line() { # label, expected rule, the bad line (via file "$TMP/bad")
  local label=$1 rule=$2
  { printf '%s\n' "$meta"; cat "$TMP/bad"; printf '\n%s\n' "$rest"; } >"$TMP/hostile.jsonl"
  "$CT" check --all "$TMP/hostile.jsonl" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  [ $rc -eq 1 ] || fail "$label: exit $rc, expected 1"
  grep -q "^$TMP/hostile.jsonl:2\(:[0-9]*\)\?: error\[$rule\]: " "$TMP/out" || fail "$label: no $rule on line 2"
  [ "$(grep -c ': error\[' "$TMP/out")" -eq 1 ] || fail "$label: $(grep -c ': error\[' "$TMP/out") errors, expected 1"
  cat "$TMP/hostile.jsonl" | "$CT" check --all - >"$TMP/piped" 2>/dev/null
  diff <(sed "s|^$TMP/hostile.jsonl:|F:|; s|from $TMP/hostile.jsonl:|from F:|" "$TMP/out") \
       <(sed 's|^-:|F:|; s|from -:|from F:|' "$TMP/piped") >/dev/null || fail "$label: a pipe reads it differently"
}
printf '{"kind":"span_end","id":"a\0b"}' >"$TMP/bad"
check_bad_line "NUL byte" E-LINE-PARSE
printf '{"kind":"span_end","id":"\xc0\xaf"}' >"$TMP/bad"
check_bad_line "overlong UTF-8" E-LINE-READ
head -c 1000000 /dev/zero | tr '\0' '[' >"$TMP/bad"
check_bad_line "million-deep nesting" E-LINE-PARSE
{ printf '{"kind":"span_end","id":"a","duration_ns":'; head -c 100000 /dev/zero | tr '\0' '7'; printf '}'; } >"$TMP/bad"
check_bad_line "100k-digit integer" E-LINE-PARSE

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
