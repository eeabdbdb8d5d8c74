#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory on hostile input is bounded by the file size: a file of two million garbage lines
# (4 MB) and one of a million unclosed spans (83 MB) each stay below 100 MB plus the file
# size in check and check --all (they took 150 and 5 times the file), and the summary line
# gives the true totals (it used to stop counting at 1 000 000). On the unclosed spans, health
# and the summary add at most a tenth to what reading alone needs (the summary's span depths
# took ~45 bytes per span: check --all peaked at 1.27 times plain check). Each command stays
# within the file plus 14 MB (the process and its read buffers), which from 200 MB on is within
# the file itself: merging the two read segments held both copies of the second one's string
# table, and sorting the spans by id held 24 bytes of keys and buffers a span (both about
# 1.27 times the file here, 1.13 at 200 MB). A 100 MB line of nested `[` stays below the file
# size.
# Usage: bash memory_bounds.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EXAMPLES=$2
VALID=$EXAMPLES/01_valid_trace10_forward.jsonl
if [ -n "${TI_SANITIZED:-}" ]; then
  echo "SKIP: built with sanitizers (TI_SANITIZED): their shadow memory makes peak RSS meaningless here"
  exit 77
fi
if [ ! -x /usr/bin/time ]; then
  echo "SKIP: /usr/bin/time is missing (apt-get install time); this test measures peak memory with it"
  exit 77
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
TERMINAL='{"kind":"terminal","outcome":"complete","timestamp_ns":1000}'

# Runs candle-trace with the given arguments; checks peak RSS <= 100 MB + the file size.
bounded() { # file, then arguments
  local file=$1
  shift
  /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" "$@" >"$TMP/out" 2>"$TMP/err"
  local rss_kb limit_kb
  rss_kb=$(tail -n 1 "$TMP/rss")
  limit_kb=$(((100 * 1024 * 1024 + $(stat -c %s "$file")) / 1024))
  echo "$* : peak RSS $((rss_kb / 1024)) MB for a $(($(stat -c %s "$file") / 1024 / 1024)) MB file"
  [ "$rss_kb" -le "$limit_kb" ] || fail "$*: peak RSS ${rss_kb} KB > ${limit_kb} KB"
  last_rss_kb=$rss_kb
}
last_rss_kb=0

# The file plus 14 MB: what a big input's peak must stay within to be at most 1x the file.
near_file() { # file, what
  [ "$last_rss_kb" -le $((($(stat -c %s "$1") + 14 * 1024 * 1024) / 1024)) ] \
    || fail "$2: peak RSS ${last_rss_kb} KB, more than the file plus 14 MB"
}

{ head -n 1 "$VALID"; yes x | head -n 2000000; echo "$TERMINAL"; } >"$TMP/garbage.jsonl"
bounded "$TMP/garbage.jsonl" check "$TMP/garbage.jsonl"
[ "$(head -n 1 "$TMP/err")" = "error: parse trace JSONL line 2 from $TMP/garbage.jsonl: expected value at line 1 column 1" ] \
  || fail "garbage: verdict '$(head -n 1 "$TMP/err")'"
bounded "$TMP/garbage.jsonl" check --all "$TMP/garbage.jsonl"
[ "$(grep -c 'error\[E-LINE-PARSE\]: parse trace JSONL line' "$TMP/out")" -eq 10000 ] || fail "garbage --all: not the first 10000 listed"
grep -qx "$TMP/garbage.jsonl: note\[E-LINE-PARSE\]: 1990000 more errors of this rule not listed (each rule lists its first 10000)" "$TMP/out" \
  || fail "garbage --all: no line for the problems not listed"
tail -n 1 "$TMP/out" | grep -q ": 20000[0-9][0-9] errors, [0-9]* warnings (2000000 load problems," \
  || fail "garbage --all: totals '$(tail -n 1 "$TMP/out")'"
bounded "$TMP/garbage.jsonl" check --json "$TMP/garbage.jsonl"
grep -q '"omitted_problems":\[{"rule":"E-LINE-PARSE","severity":"error","count":1990000,"stage":"load"}' "$TMP/out" \
  || fail "garbage --json: omitted_problems"

