#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace compare (docs/COMPARISON.md): verified bundles made with tools/make_bundle.py
# give upstream's report (layout checked against an independent pretty printer; interval and
# verdict from tools/comparison_reference.py), raw traces need --unverified-traces and are
# always ineligible, verification and read failures print upstream's message chain (exit 1),
# usage errors exit 2.
# Usage: bash compare.sh <candle-trace> <examples-dir>
set -u
PYTHON=${TI_PYTHON:-}
if [ -z "$PYTHON" ]; then
  echo "SKIP: python3 was not found when the build was configured; this test needs it"
  exit 77
fi
CT=$(realpath "$1")
TOOLS=$(cd "$(dirname "$0")/../.." && pwd)/tools
MAKE="$PYTHON $TOOLS/make_bundle.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cd "$TMP" || exit 1

# Five runs a side, paired by pair_id; extra declared files in every bundle.
base=(100 104 98 101 107); cand=(97 101 99 95 104)
for i in 0 1 2 3 4; do
  $MAKE run "b$i.jsonl" --run-id "base-$i" --duration-ns "${base[$i]}" --implementation-id base --pair-id "p$i" \
    --tensor-stats "logits,1.0,2.0,0" || exit 1
  $MAKE run "c$i.jsonl" --run-id "next-$i" --duration-ns "${cand[$i]}" --implementation-id next --pair-id "p$i" \
    --tensor-stats "logits,1.5,2.0,0" || exit 1
  $MAKE bundle "B$i" "b$i.jsonl" --extra evidence.json='{}' --extra nsight/capture.bin=raw || exit 1
  $MAKE bundle "C$i" "c$i.jsonl" --extra report.md='# report' || exit 1
done
BASE=(B0 B1 B2 B3 B4); CAND=(C0 C1 C2 C3 C4)

expected=$("$PYTHON" "$TOOLS/comparison_reference.py" paired 100,104,98,101,107 97,101,99,95,104)
"$CT" compare --baseline "${BASE[@]}" --candidate "${CAND[@]}" --json >out.json 2>err
rc=$?
[ $rc -eq 0 ] || fail "compare --json exit $rc: $(cat err)"
[ -s err ] && fail "compare --json wrote to standard error: $(cat err)"
"$PYTHON" - out.json "$expected" <<'PY' || fail "compare --json content"
import hashlib, json, sys
text = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(text)
# serde_json's pretty layout is Python's indent=2 layout (for these values), plus a newline.
assert text == json.dumps(d, indent=2, ensure_ascii=False) + "\n", "layout differs from serde pretty"
ref = sys.argv[2].split()
assert d["schema"] == "candle-graph/comparison/5" and d["metric"] == "outer_wall_time_ns"
assert d["inputs"]["verification"] == "verified_bundles"
for side, prefix in (("baseline", "B"), ("candidate", "C")):
    for i, r in enumerate(d["inputs"][side]):
        digest = hashlib.sha256(open(f"{prefix}{i}/bundle.json", "rb").read()).hexdigest()
        assert r["manifest_sha256"] == digest, (side, i)
assert d["comparable"] is True and d["paired"] is True and d["reasons"] == [], d["reasons"]
assert repr(d["median_delta_ns"]) == ref[1], (d["median_delta_ns"], ref)
ci = d["confidence_interval"]
assert (repr(ci["lower_delta_ns"]), repr(ci["upper_delta_ns"])) == (ref[3], ref[5]), (ci, ref)
assert d["verdict"] == ("candidate_faster" if ci["upper_delta_ns"] < 0 else "candidate_slower" if ci["lower_delta_ns"] > 0 else "inconclusive")
assert d["identity"]["workload_id"] == "infer" and "pair_id" not in d["identity"] and "implementation_id" not in d["identity"]
assert d["baseline_implementation_id"] == "base" and d["candidate_implementation_id"] == "next"
row = d["tensor_stats"]["matched"][0]
assert row["label"] == "logits" and row["rms_ratio"] == 1.5 and row["runs_a"] == 5 and row["samples_b"] == 5, row
PY

# The text summary.
"$CT" compare --baseline "${BASE[@]}" --candidate "${CAND[@]}" >out.txt 2>err || fail "compare exit $?"
grep -q '^Verdict: ' out.txt || fail "no verdict line: $(cat out.txt)"
grep -q '^Inputs: verified bundles, paired by pair_id$' out.txt || fail "inputs line: $(cat out.txt)"
grep -q '^95% bootstrap interval: \[' out.txt || fail "no interval: $(cat out.txt)"

# Repeated options append, '=' form works.
"$CT" compare --baseline B0 B1 --baseline=B2 --baseline B3 B4 --candidate "${CAND[@]}" --json >out2.json 2>err \
  || fail "repeated --baseline exit $?"
cmp -s out.json out2.json || fail "repeated --baseline gives another report"

