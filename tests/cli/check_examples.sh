#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace check/summary against every spec example: exit code and the first stderr
# line ("error: " + the .expected message) for rejected ones.
# Usage: bash check_examples.sh <candle-trace> <examples-dir>
set -u
PYTHON=${TI_PYTHON:-}
if [ -z "$PYTHON" ]; then
  echo "SKIP: python3 was not found when the build was configured; this test needs it to check JSON output"
  exit 77
fi
CT=$(realpath "$1")
EXAMPLES=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The .expected message of a parse error names the bare file, as the reference printed it
# when run inside the examples folder; a tool given another path prints that path.
expected_for() { local e; e=$(head -n 1 "$EXAMPLES/$1.expected"); printf '%s' "${e/ from $1.jsonl: / from $2: }"; }

count=0
for trace in "$EXAMPLES"/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  expected=$(expected_for "$name" "$trace")
  count=$((count + 1))
  # Run on the bare name inside the folder, the message is the .expected line byte for byte.
  (cd "$EXAMPLES" && "$CT" check "$name.jsonl") >/dev/null 2>"$TMP/err"
  if [ "$(head -n 1 "$EXAMPLES/$name.expected")" != "VALID" ]; then
    cmp -s <(head -n 1 "$TMP/err") <(printf 'error: %s\n' "$(head -n 1 "$EXAMPLES/$name.expected")") \
      || fail "$name check (bare name): first stderr line '$(head -n 1 "$TMP/err")'"
  fi
  for mode in "" "--all" "--json"; do
    "$CT" check $mode "$trace" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    first=$(head -n 1 "$TMP/err")
    if [ "$expected" = "VALID" ]; then
      [ $rc -eq 0 ] || fail "$name check $mode: exit $rc, expected 0 ($(cat "$TMP/err"))"
      [ ! -s "$TMP/err" ] || fail "$name check $mode: unexpected stderr: $first"
    else
      [ $rc -eq 1 ] || fail "$name check $mode: exit $rc, expected 1"
      [ "$first" = "error: $expected" ] || fail "$name check $mode: first stderr line '$first', expected 'error: $expected'"
    fi
  done

  # --all: one problem per line in FILE[:LINE[:COL]]: severity[RULE]: message form, then the
  # trace summary line and the verdict line.
  "$CT" check --all "$trace" >"$TMP/all" 2>/dev/null
  lines=$(wc -l <"$TMP/all")
  body=$((lines - 2))
  summary=$(tail -n 2 "$TMP/all" | head -n 1)
  case "$summary" in "$trace: summary: "[0-9]*" op"*", "[0-9]*" span"*"logical peak "*) ;; *) fail "$name check --all: trace summary line '$summary'" ;; esac
  if [ "$body" -gt 0 ]; then
    bad=$(head -n "$body" "$TMP/all" | grep -Ecv "^$(printf '%s' "$trace" | sed 's/[.[\*^$/]/\\&/g')(:[0-9]+(:[0-9]+)?)?: (error|warning)\[[A-Z0-9-]+\]: .+")
    [ "$bad" -eq 0 ] || fail "$name check --all: $bad malformed problem lines"
  fi
  last=$(tail -n 1 "$TMP/all")
  if [ "$expected" = "VALID" ]; then
    case "$last" in *"verdict: valid") ;; *) fail "$name check --all: summary line '$last'" ;; esac
  else
    case "$last" in *"verdict: rejected") ;; *) fail "$name check --all: summary line '$last'" ;; esac
    grep -qF "error[" "$TMP/all" || fail "$name check --all: the load error is not listed"
    grep -qF "$expected" "$TMP/all" || fail "$name check --all: the strict message is not listed"
  fi

  # summary refuses rejected traces with the same message, prints JSON for valid ones.
  "$CT" summary "$trace" >"$TMP/sum" 2>"$TMP/err"
  rc=$?
  if [ "$expected" = "VALID" ]; then
    [ $rc -eq 0 ] || fail "$name summary: exit $rc ($(cat "$TMP/err"))"
    "$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert set(d) == {"summary", "memory"}, d.keys()' "$TMP/sum" \
      || fail "$name summary: output is not the expected JSON object"
  else
    [ $rc -eq 1 ] || fail "$name summary: exit $rc, expected 1"
    [ "$(head -n 1 "$TMP/err")" = "error: $expected" ] || fail "$name summary: first stderr line '$(head -n 1 "$TMP/err")'"
    [ ! -s "$TMP/sum" ] || fail "$name summary: wrote output for a rejected trace"
  fi
done
[ $count -ge 30 ] || fail "only $count examples found in $EXAMPLES"

