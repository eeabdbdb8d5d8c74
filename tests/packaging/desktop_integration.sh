#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Desktop integration, checked the way a desktop sees an installed inspector:
#   - the build installs (cmake --install) into a temporary prefix, which becomes XDG_DATA_DIRS
#     next to nothing but the system's MIME database: no other application can interfere;
#   - update-mime-database and update-desktop-database run as the package triggers would;
#   - desktop-file-validate and appstreamcli validate --pedantic --no-net report nothing;
#   - xdg-mime (through gio, as in GNOME, Xfce, MATE, Cinnamon) and Qt's QMimeDatabase (KDE)
#     type traces named run.jsonl, run.trace.jsonl and run as ours, in compact and in Python's
#     spacing, and data sets or other JSON Lines files not; our desktop file is the default;
#   - a trace opened like a file manager does (gio open, under Xvfb) starts the inspector on
#     it: a test desktop file whose Exec adds --screenshot is made the default and the PNG it
#     writes is checked; a data set opened the same way starts nothing;
#   - --help and --version work without a display; icons, man pages and the sample are there.
# Usage: desktop_integration.sh CMAKE BUILD_DIR SOURCE_DIR PROJECT_VERSION MIMETYPEOF PYTHON
# (MIMETYPEOF: tests/packaging/mimetypeof.cpp, prints Qt's type of each file)
# Exit 77 (skipped) with the reason when a tool it needs is not installed.
set -euo pipefail
cmake=$1 build=$2 src=$3 version=$4 qt_mimetype=$5 python=${6:-}
app_id=io.github.candle_graph.trace_inspector
type=application/x-candle-trace+jsonl

skip() { echo "SKIPPED: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
need() {
  command -v "$1" >/dev/null 2>&1 ||
    skip "$1 is not installed (Debian package $2; scripts/install-deps.sh installs it)"
}
need update-mime-database shared-mime-info
need update-desktop-database desktop-file-utils
need desktop-file-validate desktop-file-utils
need xdg-mime xdg-utils
need gio libglib2.0-bin
need appstreamcli appstream
need xvfb-run xvfb
need xauth xauth
[ -n "$python" ] && "$python" -c '' 2>/dev/null ||
  skip "python3 was not found when the build was configured (it reads the screenshot PNG)"
[ -f /usr/share/mime/packages/freedesktop.org.xml ] ||
  skip "the system MIME database is missing (Debian package shared-mime-info)"
[ -x "$build/app/gui/candle-trace-inspector" ] || fail "the inspector is not built in $build"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ti-desktop.XXXXXX")
app_pid_file=$tmp/app.pid
cleanup() {
  # The inspector started by gio is ours: end it if a failed check left it running.
  if [ -s "$app_pid_file" ]; then kill "$(cat "$app_pid_file")" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
case $tmp in *[!A-Za-z0-9/._-]*) fail "temporary directory $tmp has characters a desktop Exec line would need quoted";; esac

# A /usr-like prefix, so that appstreamcli validate-tree can check the tree as a system's.
prefix=$tmp/root/usr
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; fail "cmake --install"; }
ok "installed into a temporary prefix"

# An isolated session: only the prefix and the system's MIME database are visible, no session
# bus (the test must not depend on one; CI has none), no display until Xvfb gives one.
mkdir -p "$tmp/home" "$tmp/config" "$tmp/config-dirs" "$tmp/data-home/applications" "$tmp/system" "$tmp/runtime"
chmod 700 "$tmp/runtime"
ln -s /usr/share/mime "$tmp/system/mime"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_CONFIG_DIRS=$tmp/config-dirs
export XDG_DATA_HOME=$tmp/data-home XDG_DATA_DIRS=$prefix/share:$tmp/system XDG_RUNTIME_DIR=$tmp/runtime
# xdg-mime asks gio in GNOME-like desktops; elsewhere it falls back to file(1), which knows
# nothing of shared-mime-info. GIO_USE_VFS=local keeps gio from looking for gvfs.
export XDG_CURRENT_DESKTOP=GNOME GIO_USE_VFS=local
export DBUS_SESSION_BUS_ADDRESS=unix:path=$tmp/runtime/no-session-bus
unset DISPLAY WAYLAND_DISPLAY QT_QPA_PLATFORM XDG_SESSION_TYPE

share=$prefix/share
for f in "applications/$app_id.desktop" "mime/packages/$app_id.xml" "metainfo/$app_id.metainfo.xml" \
         "icons/hicolor/scalable/apps/$app_id.svg" "man/man1/candle-trace.1.gz" \
         "man/man1/candle-trace-inspector.1.gz" "candle-trace-inspector/sample-trace.jsonl"; do
  [ -s "$share/$f" ] || fail "not installed: share/$f"
