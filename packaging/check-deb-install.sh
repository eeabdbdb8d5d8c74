#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs a built .deb on THIS machine with apt, checks that the dpkg triggers of
# shared-mime-info, desktop-file-utils and hicolor-icon-theme refreshed the system databases,
# then removes the package again and checks that the databases forgot it. Changes the system:
# run it by hand on a test machine or container (root or sudo), not from ctest. apt also
# installs the package's Recommends (qt6-wayland...); they stay after the removal.
# Usage: packaging/check-deb-install.sh build/release/candle-trace-inspector_*.deb
set -euo pipefail
deb=$(realpath "${1:?usage: check-deb-install.sh PACKAGE.deb}")
app_id=io.github.candle_graph.trace_inspector
type=application/x-candle-trace+jsonl
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
for tool in update-mime-database update-desktop-database gio; do
  command -v "$tool" >/dev/null || fail "$tool is missing: install shared-mime-info, desktop-file-utils, libglib2.0-bin first"
done
dpkg-query -W -f='${Status}' candle-trace-inspector 2>/dev/null | grep -q "install ok installed" &&
  fail "candle-trace-inspector is already installed; remove it first"

trace=$(mktemp -d)/run.jsonl
trap 'rm -rf "$(dirname "$trace")"' EXIT
mime_type() { GIO_USE_VFS=local XDG_DATA_DIRS=/usr/local/share:/usr/share gio info -a standard::content-type "$1" | sed -n 's/^ *standard::content-type: //p'; }

DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "$deb" 2>&1 | tee "$(dirname "$trace")/apt.log" | grep -E "^(Setting up|Processing triggers)" || true
grep -q "Processing triggers for shared-mime-info" "$(dirname "$trace")/apt.log" || fail "shared-mime-info's trigger did not run"
grep -q "Processing triggers for desktop-file-utils" "$(dirname "$trace")/apt.log" || fail "desktop-file-utils' trigger did not run"
[ -f "/usr/share/mime/application/x-candle-trace+jsonl.xml" ] || fail "update-mime-database did not write the type"
grep -q "^$type" /usr/share/mime/types || fail "/usr/share/mime/types does not list $type"
grep -q "^$type=.*$app_id.desktop" /usr/share/applications/mimeinfo.cache || fail "mimeinfo.cache does not list $app_id.desktop"
cp /usr/share/candle-trace-inspector/sample-trace.jsonl "$trace"
[ "$(mime_type "$trace")" = "$type" ] || fail "the installed sample copied to run.jsonl is $(mime_type "$trace")"
[ "$(candle-trace-inspector --version)" != "" ] || fail "candle-trace-inspector --version"
ok "installed: triggers ran, $type known to the MIME database, $app_id.desktop in mimeinfo.cache, run.jsonl typed $type"

DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y candle-trace-inspector 2>&1 | tee "$(dirname "$trace")/apt.log" | grep -E "^(Removing|Processing triggers)" || true
[ ! -e "/usr/share/mime/application/x-candle-trace+jsonl.xml" ] || fail "the MIME database still has the type after removal"
if grep -q "$app_id.desktop" /usr/share/applications/mimeinfo.cache 2>/dev/null; then fail "mimeinfo.cache still lists $app_id.desktop"; fi
[ "$(mime_type "$trace")" != "$type" ] || fail "run.jsonl is still typed $type after removal"
ok "removed: the databases forgot the type and the desktop file"