# §7.3 summary values of the two valid examples.
"$CT" summary "$EXAMPLES/01_valid_trace10_forward.jsonl" >"$TMP/s1" 2>/dev/null
"$PYTHON" - "$TMP/s1" <<'PY' || fail "01 summary values"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
want = {"op_count": 1, "total_ns": 50000, "span_count": 2, "root_span_count": 1, "max_depth": 1,
        "alloc_count": 1, "free_count": 1, "logical_peak_bytes": 393216}
assert s == want, s
PY
"$CT" summary "$EXAMPLES/02_valid_trace9_train.jsonl" >"$TMP/s2" 2>/dev/null
"$PYTHON" - "$TMP/s2" <<'PY' || fail "02 summary values"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
want = {"op_count": 1, "total_ns": 260500, "span_count": 4, "root_span_count": 1, "max_depth": 1,
        "alloc_count": 0, "free_count": 0, "logical_peak_bytes": None}
assert s == want, s
PY

# §7.3 summary values of the array-form example and of the wrapping total.
"$CT" summary "$EXAMPLES/11_array_records.jsonl" >"$TMP/s11" 2>/dev/null
"$PYTHON" - "$TMP/s11" <<'PY' || fail "11 summary values"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
want = {"op_count": 1, "total_ns": 8000, "span_count": 2, "root_span_count": 1, "max_depth": 1,
        "alloc_count": 1, "free_count": 1, "logical_peak_bytes": 3725664}
assert s == want, s
PY
"$CT" summary "$EXAMPLES/30_total_ns_wraps.jsonl" >"$TMP/s30" 2>/dev/null
"$PYTHON" - "$TMP/s30" <<'PY' || fail "30 summary values"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
want = {"op_count": 0, "total_ns": 553255926290448384, "span_count": 2, "root_span_count": 1, "max_depth": 1,
        "alloc_count": 0, "free_count": 0, "logical_peak_bytes": None}
assert s == want, s
PY

# The strict message on stderr carries every byte: a NUL and a newline in an id survive.
{ head -n 1 "$EXAMPLES/01_valid_trace10_forward.jsonl"
  printf '%s\n' '{"kind":"span_end","id":"a\u0000b\nc"}'; } >"$TMP/nul.jsonl"
"$CT" check "$TMP/nul.jsonl" >/dev/null 2>"$TMP/err"
printf 'error: span_end for unknown span `a\0b\nc` at index 1\n' >"$TMP/want"
cmp -s <(head -c "$(stat -c %s "$TMP/want")" "$TMP/err") "$TMP/want" || fail "NUL/newline in the message: $(od -c "$TMP/err" | head -n 3)"

# A decode error names the physical line and the path as given.
{ head -n 1 "$EXAMPLES/01_valid_trace10_forward.jsonl"; echo; echo '{"kind":"span_start","id":"a"}'; } >"$TMP/bad.jsonl"
"$CT" check "$TMP/bad.jsonl" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 1 ] || fail "decode error: exit $rc, expected 1"
case "$(head -n 1 "$TMP/err")" in
  "error: parse trace JSONL line 3 from $TMP/bad.jsonl: "*) ;;
  *) fail "decode error: first stderr line '$(head -n 1 "$TMP/err")'" ;;
esac

# Standard input as FILE.
"$CT" check - <"$EXAMPLES/01_valid_trace10_forward.jsonl" >/dev/null 2>&1 || fail "check - (stdin) of a valid trace"
"$CT" check - <"$EXAMPLES/04_span_end_unknown.jsonl" >/dev/null 2>"$TMP/err"
[ "$(head -n 1 "$TMP/err")" = "error: $(cat "$EXAMPLES/04_span_end_unknown.expected")" ] || fail "check - (stdin) of a rejected trace"

# Health errors are a report, not a rejection: a loadable trace with an unclosed span exits 0.
{ head -n 1 "$EXAMPLES/01_valid_trace10_forward.jsonl"
  echo '{"kind":"span_start","id":"r","name":"model::forward","start_ns":0,"span_kind":"function","measured":true}'
  echo '{"kind":"terminal","outcome":"complete","timestamp_ns":10}'; } >"$TMP/open.jsonl"
"$CT" check --all "$TMP/open.jsonl" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] || fail "health error changed the exit code to $rc"
grep -q "^$TMP/open.jsonl:2: error\[H-SPAN-UNCLOSED\]: span \`r\` was not closed$" "$TMP/out" || fail "health error line missing: $(cat "$TMP/out")"
tail -n 1 "$TMP/out" | grep -q "verdict: valid" || fail "health error: verdict line"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
