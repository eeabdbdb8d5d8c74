#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Peak memory of candle-trace on hostile inputs, against the targets of issue 12: at most
# 1x the file for inputs of 100 MB and more, at most 100 MB plus the file below that.
# "1x the file" means the file size plus the fixed cost of the process, which no process can
# avoid: a strict error that quotes a 200 MB value back must hold those 200 MB, and the
# process besides. The fixed cost is measured once per command, as the peak RSS of the same
# command on a tiny valid trace (the largest of three runs), so from 100 MB on the verdict is
# `peak <= file + baseline`; the "x file" column gives the plain ratio. The tiny trace (16
# records) is padded with 20 MB of blank lines, so that it is read as every big input is: in
# two segments, two threads each filling its read buffer. Unpadded it leaves those buffers
# out; both figures are printed.
# Not part of ctest (it writes several GB).
#
# Usage: bench/bench_hostile.sh [path/to/candle-trace]
#   BENCH_BIG_MB    size of the big inputs (default 1000)
#   BENCH_TMPDIR    where the inputs go (default: a new directory under $TMPDIR or /tmp)
#   BENCH_INPUTS    the inputs to run, by name (default: all of them)
set -eu # no pipefail: `yes | head` ends yes with SIGPIPE by design

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
CT=${1:-}
if [ -z "$CT" ]; then
  for candidate in "$repo"/build/release/app/cli/candle-trace "$repo"/build/dev/app/cli/candle-trace; do
    [ -x "$candidate" ] && CT=$candidate && break
  done
fi
[ -n "$CT" ] && [ -x "$CT" ] || { echo "error: candle-trace binary not found; pass its path" >&2; exit 2; }
CT=$(realpath "$CT")
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
BIG_MB=${BENCH_BIG_MB:-1000}
TMP=$(mktemp -d "${BENCH_TMPDIR:-${TMPDIR:-/tmp}}/bench-hostile.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
META=$(head -n 1 "$repo/tests/data/examples/01_valid_trace10_forward.jsonl")
TERMINAL='{"kind":"terminal","outcome":"complete","timestamp_ns":1000}'

# Repeats an awk line template until the file has about N MB: generators of the inputs.
lines_of() { # mb, awk printf format with one %d
  awk -v mb="$1" -v fmt="$2" -v meta="$META" -v term="$TERMINAL" 'BEGIN {
    print meta; limit = mb * 1000000; size = 0
    for (i = 0; size < limit; i++) { line = sprintf(fmt, i); print line; size += length(line) + 1 }
    print term }'
}

# Meta line, one line holding a value of N MB of one character between a prefix and a
# suffix (printf formats), terminal line.
with_long_value() { # prefix, mb, character, suffix
  echo "$META"
  printf "$1"
  head -c $(($2 * 1000000)) /dev/zero | tr '\0' "$3"
  printf "$4"
  echo "$TERMINAL"
}

# with_long_value() of a text repeated to N MB (whole repetitions): a string of escapes.
with_repeated_text() { # prefix, mb, text, suffix
  echo "$META"
  printf "$1"
  yes -- "$3" | tr -d '\n' | head -c $(($2 * 1000000 / ${#3} * ${#3}))
  printf "$4"
  echo "$TERMINAL"
}

make_input() { # name
  case $1 in
    garbage-lines) { echo "$META"; yes x | head -c 20000000; echo "$TERMINAL"; } ;;
    invalid-utf8-lines) { echo "$META"; yes $'\xff' | head -c 20000000; echo "$TERMINAL"; } ;;
    unknown-span-ends) lines_of "$BIG_MB" '{"kind":"span_end","id":"u%d","duration_ns":1}' ;;
    unclosed-spans) lines_of "$BIG_MB" '{"kind":"span_start","id":"s%d","name":"n","start_ns":0,"span_kind":"function"}' ;;
    duplicate-span-starts) lines_of "$BIG_MB" '{"kind":"span_start","id":"dup","name":"n%d","start_ns":0,"span_kind":"function"}' ;;
    ops-in-unknown-spans) lines_of "$BIG_MB" '{"kind":"op","span_id":"ghost%d","op_name":"matmul","shape":[2,2],"dtype":"f32","device":"cpu","duration_ns":5,"timestamp_ns":20,"input_dense_bytes":32}' ;;
    one-200mb-line)
      with_long_value '{"kind":"span_start","id":"s","name":"' 200 n \
        '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n' ;;
    deep-nesting-100mb) { echo "$META"; head -c 100000000 /dev/zero | tr '\0' '['; echo; echo "$TERMINAL"; } ;;
    # A span started and ended with a 100 MB id: the end lies in the reader's second segment.
    two-100mb-ids)
      { echo "$META"; printf '{"kind":"span_start","id":"'; head -c 100000000 /dev/zero | tr '\0' i
        printf '","name":"n","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"'
        head -c 100000000 /dev/zero | tr '\0' i; printf '","duration_ns":1}\n'; echo "$TERMINAL"; } ;;
    unclosed-200mb-id)
      with_long_value '{"kind":"span_start","id":"' 200 i '","name":"n","start_ns":0,"span_kind":"function"}\n' ;;
    unknown-200mb-span-kind)
      with_long_value '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":"' 200 k '"}\n' ;;
    # Strict errors that quote a 200 MB id or value whole (§5.4, §5.5, §6.3).
    unknown-200mb-span-end) with_long_value '{"kind":"span_end","id":"' 200 i '","duration_ns":1}\n' ;;
    string-200mb-for-u64)
      with_long_value '{"kind":"span_start","id":"s","name":"n","start_ns":"' 200 n '","span_kind":"function"}\n' ;;
    unknown-200mb-enum-key)
      with_long_value '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":{"' 200 k '":null}}\n' ;;
    string-200mb-for-unit)
      with_long_value '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":{"function":"' 200 u '"}}\n' ;;
    scalar-200mb-line) with_long_value '"' 200 q '"\n' ;;
    # The same with escapes: the value is unescaped over its own bytes in the line.
    escaped-200mb-string-for-u64)
      with_repeated_text '{"kind":"span_start","id":"s","name":"n","start_ns":"' 200 '\n' '","span_kind":"function"}\n' ;;
    unicode-escaped-200mb-string-for-u64)
      with_repeated_text '{"kind":"span_start","id":"s","name":"n","start_ns":"' 200 '\u00e9' '","span_kind":"function"}\n' ;;
    # An unknown span_end with a 200 MB id in the reader's second segment (the first holds
    # a 210 MB span name): the merge looks the id up and keeps it for the strict error.
    late-unknown-200mb-span-end)
      { echo "$META"; printf '{"kind":"span_start","id":"s","name":"'; head -c 210000000 /dev/zero | tr '\0' n
        printf '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n{"kind":"span_end","id":"'
        head -c 200000000 /dev/zero | tr '\0' i; printf '","duration_ns":1}\n'; echo "$TERMINAL"; } ;;
    unsupported-200mb-schema)
      { printf '%s' "${META%%\"schema\":*}\"schema\":\""; head -c 200000000 /dev/zero | tr '\0' s
        printf '%s\n' "\",${META#*\"schema\":\"*\",}"; echo "$TERMINAL"; } ;;
  esac
}

