#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# candle-trace normalize -o OUT follows the output-file rules (README, "Output files"):
# never over its own input (also through standard input), writes through symlinks,
# refuses read-only targets unless --force, keeps owner and permissions, takes any file
# name the file system takes, and leaves OUT untouched and no temporary file behind on a
# full disk or a signal.
# Usage: bash output_rules.sh <candle-trace> <examples-dir>
set -u
CT=$(realpath "$1")
EXAMPLES=$2
VALID=$EXAMPLES/01_valid_trace10_forward.jsonl
NORMALIZED=$EXAMPLES/01_valid_trace10_forward.normalized
TMP=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
  chmod -R u+w "$TMP" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
no_temp_files() { ! ls -A "$1" | grep -q '^\.ct\.tmp-'; }

# The input through standard input is still the input (defect 4).
cp "$VALID" "$TMP/self.jsonl"
for how in "-" "/dev/stdin"; do
  "$CT" normalize "$how" -o "$TMP/self.jsonl" <"$TMP/self.jsonl" >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "normalize $how -o FILE < FILE: exit $rc, expected 2"
  grep -q '^error: normalize: refusing to write the output over the input file' "$TMP/err" \
    || fail "normalize $how -o FILE < FILE: '$(cat "$TMP/err")'"
  cmp -s "$TMP/self.jsonl" "$VALID" || fail "normalize $how -o FILE < FILE: the input was replaced"
done
ln -s self.jsonl "$TMP/self-link.jsonl"
"$CT" normalize - -o "$TMP/self-link.jsonl" <"$TMP/self.jsonl" >/dev/null 2>&1
[ $? -eq 2 ] || fail "normalize - -o LINK-TO-FILE < FILE: not refused"
cmp -s "$TMP/self.jsonl" "$VALID" || fail "normalize - -o LINK-TO-FILE < FILE: the input was replaced"
# A pipe is not the output file: that works.
cat "$VALID" | "$CT" normalize - -o "$TMP/from-pipe.jsonl" 2>"$TMP/err" || fail "cat | normalize - -o OUT: exit $? ($(cat "$TMP/err"))"
cmp -s "$TMP/from-pipe.jsonl" "$NORMALIZED" || fail "cat | normalize - -o OUT: output differs"

# Symlinks are written through: the link stays a link, its target gets the output.
printf 'old\n' >"$TMP/real.jsonl"
ln -s real.jsonl "$TMP/link.jsonl"
mkdir "$TMP/sub" && ln -s ../real.jsonl "$TMP/sub/rel-link.jsonl" && ln -s "$TMP/link.jsonl" "$TMP/link2.jsonl"
for link in "$TMP/link.jsonl" "$TMP/sub/rel-link.jsonl" "$TMP/link2.jsonl"; do
  printf 'old\n' >"$TMP/real.jsonl"
  "$CT" normalize "$VALID" -o "$link" 2>"$TMP/err" || fail "-o $link: exit $? ($(cat "$TMP/err"))"
  [ -L "$link" ] || fail "-o $link: the symlink was replaced by a file"
  cmp -s "$TMP/real.jsonl" "$NORMALIZED" || fail "-o $link: the link's target does not hold the output"
done
no_temp_files "$TMP" && no_temp_files "$TMP/sub" || fail "symlinks: temporary file left"
ln -s nowhere.jsonl "$TMP/dangling.jsonl"
"$CT" normalize "$VALID" -o "$TMP/dangling.jsonl" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] || fail "-o DANGLING-LINK: not exit 2"
grep -q 'symbolic link to a file that does not exist' "$TMP/err" || fail "-o DANGLING-LINK: '$(cat "$TMP/err")'"
[ ! -e "$TMP/nowhere.jsonl" ] || fail "-o DANGLING-LINK: created the link's target"