done
for exe in candle-trace candle-trace-inspector; do
  [ -x "$prefix/bin/$exe" ] || fail "not installed: bin/$exe"
done
for size in 16 22 24 32 48 64 128 256 512; do
  png=$share/icons/hicolor/${size}x${size}/apps/$app_id.png
  stats=$("$python" "$src/tests/packaging/pngstats.py" "$png") || fail "icon $png"
  read -r w h colours <<<"$stats"
  [ "$w" = "$size" ] && [ "$h" = "$size" ] && [ "$colours" -ge 4 ] ||
    fail "icon $png is ${w}x${h} with $colours colours, expected ${size}x${size}"
done
for page in candle-trace candle-trace-inspector; do
  gzip -cd "$share/man/man1/$page.1.gz" | grep -q "^\.TH ${page^^} 1 .*$version" ||
    fail "man page $page(1) has no .TH line naming version $version"
done
ok "executables, desktop file, MIME XML, metainfo, icons (9 PNG sizes and the SVG), man pages, sample"

# Validators: "clean" means no message at all, pedantic hints included.
out=$(desktop-file-validate "$share/applications/$app_id.desktop" 2>&1) && [ -z "$out" ] ||
  fail "desktop-file-validate: $out"
out=$(appstreamcli validate --pedantic --no-net --no-color "$share/metainfo/$app_id.metainfo.xml" 2>&1) ||
  fail "appstreamcli validate: $out"
if grep -Eq '^[EWIP]: ' <<<"$out"; then fail "appstreamcli validate --pedantic: $out"; fi
# The installed tree as a whole: the metainfo's launchable desktop file and icon are there.
out=$(appstreamcli validate-tree --pedantic --no-net --no-color "$tmp/root" 2>&1) || fail "appstreamcli validate-tree: $out"
if grep -Eq '^[EWIP]: ' <<<"$out"; then fail "appstreamcli validate-tree --pedantic: $out"; fi
ok "desktop-file-validate, appstreamcli validate and validate-tree (--pedantic) are clean"

# What the dpkg triggers of shared-mime-info and desktop-file-utils run after an install.
out=$(update-mime-database "$share/mime" 2>&1) && [ -z "$out" ] || fail "update-mime-database: $out"
[ -s "$share/mime/mime.cache" ] || fail "update-mime-database wrote no mime.cache"
update-desktop-database "$share/applications" || fail "update-desktop-database"
grep -q "^$type=.*$app_id.desktop" "$share/applications/mimeinfo.cache" ||
  fail "mimeinfo.cache does not list $app_id.desktop for $type"
ok "update-mime-database and update-desktop-database"

# Files typed by content and name.
data=$tmp/files
mkdir -p "$data"
sample=$share/candle-trace-inspector/sample-trace.jsonl
cp "$sample" "$data/run.jsonl"
cp "$sample" "$data/run.trace.jsonl"
cp "$sample" "$data/run"
# Python's json.dumps: ", " and ": " separators, members in a different order.
cat >"$data/python-style.jsonl" <<'EOF'
{"schema": "candle-graph/trace/9", "run_id": "r1", "kind": "meta", "tags": {}}
{"kind": "terminal", "outcome": "complete", "timestamp_ns": 1}
EOF
# A machine-learning data set, and JSON Lines that only look a little like a trace.
cat >"$data/data.jsonl" <<'EOF'
{"text": "The cat sat on the mat.", "label": 0}
{"text": "Traces are JSON Lines too.", "label": 1}
EOF
cat >"$data/other-meta.jsonl" <<'EOF'
{"kind":"meta","schema":"other-tool/log/1"}
{"kind":"event","name":"x"}
EOF
cat >"$data/schema-only.jsonl" <<'EOF'
{"kind":"op","schema":"candle-graph/trace/10"}
EOF
for f in run.jsonl run.trace.jsonl run python-style.jsonl; do
  got=$(xdg-mime query filetype "$data/$f")
  [ "$got" = "$type" ] || fail "xdg-mime query filetype $f: '$got', expected $type"
  got=$("$qt_mimetype" "$data/$f")
  [ "$got" = "$type" ] || fail "QMimeDatabase types $f '$got', expected $type"
  ok "$f is $type (xdg-mime and Qt)"
