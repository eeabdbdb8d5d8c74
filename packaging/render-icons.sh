#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Renders the application icon (resources/icons/candle-trace-inspector.svg) to the hicolor PNG
# sizes under resources/icons/hicolor/. The PNGs are committed: the build needs no SVG renderer,
# and the window icon (a Qt resource) and the installed theme icons are the same pictures.
# Run it after changing the SVG. Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rsvg-convert >/dev/null || { echo "render-icons.sh: rsvg-convert not found (apt-get install librsvg2-bin)" >&2; exit 1; }
svg=resources/icons/candle-trace-inspector.svg
id=io.github.candle_graph.trace_inspector
for size in 16 22 24 32 48 64 128 256 512; do
  dir=resources/icons/hicolor/${size}x${size}/apps
  mkdir -p "$dir"
  rsvg-convert --width "$size" --height "$size" --format png "$svg" --output "$dir/$id.png"
done
echo "rendered $(ls resources/icons/hicolor | wc -l) sizes from $svg"