awk 'NR == 1 { print; exit } END { for (i = 0; i < 1000000; i++)
  printf "{\"kind\":\"span_start\",\"id\":\"s%d\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n", i }' \
  "$VALID" >"$TMP/open.jsonl"
echo "$TERMINAL" >>"$TMP/open.jsonl"
bounded "$TMP/open.jsonl" check "$TMP/open.jsonl"
read_kb=$last_rss_kb
near_file "$TMP/open.jsonl" "unclosed spans check"
bounded "$TMP/open.jsonl" check --all "$TMP/open.jsonl"
near_file "$TMP/open.jsonl" "unclosed spans --all"
[ "$last_rss_kb" -le $((read_kb * 11 / 10)) ] \
  || fail "unclosed spans --all: peak RSS ${last_rss_kb} KB, more than 1.1 times the ${read_kb} KB of plain check"
grep -qx "$TMP/open.jsonl: note\[H-SPAN-UNCLOSED\]: 990000 more errors of this rule not listed (each rule lists its first 10000)" "$TMP/out" \
  || fail "unclosed spans --all: no line for the findings not listed"
tail -n 1 "$TMP/out" | grep -q ": 10000[0-9][0-9] errors, .*10000[0-9][0-9] health errors" || fail "unclosed spans --all: totals '$(tail -n 1 "$TMP/out")'"
bounded "$TMP/open.jsonl" check --json "$TMP/open.jsonl"
near_file "$TMP/open.jsonl" "unclosed spans --json"
[ "$last_rss_kb" -le $((read_kb * 11 / 10)) ] \
  || fail "unclosed spans --json: peak RSS ${last_rss_kb} KB, more than 1.1 times the ${read_kb} KB of plain check"

# A 100 MB line of `[` is refused by its first bytes (§5.1: the scan error at column 1 ends
# the line): only its UTF-8 is checked on the way to its end, so it is never held in memory
# (it took 1.1 times the file, the line plus read windows).
{ head -n 1 "$VALID"; head -c 100000000 /dev/zero | tr '\0' '['; echo; echo "$TERMINAL"; } >"$TMP/nested.jsonl"
for args in "check" "check --all"; do
  # shellcheck disable=SC2086
  bounded "$TMP/nested.jsonl" $args "$TMP/nested.jsonl"
  [ "$last_rss_kb" -le $(($(stat -c %s "$TMP/nested.jsonl") / 1024)) ] \
    || fail "deep nesting $args: peak RSS ${last_rss_kb} KB, more than the file"
done
grep -q "^$TMP/nested.jsonl:2:1: error\[E-LINE-PARSE\]: parse trace JSONL line 2 from $TMP/nested.jsonl: invalid type: sequence, expected variant identifier at line 1 column 1\$" "$TMP/out" \
  || fail "deep nesting --all: verdict '$(head -n 1 "$TMP/out" | head -c 300)'"
rm -f "$TMP/nested.jsonl"

# A 110 MB line whose bulk is one span name must be decoded and kept: the name is held once,
# in the read buffer the string table takes over, so the peak is the file plus the process
# (~5 MB) in check, check --all and from a pipe. Piped, the buffer grew by doubling with the
# old and the new block alive at once and the name was then copied: twice the file.
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"'; head -c 110000000 /dev/zero | tr '\0' n
  printf '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n'; echo "$TERMINAL"; } \
  >"$TMP/longline.jsonl"
long_bytes=$(stat -c %s "$TMP/longline.jsonl")
long_limit_kb=$(((long_bytes + 8 * 1024 * 1024) / 1024))
for args in "check" "check --all"; do
  # shellcheck disable=SC2086
  bounded "$TMP/longline.jsonl" $args "$TMP/longline.jsonl"
  [ "$last_rss_kb" -le "$long_limit_kb" ] || fail "long line $args: peak RSS ${last_rss_kb} KB, more than the file plus 8 MB"
