#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages the build, the tests, the packages and the GUI need, when missing.
# Usage: scripts/install-deps.sh [--sanitizers]
#   --sanitizers  also what the dev-asan and fuzz presets need: clang 14 with its runtime
#                 libraries (libFuzzer, ASan, UBSan) and llvm-symbolizer for readable reports
set -euo pipefail
packages=(
  cmake ninja-build g++ pkg-config python3
  qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
  nlohmann-json3-dev libssl-dev libgraphviz-dev
  # lupdate/lrelease and their CMake package (qt_add_translations)
  qt6-l10n-tools qt6-tools-dev
  # the style check (scripts/check-format.sh, ctest lint_format) and clang-tidy (.clang-tidy)
  clang-format-14 clang-tidy-14
  fonts-dejavu-core time
  # lld links the ci, dev-asan and fuzz presets (TI_LINKER, cmake/buildspeed.cmake): ~120 test
  # executables, each linked against the static libraries
  lld
  # the packaging tests (ctest -L packaging): MIME and desktop databases and their validators,
  # xdg-mime and gio as a desktop uses them, Xvfb to open a trace like a file manager, and
  # dpkg-shlibdeps for the .deb's dependencies
  shared-mime-info desktop-file-utils xdg-utils libglib2.0-bin appstream xvfb xauth dpkg-dev
)
for arg in "$@"; do
  case $arg in
    --sanitizers) packages+=(clang-14 libclang-rt-14-dev llvm-14) ;;
    *) echo "usage: $0 [--sanitizers]" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