# A read-only OUT is refused (it used to be replaced silently), unless --force; either way
# it keeps its permissions.
printf 'keep me\n' >"$TMP/ro.jsonl"
chmod 444 "$TMP/ro.jsonl"
"$CT" normalize "$VALID" -o "$TMP/ro.jsonl" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "read-only OUT: exit $rc, expected 2"
grep -q "^error: write $TMP/ro.jsonl: the file is read-only (use --force" "$TMP/err" || fail "read-only OUT: '$(cat "$TMP/err")'"
[ "$(cat "$TMP/ro.jsonl")" = "keep me" ] || fail "read-only OUT: modified"
"$CT" normalize "$VALID" -o "$TMP/ro.jsonl" --force 2>"$TMP/err" || fail "read-only OUT --force: exit $? ($(cat "$TMP/err"))"
cmp -s "$TMP/ro.jsonl" "$NORMALIZED" || fail "read-only OUT --force: not replaced"
[ "$(stat -c %a "$TMP/ro.jsonl")" = "444" ] || fail "read-only OUT --force: mode $(stat -c %a "$TMP/ro.jsonl")"

# Owner and group are kept (as root a replacement used to change them to root's).
if [ "$(id -u)" -eq 0 ]; then
  printf 'old\n' >"$TMP/owned.jsonl"
  chown 65534:65534 "$TMP/owned.jsonl"
  chmod 664 "$TMP/owned.jsonl"
  "$CT" normalize "$VALID" -o "$TMP/owned.jsonl" 2>"$TMP/err" || fail "other owner (root): exit $? ($(cat "$TMP/err"))"
  [ "$(stat -c %u:%g:%a "$TMP/owned.jsonl")" = "65534:65534:664" ] || fail "other owner: now $(stat -c %u:%g:%a "$TMP/owned.jsonl")"
  cmp -s "$TMP/owned.jsonl" "$NORMALIZED" || fail "other owner: content"
else
  echo "note: not root; the owner-keeping check needs a file of another user"
fi

# Any name the file system accepts works: the temporary name is short (a 255-byte OUT
# used to fail because the temporary name was longer still).
long=$(printf 'n%.0s' $(seq 249)).jsonl
"$CT" normalize "$VALID" -o "$TMP/$long" 2>"$TMP/err" || fail "255-byte OUT name: exit $? ($(cat "$TMP/err"))"
cmp -s "$TMP/$long" "$NORMALIZED" || fail "255-byte OUT name: content"
printf 'old\n' >"$TMP/$long"
"$CT" normalize "$VALID" -o "$TMP/$long" 2>/dev/null || fail "255-byte OUT name, replacing: exit $?"
cmp -s "$TMP/$long" "$NORMALIZED" || fail "255-byte OUT name, replacing: content"
no_temp_files "$TMP" || fail "temporary file left in $TMP"

# A FIFO OUT nobody reads is refused instead of waiting forever; with a reader it is written.
mkfifo "$TMP/out.fifo"
timeout 10 "$CT" normalize "$VALID" -o "$TMP/out.fifo" >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 2 ] || fail "-o FIFO without reader: exit $rc, expected 2"
grep -q 'no process is reading from this FIFO' "$TMP/err" || fail "-o FIFO without reader: '$(cat "$TMP/err")'"
cat "$TMP/out.fifo" >"$TMP/from-fifo" &
reader=$!
pids+=("$reader")
# The reader may not have reached its open() yet on a loaded machine (then normalize is
# rightly refused): try again for a while. A reader never met would block in open() for
# good, so it is killed rather than waited for.
written=0
for _ in $(seq 50); do
  timeout 10 "$CT" normalize "$VALID" -o "$TMP/out.fifo" 2>"$TMP/err" && { written=1; break; }
  grep -q 'no process is reading from this FIFO' "$TMP/err" || break
  sleep 0.2
done
if [ $written -eq 1 ]; then
  wait "$reader"
  cmp -s "$TMP/from-fifo" "$NORMALIZED" || fail "-o FIFO with reader: content"
else
  fail "-o FIFO with reader: '$(cat "$TMP/err")'"
  kill -KILL "$reader" 2>/dev/null
  wait "$reader" 2>/dev/null
fi