# Fewer than five runs: ineligible with upstream's reason, still exit 0.
"$CT" compare --baseline B0 B1 B2 B3 --candidate C0 C1 C2 C3 --json >few.json 2>err || fail "4 runs exit $?"
"$PYTHON" - few.json <<'PY' || fail "4 runs content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "ineligible" and d["confidence_interval"] is None
assert d["reasons"] == ["at least 5 independent baseline and candidate runs are required"], d["reasons"]
PY

# Raw traces: only with --unverified-traces; always ineligible.
"$CT" compare --unverified-traces --baseline b0.jsonl b1.jsonl b2.jsonl b3.jsonl b4.jsonl \
  --candidate c0.jsonl c1.jsonl c2.jsonl c3.jsonl c4.jsonl --json >raw.json 2>err || fail "unverified exit $?"
"$PYTHON" - raw.json <<'PY' || fail "unverified content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["inputs"] == {"verification": "unverified_traces", "baseline": [], "candidate": []}, d["inputs"]
assert d["comparable"] is False and d["verdict"] == "ineligible"
assert d["reasons"] == ["unverified raw trace inputs are diagnostic only; finalized verified bundles are required for an eligible comparison"]
assert d["paired"] is True and d["median_delta_ns"] == -3.0
PY

# Errors: one line, 'error: ' and upstream's chain, exit 1.
expect_error() { # expected-rc expected-stderr args...
  local want_rc=$1 want=$2; shift 2
  "$CT" compare "$@" >/dev/null 2>err
  local rc=$?
  [ $rc -eq "$want_rc" ] || fail "compare $*: exit $rc, expected $want_rc ($(cat err))"
  [ "$(cat err)" = "$want" ] || fail "compare $*: message '$(cat err)', expected '$want'"
}
expect_error 1 "error: verify baseline bundle 1 at b0.jsonl: bundle directory does not exist: b0.jsonl" \
  --baseline b0.jsonl --candidate C0
expect_error 1 "error: verify candidate bundle 1 at nowhere: bundle directory does not exist: nowhere" \
  --baseline B0 --candidate nowhere
cp -r B2 T2 && printf 'RAW' >T2/nsight/capture.bin
expect_error 1 "error: verify baseline bundle 3 at T2: bundle file \"nsight/capture.bin\" SHA-256 mismatch" \
  --baseline B0 B1 T2 --candidate C0
cp -r C1 U1 && printf 'x' >U1/notes.txt
expect_error 1 "error: verify candidate bundle 2 at U1: undeclared regular file in bundle: notes.txt" \
  --baseline B0 --candidate C0 U1
cp -r C1 M1 && rm M1/report.md
expect_error 1 "error: verify candidate bundle 1 at M1: declared bundle file is missing: report.md" \
  --baseline B0 --candidate M1
cp -r C1 L1 && mv L1/report.md report.md && ln -s ../report.md L1/report.md
expect_error 1 "error: verify candidate bundle 1 at L1: symbolic links are not allowed in bundles: L1/report.md" \
  --baseline B0 --candidate L1
$MAKE bundle R1 c1.jsonl --run-id other || exit 1
expect_error 1 "error: verified candidate bundle 1 manifest run ID \"other\" does not match trace run ID \"next-1\"" \
  --baseline B0 --candidate R1
printf '{"kind":"meta"}\n' >bad.jsonl && $MAKE bundle X1 bad.jsonl --run-id x || exit 1
expect_error 1 "error: parse verified baseline bundle 1 trace at X1: parse trace JSONL line 1 from X1/trace.jsonl: missing field \`schema\`" \
  --baseline X1 --candidate C0
expect_error 1 "error: parse unverified candidate bad.jsonl: parse trace JSONL line 1 from bad.jsonl: missing field \`schema\`" \
  --unverified-traces --baseline b0.jsonl --candidate bad.jsonl
expect_error 1 "error: parse unverified baseline missing.jsonl: open trace file missing.jsonl: No such file or directory (os error 2)" \
  --unverified-traces --baseline missing.jsonl --candidate bad.jsonl

# Usage errors: exit 2.
expect_error 2 "error: compare: missing --candidate INPUT... (try 'candle-trace --help')" --baseline B0
expect_error 2 "error: compare: missing --baseline INPUT... (try 'candle-trace --help')" --candidate C0
expect_error 2 "error: option '--baseline' needs at least one INPUT" --baseline --candidate C0
expect_error 2 "error: unexpected argument 'B0': compare takes its inputs after --baseline and --candidate" B0
expect_error 2 "error: unknown option '--top' for compare (try 'candle-trace --help')" --top 3 --baseline B0 --candidate C0

# An unwritable standard output: exit 2.
if [ -w /dev/full ]; then
  "$CT" compare --baseline B0 --candidate C0 --json >/dev/full 2>err
  [ $? -eq 2 ] || fail "compare > /dev/full: exit not 2"
fi

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "compare: all checks passed"