done
for f in data.jsonl other-meta.jsonl schema-only.jsonl; do
  got=$(xdg-mime query filetype "$data/$f")
  [ -n "$got" ] || fail "xdg-mime query filetype $f printed nothing"
  [ "$got" != "$type" ] || fail "$f is typed $type: a non-trace would open in the inspector"
  qt=$("$qt_mimetype" "$data/$f")
  [ -n "$qt" ] && [ "$qt" != "$type" ] || fail "QMimeDatabase types $f '$qt'"
  ok "$f is $got (Qt: $qt), not ours"
done
got=$(xdg-mime query filetype "$sample")
[ "$got" = "$type" ] || fail "the installed sample trace is '$got'"
got=$(xdg-mime query default "$type")
[ "$got" = "$app_id.desktop" ] || fail "xdg-mime query default $type: '$got', expected $app_id.desktop"
ok "xdg-mime query default $type is $app_id.desktop"

# No display needed for --help and --version.
help=$("$prefix/bin/candle-trace-inspector" --help 2>&1) || fail "candle-trace-inspector --help without a display: $help"
grep -q "Usage:" <<<"$help" || fail "--help printed no usage: $help"
got=$("$prefix/bin/candle-trace-inspector" --version 2>&1) || fail "candle-trace-inspector --version without a display: $got"
[ "$got" = "candle-trace-inspector $version" ] || fail "--version printed '$got'"
ok "--help and --version without a display"

# Double-click: a test desktop file, made the default for our type, runs the installed inspector
# with --screenshot on the file it is given.
shot=$tmp/opened.png
cat >"$XDG_DATA_HOME/applications/ti-screenshot-test.desktop" <<EOF
[Desktop Entry]
Type=Application
Name=Candle Trace Inspector (screenshot test)
Exec=$prefix/bin/candle-trace-inspector --screenshot $shot %f
MimeType=$type;
NoDisplay=true
EOF
out=$(desktop-file-validate "$XDG_DATA_HOME/applications/ti-screenshot-test.desktop" 2>&1) && [ -z "$out" ] ||
  fail "test desktop file: $out"
update-desktop-database "$XDG_DATA_HOME/applications"
xdg-mime default ti-screenshot-test.desktop "$type"
got=$(xdg-mime query default "$type")
[ "$got" = ti-screenshot-test.desktop ] || fail "the test desktop file did not become the default: '$got'"

cat >"$tmp/open.sh" <<'EOF'
# Runs under xvfb-run: opens like a file manager, waits for the screenshot and the app's exit.
set -u
data=$1 shot=$2 pid_file=$3 inspector=$4
# A data set must not start anything: no application is registered for it here.
if gio open "$data/data.jsonl" 2>"$data/gio-data.err"; then
  echo "FAIL: gio open data.jsonl found an application" >&2; exit 1
fi
gio open "$data/run.jsonl" || { echo "FAIL: gio open run.jsonl" >&2; exit 1; }
# The inspector gio started is the process whose argv[0] is the installed binary (a path in
# this test's temporary prefix); read without forking, so no helper matches itself.
find_app() {
  pid=
  local f arg0
  for f in /proc/[0-9]*/cmdline; do
    IFS= read -r -d '' arg0 <"$f" 2>/dev/null || continue
    if [ "$arg0" = "$inspector" ]; then pid=${f#/proc/}; pid=${pid%/cmdline}; return; fi
  done
}
for _ in $(seq 1 1200); do   # up to 120 s on a loaded machine
  find_app
  [ -n "$pid" ] && echo "$pid" >"$pid_file"
  if [ -z "$pid" ] && [ -s "$shot" ]; then exit 0; fi
  sleep 0.1
done
echo "FAIL: no finished screenshot after 120 s (inspector pid: ${pid:-none})" >&2
exit 1
EOF
xvfb-run -a -s "-screen 0 1600x1000x24" bash "$tmp/open.sh" "$data" "$shot" "$app_pid_file" \
    "$prefix/bin/candle-trace-inspector" || fail "opening with gio under Xvfb"
: >"$app_pid_file"
grep -q "Failed to find default application" "$data/gio-data.err" ||
  fail "gio open data.jsonl failed for another reason: $(cat "$data/gio-data.err")"
ok "gio open data.jsonl starts nothing ($(head -n 1 "$data/gio-data.err"))"
stats=$("$python" "$src/tests/packaging/pngstats.py" "$shot") || fail "the screenshot is no complete PNG"
read -r w h colours <<<"$stats"
[ "$w" = 1600 ] && [ "$h" = 1000 ] || fail "the screenshot is ${w}x${h}, expected the 1600x1000 window"
[ "$colours" -ge 16 ] || fail "the screenshot has only $colours colours: nothing was drawn"
ok "gio open run.jsonl started the inspector on it: ${w}x${h} screenshot with $colours sampled colours"
