#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs what is missing, builds the release configuration and opens the inspector on
# the bundled sample trace (or on the files given as arguments).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
if [ "$#" -eq 0 ]; then
  set -- resources/sample-trace.jsonl
fi
exec build/release/app/gui/candle-trace-inspector "$@"