# A full disk: exit 2 with the OS reason, OUT untouched, no temporary file left. A small
# tmpfs in a private mount namespace where that works, /dev/full (written directly) always.
make_spans() { # count, output file: a valid trace of COUNT closed spans
  awk -v n="$1" 'NR == 1 { print; exit } END {
    for (i = 0; i < n; i++) printf "{\"kind\":\"span_start\",\"id\":\"s%d\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n", i
    for (i = 0; i < n; i++) printf "{\"kind\":\"span_end\",\"id\":\"s%d\",\"duration_ns\":1}\n", i
    print "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":1000}" }' "$VALID" >"$2"
}
make_spans 20000 "$TMP/spans.jsonl"
"$CT" check "$TMP/spans.jsonl" >/dev/null 2>&1 || fail "generated span trace is not valid"
mkdir "$TMP/small"
if unshare -rm true 2>/dev/null; then
  unshare -rm bash -c '
    mount -t tmpfs -o size=256k tmpfs "$1" || exit 77
    printf "keep me\n" >"$1/out.jsonl"
    "$2" normalize "$3" -o "$1/out.jsonl" >/dev/null 2>"$1/../enospc.err"
    echo $? >"$1/../enospc.rc"
    [ "$(cat "$1/out.jsonl")" = "keep me" ] && echo untouched >"$1/../enospc.out"
    ls -A "$1" >"$1/../enospc.ls"' _ "$TMP/small" "$CT" "$TMP/spans.jsonl"
  if [ -f "$TMP/enospc.rc" ]; then
    [ "$(cat "$TMP/enospc.rc")" = 2 ] || fail "ENOSPC on tmpfs: exit $(cat "$TMP/enospc.rc"), expected 2"
    grep -q "No space left on device" "$TMP/enospc.err" || fail "ENOSPC on tmpfs: '$(cat "$TMP/enospc.err")'"
    [ -f "$TMP/enospc.out" ] || fail "ENOSPC on tmpfs: OUT was modified"
    [ "$(cat "$TMP/enospc.ls")" = "out.jsonl" ] || fail "ENOSPC on tmpfs: left behind: $(cat "$TMP/enospc.ls")"
  else
    echo "note: cannot mount a tmpfs here; the full-disk check uses /dev/full only"
  fi
else
  echo "note: no private mount namespace here; the full-disk check uses /dev/full only"
fi
if [ -w /dev/full ]; then
  "$CT" normalize "$VALID" -o /dev/full >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc -eq 2 ] || fail "-o /dev/full: exit $rc, expected 2"
  grep -q '^error: write /dev/full: No space left on device' "$TMP/err" || fail "-o /dev/full: '$(cat "$TMP/err")'"
fi

# A signal during the write: the temporary file is removed, OUT is untouched. The process
# is stopped as soon as its temporary file appears, signalled, then continued.
signal_test() { # signal name
  local sig=$1 count=200000 attempt
  for attempt in 1 2 3; do
    make_spans "$count" "$TMP/sig-input.jsonl"
    printf 'keep me\n' >"$TMP/sig/out.jsonl"
    "$CT" normalize "$TMP/sig-input.jsonl" -o "$TMP/sig/out.jsonl" 2>/dev/null &
    local pid=$! seen=0
    pids+=("$pid")
    while kill -0 "$pid" 2>/dev/null; do
      if compgen -G "$TMP/sig/.ct.tmp-*" >/dev/null; then
        kill -STOP "$pid"
        seen=1
        break
      fi
    done
    if [ $seen -eq 1 ]; then
      compgen -G "$TMP/sig/.ct.tmp-*" >/dev/null || fail "SIG$sig: temporary file vanished while stopped"
      kill -"$sig" "$pid"
      kill -CONT "$pid"
      # -f: with job control on, a plain wait returns when the job changes state, so it
      # could take the stop above (status 147) while the handler was still removing the
      # temporary file, and the check below raced it (seen once on a loaded CI machine).
      { wait -f "$pid"; } 2>/dev/null # no job-control notice about the signal
      local rc=$?
      [ $rc -gt 128 ] || fail "SIG$sig: exit $rc, expected death by the signal"
      no_temp_files "$TMP/sig" || fail "SIG$sig: temporary file left: $(ls -A "$TMP/sig")"
      [ "$(cat "$TMP/sig/out.jsonl")" = "keep me" ] || fail "SIG$sig: OUT was modified"
      return
    fi
    wait "$pid"
    count=$((count * 4)) # it finished before its temporary file was seen
  done
  fail "SIG$sig: normalize never showed its temporary file"
}
mkdir "$TMP/sig"
# Job control on: a script's background jobs would otherwise ignore SIGINT from birth.
set -m
signal_test TERM
signal_test HUP
signal_test INT
set +m

if [ $failures -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all checks passed"