done
grep -q "^$TMP/longline.jsonl: 2 errors, 5 warnings (0 load problems, 2 health errors, 5 health warnings); .*; verdict: valid\$" "$TMP/out" \
  || fail "long line --all: totals '$(tail -n 1 "$TMP/out" | head -c 300)'"
for args in "check" "check --all"; do
  # shellcheck disable=SC2086
  cat "$TMP/longline.jsonl" | /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" $args /dev/stdin >"$TMP/out" 2>"$TMP/err"
  rss_kb=$(tail -n 1 "$TMP/rss")
  echo "piped $args : peak RSS $((rss_kb / 1024)) MB for a $((long_bytes / 1024 / 1024)) MB file"
  [ "$rss_kb" -le "$long_limit_kb" ] || fail "long line piped $args: peak RSS ${rss_kb} KB, more than the file plus 8 MB"
done
grep -q "^/dev/stdin: 2 errors, 5 warnings .*; verdict: valid\$" "$TMP/out" || fail "long line piped --all: totals '$(tail -n 1 "$TMP/out" | head -c 300)'"
rm -f "$TMP/longline.jsonl"

# The same with one escape in the name: the unescaped copy used to be made beside the line
# (growing by doubling) and copied again into the string table, 3.2 times the file. The name
# is unescaped over its own bytes in the read buffer, which the table takes over as above.
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"'; head -c 55000000 /dev/zero | tr '\0' n
  printf '\\n'; head -c 55000000 /dev/zero | tr '\0' n
  printf '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n'; echo "$TERMINAL"; } \
  >"$TMP/escaped.jsonl"
long_bytes=$(stat -c %s "$TMP/escaped.jsonl")
long_limit_kb=$(((long_bytes + 8 * 1024 * 1024) / 1024))
bounded "$TMP/escaped.jsonl" check "$TMP/escaped.jsonl"
[ "$last_rss_kb" -le "$long_limit_kb" ] || fail "escaped name check: peak RSS ${last_rss_kb} KB, more than the file plus 8 MB"
grep -qx "$TMP/escaped.jsonl: valid (.*, 4 records)" "$TMP/out" || fail "escaped name: verdict '$(head -c 300 "$TMP/out")'"
cat "$TMP/escaped.jsonl" | /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" check /dev/stdin >"$TMP/out" 2>"$TMP/err"
rss_kb=$(tail -n 1 "$TMP/rss")
echo "piped check : peak RSS $((rss_kb / 1024)) MB for a $((long_bytes / 1024 / 1024)) MB file"
[ "$rss_kb" -le "$long_limit_kb" ] || fail "escaped name piped check: peak RSS ${rss_kb} KB, more than the file plus 8 MB"
rm -f "$TMP/escaped.jsonl"

# A 50 MB value of an enumeration that names no variant: the message quotes all of it
# (§"Enumeration members"), so it is held once, by the message: the line's pages are given
# back behind the copy, which keeps within the file plus 14 MB from a file and from a pipe. It was
# built through temporaries, copied for the strict error, kept whole by the stored (cut)
# problem, copied to add the line prefix, and again to print or to escape for JSON: 5.3 times
# the file in check, 7.3 in check --all --json; then the line and the message were alive
# together (twice the file).
kinds=50000000
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":"'
  head -c "$kinds" /dev/zero | tr '\0' k; printf '"}\n'; echo "$TERMINAL"; } >"$TMP/variant.jsonl"