COMMANDS=("check" "check --all" "check --json")
# The fixed cost of each command: its peak RSS on a tiny valid trace, the largest of three runs
# (see the header). The padding goes before the terminal line, which must stay the last record.
TINY=$repo/tests/data/examples/01_valid_trace10_forward.jsonl
{ head -n -1 "$TINY"; awk 'BEGIN { s = sprintf("%1000s", ""); for (i = 0; i < 20000; i++) print s }'; tail -n 1 "$TINY"; } \
  >"$TMP/padded.jsonl"
peak_of() { # file, then the command's words: the largest peak RSS in bytes of three runs
  local file=$1 peak=0 rss
  shift
  for _ in 1 2 3; do
    /usr/bin/time -f '%M' -o "$TMP/time" "$CT" "$@" "$file" >/dev/null 2>&1 || true
    rss=$(($(tail -n 1 "$TMP/time") * 1024))
    [ "$rss" -le "$peak" ] || peak=$rss
  done
  echo "$peak"
}
declare -A BASELINE
baselines=
for cmd in "${COMMANDS[@]}"; do
  # shellcheck disable=SC2086
  BASELINE[$cmd]=$(peak_of "$TMP/padded.jsonl" $cmd)
  # shellcheck disable=SC2086
  unpadded=$(peak_of "$TINY" $cmd)
  baselines="$baselines${baselines:+, }$cmd $(awk -v r="${BASELINE[$cmd]}" -v u="$unpadded" 'BEGIN {
    printf "%.1f MB (unpadded %.1f)", r / 1e6, u / 1e6 }')"
done
rm -f "$TMP/padded.jsonl"

echo "candle-trace: $CT ($("$CT" --version)); big inputs ${BIG_MB} MB; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "fixed cost (peak RSS on a tiny valid trace padded to 20 MB): $baselines"
printf '%-36s %-14s %9s %8s %10s %7s %9s %s\n' input command "file MB" "wall s" "peak MB" "x file" "limit MB" verdict
worst=ok
ALL_INPUTS="garbage-lines invalid-utf8-lines unknown-span-ends unclosed-spans duplicate-span-starts ops-in-unknown-spans
  one-200mb-line deep-nesting-100mb two-100mb-ids unclosed-200mb-id unknown-200mb-span-kind unknown-200mb-span-end
  string-200mb-for-u64 unknown-200mb-enum-key string-200mb-for-unit scalar-200mb-line unsupported-200mb-schema
  escaped-200mb-string-for-u64 unicode-escaped-200mb-string-for-u64 late-unknown-200mb-span-end"
for input in ${BENCH_INPUTS:-$ALL_INPUTS}; do
  file=$TMP/$input.jsonl
  make_input "$input" >"$file"
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null
  for cmd in "${COMMANDS[@]}"; do
    # The targets: 1x the file (plus the fixed cost) from 100 MB on, 100 MB plus the file below.
    if [ "$bytes" -ge 100000000 ]; then limit=$((bytes + ${BASELINE[$cmd]})); else limit=$((bytes + 100 * 1024 * 1024)); fi
    # shellcheck disable=SC2086
    /usr/bin/time -f '%e %M' -o "$TMP/time" "$CT" $cmd "$file" >/dev/null 2>&1 || true
    read -r wall rss_kb < <(tail -n 1 "$TMP/time") # after "Command exited with non-zero status"
    rss=$((rss_kb * 1024))
    status=ok
    [ "$rss" -le "$limit" ] || { status=OVER; worst=OVER; }
    awk -v i="$input" -v c="$cmd" -v b="$bytes" -v w="$wall" -v r="$rss" -v l="$limit" -v s="$status" 'BEGIN {
      printf "%-36s %-14s %9.1f %8.2f %10.1f %7.2f %9.1f %s\n", i, c, b / 1e6, w, r / 1e6, r / b, l / 1e6, s }'
  done
  rm -f "$file"
done
echo "overall: $worst"
