#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace diff: a known slowdown made with the generator (--slow-op) comes out on top,
# the match summary is exact, --json parses, argument and input errors are reported.
# Usage: bash diff.sh <candle-trace> <examples-dir>
set -u
PYTHON=${TI_PYTHON:-}
if [ -z "$PYTHON" ]; then
  echo "SKIP: python3 was not found when the build was configured; this test needs it"
  exit 77
fi
CT=$(realpath "$1")
EXAMPLES=$2
GEN=$(cd "$(dirname "$0")/../.." && pwd)/tools/gen_trace.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

"$PYTHON" "$GEN" --events 8000 --seed 11 --out "$TMP/base.jsonl" --quiet || exit 1
"$PYTHON" "$GEN" --events 8000 --seed 11 --slow-op softmax=4 --out "$TMP/slow.jsonl" --quiet || exit 1
spans=$("$CT" summary "$TMP/base.jsonl" | "$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["summary"]["span_count"])')

"$CT" diff "$TMP/base.jsonl" "$TMP/slow.jsonl" --top 3 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc -eq 0 ] || fail "diff exit $rc: $(cat "$TMP/err")"
grep -qx "spans: $spans of $spans matched; 0 only in candidate, 0 only in baseline" "$TMP/out" \
  || fail "match summary: $(grep '^spans:' "$TMP/out")"
# The first regression by span path is a softmax span, the first by op group a softmax group.
sed -n '/^top regressions by span path/{n;p}' "$TMP/out" | grep -q '/softmax$' \
  || fail "top span regression is not softmax: $(sed -n '/^top regressions by span path/{n;p}' "$TMP/out")"
sed -n '/^top regressions by op group/{n;p}' "$TMP/out" | grep -q '  softmax \[' \
  || fail "top op-group regression is not softmax"
sed -n '/^top improvements by span path/{n;p}' "$TMP/out" | grep -qx '  (none)' \
  || fail "a slowdown-only change shows improvements"

"$CT" diff --json "$TMP/base.jsonl" "$TMP/slow.jsonl" >"$TMP/json" 2>"$TMP/err" || fail "diff --json exit $?"
"$PYTHON" - "$TMP/json" "$spans" <<'PY' || fail "diff --json content"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["match"]["matched_spans"] == n, d["match"]
assert d["match"]["baseline_only_spans"] == 0 and d["match"]["candidate_only_spans"] == 0
assert d["indicative"] is True
top = d["span_regressions"][0]
assert top["path"].endswith("/softmax"), top
assert top["self_delta_ns"] == top["candidate_self_ns"] - top["baseline_self_ns"] > 0
assert d["op_group_regressions"][0]["op"] == "softmax"
assert d["span_improvements"] == [] and d["op_group_improvements"] == []
regressions = d["span_regressions"]
assert 1 <= len(regressions) <= 10
# Only softmax spans got slower; their ancestors' self time is unchanged.
assert all(r["path"].endswith("/softmax") for r in regressions), [r["path"] for r in regressions]
PY

# A trace against itself: everything matched, no change anywhere.
"$CT" diff "$TMP/base.jsonl" "$TMP/base.jsonl" >"$TMP/out" 2>&1 || fail "self diff exit $?"
[ "$(grep -c '  (none)' "$TMP/out")" -eq 4 ] || fail "self diff lists changes: $(cat "$TMP/out")"

# Errors: usage (exit 2), unreadable (2), rejected (1, naming the side).
"$CT" diff "$TMP/base.jsonl" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'missing CANDIDATE' "$TMP/err" || fail "one file: exit $rc $(cat "$TMP/err")"
"$CT" diff a b c >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'takes two files' "$TMP/err" || fail "three files: exit $rc $(cat "$TMP/err")"
for bad in 0 -1 x 3x; do
  "$CT" diff "$TMP/base.jsonl" "$TMP/slow.jsonl" --top "$bad" >/dev/null 2>"$TMP/err"; rc=$?
  [ $rc -eq 2 ] && grep -q "'--top' needs a count" "$TMP/err" || fail "--top $bad: exit $rc $(cat "$TMP/err")"
done
"$CT" diff "$TMP/base.jsonl" "$TMP/missing.jsonl" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q '^error: candidate: ' "$TMP/err" || fail "missing candidate: exit $rc $(cat "$TMP/err")"
rejected=""
for trace in "$EXAMPLES"/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  if [ "$(head -n 1 "$EXAMPLES/$name.expected")" != "VALID" ]; then rejected=$trace; break; fi
done
"$CT" diff "$rejected" "$TMP/base.jsonl" >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^error: baseline .* is rejected: " "$TMP/err" || fail "rejected baseline: exit $rc $(cat "$TMP/err")"
"$CT" diff - - </dev/null >/dev/null 2>"$TMP/err"; rc=$?
[ $rc -eq 2 ] || fail "stdin twice: exit $rc"

[ $failures -eq 0 ] && echo "diff: all checks passed"
exit $((failures > 0))
