#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# File names with line breaks, control characters or bytes that are not UTF-8 keep both
# report formats parseable: check --all stays one problem per line (the name is escaped
# like a message, `\n`), check --json stays valid JSON (U+FFFD in "file" and the exact
# bytes in "file_hex").
# Usage: bash odd_names.sh <candle-trace> <examples-dir>
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

# A rejected trace with several problems (the unknown span_end, health findings).
SOURCE=$EXAMPLES/04_span_end_unknown.jsonl
names=(
  "$TMP/line"$'\n'"break.jsonl"
  "$TMP/carriage"$'\r'"return"$'\t'"tab.jsonl"
  "$TMP/escape"$'\e'"[31mred.jsonl"
  "$TMP/latin1-"$'\xe9'"t"$'\xe9'".jsonl"
  "$TMP/"$'\xff\xfe'"-not-utf8.jsonl"
)
for name in "${names[@]}"; do
  cp "$SOURCE" "$name"
  label=$(printf '%q' "$name")
  "$CT" check --all "$name" >"$TMP/all" 2>/dev/null
  [ $? -eq 1 ] || fail "$label --all: exit code"
  "$PYTHON" - "$TMP/all" "$name" <<'PY' || fail "$label --all: not one problem per line"
import os, re, sys
out = open(sys.argv[1], "rb").read().split(b"\n")
assert out[-1] == b"", "no final newline"
lines = out[:-1]
name = os.fsencode(sys.argv[2])
escaped = name.replace(b"\n", b"\\n").replace(b"\r", b"\\r").replace(b"\t", b"\\t").replace(b"\x1b", b"\\u{1b}")
pat = re.compile(re.escape(escaped) + rb"(:[0-9]+(:[0-9]+)?)?: (error|warning|note)\[[A-Z0-9-]+\]: .+")
body, summary, verdict = lines[:-2], lines[-2], lines[-1]
assert len(body) >= 2, lines
for l in body:
    assert pat.fullmatch(l), l
assert summary.startswith(escaped + b": summary: "), summary
assert verdict.startswith(escaped + b": ") and verdict.endswith(b"verdict: rejected"), verdict
PY
  "$CT" check --json "$name" >"$TMP/json" 2>/dev/null
  [ $? -eq 1 ] || fail "$label --json: exit code"
  "$PYTHON" - "$TMP/json" "$name" <<'PY' || fail "$label --json: not valid JSON, or the name is lost"
import json, os, sys
raw = open(sys.argv[1], "rb").read()
doc = json.loads(raw.decode("utf-8"))  # strict: the text must be UTF-8
name = os.fsencode(sys.argv[2])
if "file_hex" in doc:
    assert bytes.fromhex(doc["file_hex"]) == name, doc["file_hex"]
    assert "\ufffd" in doc["file"]
else:
    assert doc["file"].encode("utf-8") == name, doc["file"]
assert doc["verdict"] == "rejected"
assert doc["problems"], "no problems listed"
PY
done

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
