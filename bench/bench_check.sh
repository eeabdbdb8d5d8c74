#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Wall time, throughput and peak memory of candle-trace on a generated ~1 GB trace.
# Not part of ctest.
#
# Usage: bench/bench_check.sh [path/to/candle-trace]
#   BENCH_EVENTS  lines to generate (default 7000000, about 1 GB)
#   BENCH_SEED    generator seed (default 1)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
CT=${1:-}
if [ -z "$CT" ]; then
  for candidate in "$repo"/build/release/app/cli/candle-trace "$repo"/build/dev/app/cli/candle-trace "$repo"/build-*/app/cli/candle-trace; do
    [ -x "$candidate" ] && CT=$candidate && break
  done
fi
[ -n "$CT" ] && [ -x "$CT" ] || { echo "error: candle-trace binary not found; pass its path" >&2; exit 2; }
CT=$(realpath "$CT")
GEN=$repo/tools/gen_trace.py
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
EVENTS=${BENCH_EVENTS:-7000000}
SEED=${BENCH_SEED:-1}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
TRACE=$TMP/trace.jsonl

echo "candle-trace: $CT ($("$CT" --version))"
echo "generating $EVENTS events (seed $SEED)..."
gen_start=$(date +%s.%N)
python3 "$GEN" --events "$EVENTS" --seed "$SEED" --out "$TRACE" --quiet
gen_end=$(date +%s.%N)
bytes=$(stat -c %s "$TRACE")
mb=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }')
echo "file: $bytes bytes ($mb MB), generated in $(awk -v a="$gen_start" -v b="$gen_end" 'BEGIN { printf "%.1f", b - a }') s"

# Runs "$@" under /usr/bin/time -v; prints wall time, MB/s over the input and peak RSS.
# Output of the command goes to $TMP/out, its stderr to $TMP/err.
measure() {
  local label=$1
  shift
  local rc=0
  /usr/bin/time -v -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || rc=$?
  local wall rss_kb cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$TMP/time")
  rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$TMP/time")
  cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "$TMP/time")
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v b="$bytes" -v r="$rss_kb" -v rc="$rc" 'BEGIN {
        mbs = (w > 0) ? b / 1e6 / w : 0
        printf "%-22s %7.2f s  %8.1f MB/s  cpu %7.2f s  peak RSS %8.1f MB  RSS/file %.2f  exit %d\n",
               l, w, mbs, c, r / 1024, (r * 1024) / b, rc }'
}

# Wall times on a shared machine depend on its load; cpu (user + system) time does not.
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
cat "$TRACE" >/dev/null # warm the page cache so every run reads from memory
measure "wc -l (floor)" wc -l "$TRACE"
echo "                       lines: $(cat "$TMP/out" | awk '{ print $1 }')"
measure "check" "$CT" check "$TRACE"
measure "check --all" "$CT" check --all "$TRACE"
echo "                       $(tail -n 1 "$TMP/out")"
measure "check --json" "$CT" check --json "$TRACE"
measure "normalize -o FILE" "$CT" normalize "$TRACE" -o "$TMP/normalized.jsonl"
out_bytes=$(stat -c %s "$TMP/normalized.jsonl" 2>/dev/null || echo 0)
echo "                       output: $out_bytes bytes"
rm -f "$TMP/normalized.jsonl"
measure "normalize -o /dev/null" "$CT" normalize "$TRACE" -o /dev/null
measure "summary" "$CT" summary "$TRACE"
echo "                       output: $(stat -c %s "$TMP/out") bytes"
