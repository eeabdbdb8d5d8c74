#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace check --json: the report parses and agrees with the verdict and the examples.
# Usage: bash check_json.sh <candle-trace> <examples-dir>
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

for trace in "$EXAMPLES"/*.jsonl; do
  name=$(basename "$trace" .jsonl)
  "$CT" check --json "$trace" >"$TMP/report.json" 2>/dev/null
  rc=$?
  "$PYTHON" - "$TMP/report.json" "$trace" "$EXAMPLES/$name.expected" "$rc" <<'PY' || fail "$name: --json report"
import json, sys
report_path, trace, expected_path, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with open(report_path) as f:
    text = f.read()
assert text.endswith("\n") and text.count("\n") == 1, "one JSON line expected"
r = json.loads(text)
expected = open(expected_path).read().splitlines()[0]
# A parse error names the bare file in .expected; the tool prints the path it was given.
bare = expected_path.rsplit("/", 1)[-1][: -len(".expected")] + ".jsonl"
expected = expected.replace(" from " + bare + ": ", " from " + trace + ": ", 1)
assert r["file"] == trace, r["file"]
if expected == "VALID":
    assert rc == 0 and r["verdict"] == "valid" and r["error"] is None, (rc, r["verdict"], r["error"])
else:
    assert rc == 1 and r["verdict"] == "rejected" and r["error"] == expected, (rc, r["verdict"], r["error"])
    assert any(p["stage"] == "load" and p["message"] == expected for p in r["problems"]), "strict error not in problems"
for p in r["problems"]:
    assert set(p) >= {"line", "severity", "rule", "message"}, p
    assert p["severity"] in ("error", "warning"), p
    assert isinstance(p["line"], int) and p["line"] >= 0, p
h = r["health"]
assert isinstance(h["structurally_valid"], bool) and isinstance(h["capture_complete"], bool)
cov = ["spans", "closed_spans", "root_spans", "measured_spans", "operations", "tensors", "memory_events",
       "device_memory_samples", "device_intervals", "gradients", "call_edges", "data_edges",
       "forward_spans", "backward_spans", "optimizer_spans"]
assert list(h["coverage"]) == cov, list(h["coverage"])
s = r["summary"]
errors = sum(1 for p in r["problems"] if p["severity"] == "error")
warnings = sum(1 for p in r["problems"] if p["severity"] == "warning")
assert s["errors"] == errors and s["warnings"] == warnings, (s, errors, warnings)
if expected == "VALID" and trace.endswith("01_valid_trace10_forward.jsonl"):
    # §10.5: no findings; structurally valid, complete.
    assert r["problems"] == [] and h["structurally_valid"] and h["capture_complete"], r
    assert h["coverage"]["spans"] == 2 and h["coverage"]["operations"] == 1 and h["coverage"]["call_edges"] == 1
if expected == "VALID" and trace.endswith("02_valid_trace9_train.jsonl"):
    codes = [p.get("code") for p in r["problems"]]
    assert codes == ["tensors_absent", "logical_memory_absent", "device_timing_absent"], codes
    assert h["structurally_valid"] and h["capture_complete"]
PY
done

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
