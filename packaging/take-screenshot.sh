#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes resources/screenshots/main-window.png, the screenshot the AppStream metadata shows:
# the inspector's --screenshot mode on the bundled sample trace, under Xvfb, with default
# settings (a temporary config folder, so no saved layout of yours shows up).
# Usage: packaging/take-screenshot.sh [path/to/candle-trace-inspector]  (default: release build)
# Needs xvfb-run and xauth (Debian: xvfb, xauth).
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/release/app/gui/candle-trace-inspector}
[ -x "$exe" ] || { echo "take-screenshot.sh: $exe is not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "take-screenshot.sh: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
mkdir -p resources/screenshots
XDG_CONFIG_HOME=$config XDG_CACHE_HOME=$config/cache XDG_RUNTIME_DIR=$config LANG=C.UTF-8 QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$exe" --screenshot resources/screenshots/main-window.png resources/sample-trace.jsonl
echo "wrote resources/screenshots/main-window.png"