head_text="error: parse trace JSONL line 2 from $TMP/variant.jsonl: unknown variant \`kkk"
tail_text="kkk\`, expected one of \`function\`, \`op\`, \`module\`"
for args in "check" "check --all --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/variant.jsonl" $args "$TMP/variant.jsonl"
  near_file "$TMP/variant.jsonl" "unknown variant $args"
  [ "$(head -c ${#head_text} "$TMP/err")" = "$head_text" ] && [ "$(tail -c $((${#tail_text} + 1)) "$TMP/err")" = "$tail_text" ] \
    && [ "$(stat -c %s "$TMP/err")" -eq $((${#head_text} - 3 + kinds + ${#tail_text} - 3 + 1)) ] \
    || fail "unknown variant $args: error line '$(head -c 200 "$TMP/err")' of $(stat -c %s "$TMP/err") bytes"
  # The line's pages read as zeros once given back: none of them may have been copied so.
  [ "$(tr -d '\000' <"$TMP/err" | wc -c)" -eq "$(stat -c %s "$TMP/err")" ] || fail "unknown variant $args: NUL bytes in the message"
done
cat "$TMP/variant.jsonl" | /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" check /dev/stdin >/dev/null 2>&1
last_rss_kb=$(tail -n 1 "$TMP/rss")
echo "piped check : peak RSS $((last_rss_kb / 1024)) MB for a $(($(stat -c %s "$TMP/variant.jsonl") / 1024 / 1024)) MB file"
near_file "$TMP/variant.jsonl" "unknown variant piped check"
grep -q "\"message\":\"parse trace JSONL line 2 from $TMP/variant.jsonl: unknown variant \`kkk.*k… \[$((17 + kinds + ${#tail_text} - 3 - 65536)) more bytes not shown\]\"" "$TMP/out" \
  || fail "unknown variant --json: the listed problem's message is not cut as before"
rm -f "$TMP/variant.jsonl"

# A span started with a 20 MB id and ended in the second half of the file: the reader's second
# segment does not know the id, so it keeps its text for the merge to look up. It is kept in
# the line's block that the string table had taken over, not copied beside it (1.5 times the
# file from a file, not piped, which reads in one segment).
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"'; head -c 20000000 /dev/zero | tr '\0' i
  printf '","name":"n","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"'
  head -c 20000000 /dev/zero | tr '\0' i; printf '","duration_ns":1}\n'; echo "$TERMINAL"; } >"$TMP/ids.jsonl"
for args in "check" "check --all --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/ids.jsonl" $args "$TMP/ids.jsonl"
  near_file "$TMP/ids.jsonl" "long ids $args"
done
grep -q '"verdict":"valid","error":null' "$TMP/out" || fail "long ids --json: verdict '$(head -c 300 "$TMP/out")'"
cat "$TMP/ids.jsonl" | /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" check /dev/stdin >"$TMP/out" 2>&1
last_rss_kb=$(tail -n 1 "$TMP/rss")
echo "piped check : peak RSS $((last_rss_kb / 1024)) MB for a $(($(stat -c %s "$TMP/ids.jsonl") / 1024 / 1024)) MB file"
near_file "$TMP/ids.jsonl" "long ids piped check"
grep -qx "/dev/stdin: valid (.*, 4 records)" "$TMP/out" || fail "long ids piped: verdict '$(head -c 300 "$TMP/out")'"
rm -f "$TMP/ids.jsonl"

# One unclosed span with a 30 MB id: its health finding (H-SPAN-UNCLOSED) quotes the id, cut
# in the stored problem. The cut message is built from the interned id and the id is not
# copied as the finding's related id (a cut id names no record): the id is held once. The
# whole message and the related id each copied it (3.2 times the file).
ids=30000000
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"'; head -c "$ids" /dev/zero | tr '\0' i
  printf '","name":"n","start_ns":0,"span_kind":"function"}\n'; echo "$TERMINAL"; } >"$TMP/unclosed.jsonl"
for args in "check --all" "check --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/unclosed.jsonl" $args "$TMP/unclosed.jsonl"
  near_file "$TMP/unclosed.jsonl" "unclosed long id $args"
done
grep -q "\"rule\":\"H-SPAN-UNCLOSED\",\"code\":\"open_span\",\"message\":\"span \`iii*i… \[$((ids + 22 - 65536)) more bytes not shown\]\",\"stage\":\"health\"" \
  "$TMP/out" || fail "unclosed long id --json: the finding is not cut as before"
rm -f "$TMP/unclosed.jsonl"

# Two span_ends of unknown spans with 15 MB ids: the first one's message, the strict error, is
# kept whole (check prints it); the listed problems get cut messages built from the id, and
# no id is copied as a related id (a cut id names no record). So the ids are held once and
# the first message once more: the file plus one id. Copies of the message and the id for
# the first error and the list took 5.4 times the file (4 times after the other fixes).
ids=15000000
{ head -n 1 "$VALID"; printf '{"kind":"span_end","id":"'; head -c "$ids" /dev/zero | tr '\0' i
  printf '","duration_ns":1}\n{"kind":"span_end","id":"'; head -c "$ids" /dev/zero | tr '\0' j
  printf '","duration_ns":1}\n'; echo "$TERMINAL"; } >"$TMP/ends.jsonl"
for args in "check" "check --all --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/ends.jsonl" $args "$TMP/ends.jsonl"
  [ "$last_rss_kb" -le $((($(stat -c %s "$TMP/ends.jsonl") + ids + 14 * 1024 * 1024) / 1024)) ] \
    || fail "unknown long span_end ids $args: peak RSS ${last_rss_kb} KB, more than the file plus one id plus 14 MB"
done
grep -q "\"rule\":\"E-SPAN-END-UNKNOWN\",.*\"message\":\"span_end for unknown span \`jjj*j… \[$((ids + 39 - 65536)) more bytes not shown\]\"" \
  "$TMP/out" || fail "unknown long span_end ids --json: the second problem is not cut as before"
"$CT" check "$TMP/ends.jsonl" 2>"$TMP/err" >/dev/null
[ "$(head -n 1 "$TMP/err" | wc -c)" -eq $((ids + 47)) ] || fail "unknown long span_end ids: the strict error is not printed whole"
rm -f "$TMP/ends.jsonl"

# One span_end of an unknown span with a 120 MB id: the strict error quotes the id whole. The id
# was not interned (no earlier line named it) and is read only for that message, so its pages
# are given back behind the copy: the id is held once, by the message, within the file plus
# 14 MB from a file and from a pipe. The id's block and the message were alive together (twice
# the file).
ids=120000000
{ head -n 1 "$VALID"; printf '{"kind":"span_end","id":"'; head -c "$ids" /dev/zero | tr '\0' i
  printf '","duration_ns":1}\n'; echo "$TERMINAL"; } >"$TMP/end.jsonl"
head_text="error: span_end for unknown span \`iii"
tail_text="iii\` at index 1"
for args in "check" "check --all" "check --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/end.jsonl" $args "$TMP/end.jsonl"
  near_file "$TMP/end.jsonl" "unknown span_end with a long id $args"
  [ "$args" = "check --json" ] && continue
  [ "$(head -c ${#head_text} "$TMP/err")" = "$head_text" ] && [ "$(head -n 1 "$TMP/err" | tail -c $((${#tail_text} + 1)))" = "$tail_text" ] \
    && [ "$(head -n 1 "$TMP/err" | wc -c)" -eq $((ids + 47)) ] \
    || fail "unknown span_end with a long id $args: error line '$(head -c 200 "$TMP/err")' of $(head -n 1 "$TMP/err" | wc -c) bytes"
  # Given-back pages read as zeros: none of them may have been copied so.
  [ "$(tr -d '\000' <"$TMP/err" | wc -c)" -eq "$(stat -c %s "$TMP/err")" ] || fail "unknown span_end with a long id $args: NUL bytes in the message"
done
grep -q "\"rule\":\"E-SPAN-END-UNKNOWN\",.*\"message\":\"span_end for unknown span \`iii*i… \[$((ids + 39 - 65536)) more bytes not shown\]\"" \
  "$TMP/out" || fail "unknown span_end with a long id --json: the listed problem is not cut as before"
cat "$TMP/end.jsonl" | /usr/bin/time -f '%M' -o "$TMP/rss" "$CT" check /dev/stdin >/dev/null 2>"$TMP/err"
last_rss_kb=$(tail -n 1 "$TMP/rss")
echo "piped check : peak RSS $((last_rss_kb / 1024)) MB for a $(($(stat -c %s "$TMP/end.jsonl") / 1024 / 1024)) MB file"
near_file "$TMP/end.jsonl" "unknown span_end with a long id piped check"
[ "$(head -n 1 "$TMP/err" | wc -c)" -eq $((ids + 47)) ] || fail "unknown span_end with a long id piped: error line of $(head -n 1 "$TMP/err" | wc -c) bytes"
rm -f "$TMP/end.jsonl"

# Type errors and unknown enumeration keys quote a 60 MB string value whole (§5.4, §5.5): a
# string for a u64 member, an unknown key of an enumeration's object form, a string for its
# unit value, and a line that is one JSON string. Each message is built at its final size and
# the line's pages are given back behind the copy, so the value is held once (within the file
# plus 14 MB); the copies made for the description, the key and the concatenations took 3 to
# 5 times the file.
values=60000000
value_case() { # name, byte, line head, line tail, message head (after the path), message tail
  { head -n 1 "$VALID"; printf '%s' "$3"; head -c "$values" /dev/zero | tr '\0' "$2"; printf '%s\n' "$4"; echo "$TERMINAL"; } \
    >"$TMP/$1.jsonl"
  local head_text="error: parse trace JSONL line 2 from $TMP/$1.jsonl: $5" tail_text=$6 args
  for args in "check" "check --json"; do
    # shellcheck disable=SC2086
    bounded "$TMP/$1.jsonl" $args "$TMP/$1.jsonl"
    near_file "$TMP/$1.jsonl" "$1 $args"
    [ "$(head -c ${#head_text} "$TMP/err")" = "$head_text" ] \
      && [ "$(head -n 1 "$TMP/err" | tail -c $((${#tail_text} + 1)))" = "$tail_text" ] \
      && [ "$(head -n 1 "$TMP/err" | wc -c)" -eq $((${#head_text} + values + ${#tail_text} + 1)) ] \
      || fail "$1 $args: error line '$(head -c 200 "$TMP/err")' of $(head -n 1 "$TMP/err" | wc -c) bytes"
    [ "$(tr -d '\000' <"$TMP/err" | wc -c)" -eq "$(stat -c %s "$TMP/err")" ] || fail "$1 $args: NUL bytes in the message"
  done
  rm -f "$TMP/$1.jsonl"
}
value_case string-for-u64 n '{"kind":"span_start","id":"s","name":"n","start_ns":"' '","span_kind":"function"}' \
  'invalid type: string "' '", expected u64'
value_case unknown-enum-key k '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":{"' '":null}}' \
  'unknown variant `' '`, expected one of `function`, `op`, `module`'
value_case string-for-unit u '{"kind":"span_start","id":"s","name":"n","start_ns":0,"span_kind":{"function":"' '"}}' \
  'invalid type: string "' '", expected unit'
value_case scalar-line q '"' '"' 'invalid type: string "' "\", expected internally tagged enum TraceEvent at line 1 column $((values + 2))"

# The same for a string of escapes where a number belongs: it is unescaped over its own bytes
# in the line, the escaped bytes past the unescaped text are given back, and the message is
# made at its final size (quoting lengthens `\n` again) with the text's pages given back
# behind the copy: held once, within the file plus 14 MB. It was unescaped into a scratch
# buffer beside the line and the message grew by doubling: 2.46 times the file with 60 MB of
# `\n`, 1.65 with 60 MB of `\u00e9`.
escaped_case() { # name, escape in the line, how many, the character as the message quotes it
  local file=$TMP/$1.jsonl unit_bytes
  { head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"n","start_ns":"'
    yes -- "$2" | tr -d '\n' | head -c $(($3 * ${#2})); printf '","span_kind":"function"}\n'; echo "$TERMINAL"; } >"$file"
  unit_bytes=$(printf '%s' "$4" | wc -c)
  { printf 'error: parse trace JSONL line 2 from %s: invalid type: string "' "$file"
    yes -- "$4" | tr -d '\n' | head -c $(($3 * unit_bytes)); printf '", expected u64\n'; } >"$TMP/expected"
  for args in "check" "check --json"; do
    # shellcheck disable=SC2086
    bounded "$file" $args "$file"
    near_file "$file" "$1 $args"
    cmp -s "$TMP/err" "$TMP/expected" || fail "$1 $args: error line '$(head -c 200 "$TMP/err")' of $(wc -c <"$TMP/err") bytes"
  done
  rm -f "$file" "$TMP/expected"
}
escaped_case escaped-newlines '\n' 30000000 '\n'
escaped_case escaped-e-acute '\u00e9' 10000000 'é'

# An unknown span_end whose 60 MB id lies in the reader's second segment (the first holds a
# 70 MB span name; a file from 16 MB on is read in two): that segment keeps the id in the
# line's block for the merge to look up, and the merge moves the block on with the id instead
# of copying it (1.46 times the file): the id is held once, by the strict error's message.
ids=60000000
{ head -n 1 "$VALID"; printf '{"kind":"span_start","id":"s","name":"'; head -c 70000000 /dev/zero | tr '\0' n
  printf '","start_ns":0,"span_kind":"function"}\n{"kind":"span_end","id":"s","duration_ns":1}\n{"kind":"span_end","id":"'
  head -c "$ids" /dev/zero | tr '\0' i; printf '","duration_ns":1}\n'; echo "$TERMINAL"; } >"$TMP/late.jsonl"
{ printf 'error: span_end for unknown span `'; head -c "$ids" /dev/zero | tr '\0' i; printf '` at index 3\n'; } >"$TMP/expected"
for args in "check" "check --all" "check --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/late.jsonl" $args "$TMP/late.jsonl"
  near_file "$TMP/late.jsonl" "late unknown span_end $args"
  head -n 1 "$TMP/err" | cmp -s - "$TMP/expected" || fail "late unknown span_end $args: error line '$(head -c 200 "$TMP/err")'"
done
grep -q "\"rule\":\"E-SPAN-END-UNKNOWN\",.*\"message\":\"span_end for unknown span \`iii*i… \[$((ids + 39 - 65536)) more bytes not shown\]\"" \
  "$TMP/out" || fail "late unknown span_end --json: the listed problem is not cut as before"
rm -f "$TMP/late.jsonl" "$TMP/expected"

# A meta record with a 60 MB unsupported schema, which the strict error E-SCHEMA-UNSUPPORTED
# quotes whole: the schema is copied out of its line giving the line's pages back behind the
# copy, and the message takes it over from the meta when it is made (the meta keeps its first
# bytes, TraceMeta::schemaBytesNotKept): held once. The line and the copy, then the copy and
# the message, were alive together (twice the file).
schema=60000000
meta=$(head -n 1 "$VALID")
{ printf '%s' "${meta%%\"schema\":*}\"schema\":\""; head -c "$schema" /dev/zero | tr '\0' s
  printf '%s\n' "\",${meta#*\"schema\":\"*\",}"; echo "$TERMINAL"; } >"$TMP/schema.jsonl"
schema_tail='"; expected "candle-graph/trace/10" or "candle-graph/trace/9"'
{ printf 'error: unsupported trace schema "'; head -c "$schema" /dev/zero | tr '\0' s; printf '%s\n' "$schema_tail"; } >"$TMP/expected"
for args in "check" "check --all" "check --json"; do
  # shellcheck disable=SC2086
  bounded "$TMP/schema.jsonl" $args "$TMP/schema.jsonl"
  near_file "$TMP/schema.jsonl" "unsupported schema $args"
  head -n 1 "$TMP/err" | cmp -s - "$TMP/expected" || fail "unsupported schema $args: error line '$(head -c 200 "$TMP/err")'"
  [ "$args" = "check --all" ] && { grep -q "^$TMP/schema.jsonl:1: error\[E-SCHEMA-UNSUPPORTED\]: unsupported trace schema \"sss*s… \[$((26 + schema + ${#schema_tail} - 65536)) more bytes not shown\]\$" "$TMP/out" \
    || fail "unsupported schema --all: the listed problem is not cut as before"; }
done
rm -f "$TMP/schema.jsonl" "$TMP/expected"

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
