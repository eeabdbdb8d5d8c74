#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The packages CPack makes from this build (what `--target package` runs): the .deb lists every
# file the desktop and the man reader need, under /usr, with control fields from the project
# and dependencies that dpkg-shlibdeps computed; the .tar.gz holds the same relocatable tree.
# Usage: package_contents.sh CPACK BUILD_DIR PROJECT_VERSION
# Exit 77 (skipped) with the reason when dpkg-deb or dpkg-shlibdeps is missing.
set -euo pipefail
cpack=$1 build=$2 version=$3
app_id=io.github.candle_graph.trace_inspector

skip() { echo "SKIPPED: $*" >&2; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
command -v dpkg-deb >/dev/null || skip "dpkg-deb is not installed (Debian package dpkg)"
command -v dpkg-shlibdeps >/dev/null ||
  skip "dpkg-shlibdeps is not installed (Debian package dpkg-dev; scripts/install-deps.sh installs it)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ti-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
"$cpack" --config "$build/CPackConfig.cmake" -B "$tmp" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log" >&2; fail "cpack"; }
shopt -s nullglob
debs=("$tmp"/candle-trace-inspector_"$version"_*.deb)
tgzs=("$tmp"/candle-trace-inspector-"$version"-*.tar.gz)
[ ${#debs[@]} = 1 ] || fail "expected one candle-trace-inspector_${version}_<arch>.deb, got: $(ls "$tmp")"
[ ${#tgzs[@]} = 1 ] || fail "expected one candle-trace-inspector-${version}-<system>.tar.gz, got: $(ls "$tmp")"
deb=${debs[0]} tgz=${tgzs[0]}
ok "cpack made $(basename "$deb") and $(basename "$tgz")"

expected=(
  bin/candle-trace
  bin/candle-trace-inspector
  share/applications/$app_id.desktop
  share/mime/packages/$app_id.xml
  share/metainfo/$app_id.metainfo.xml
  share/icons/hicolor/scalable/apps/$app_id.svg
  share/man/man1/candle-trace.1.gz
  share/man/man1/candle-trace-inspector.1.gz
  share/candle-trace-inspector/sample-trace.jsonl
)
for size in 16 22 24 32 48 64 128 256 512; do
  expected+=("share/icons/hicolor/${size}x${size}/apps/$app_id.png")
done

listing=$(dpkg-deb -c "$deb")
files=$(awk '$1 !~ /^d/ { print $6 }' <<<"$listing")
for f in "${expected[@]}"; do
  grep -qxF "./usr/$f" <<<"$files" || fail "the .deb lacks /usr/$f"
done
outside=$(grep -v '^\./usr/' <<<"$files" || true)
[ -z "$outside" ] || fail "the .deb installs outside /usr: $outside"
owners=$(awk '{ print $2 }' <<<"$listing" | sort -u)
[ "$owners" = root/root ] || fail "the .deb has files not owned by root: $owners"
for exe in candle-trace candle-trace-inspector; do
  grep -E "^-rwxr-xr-x .* \./usr/bin/$exe\$" <<<"$listing" >/dev/null || fail "/usr/bin/$exe is not mode 755"
done
ok "dpkg-deb -c lists all ${#expected[@]} files, everything under /usr, owned by root"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = candle-trace-inspector ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), the project says $version"
[ "$(field Section)" = devel ] || fail "Section: $(field Section)"
grep -Eq '^.+ <[^ >]+@[^ >]+>$' <<<"$(field Maintainer)" || fail "Maintainer is not 'Name <address>': $(field Maintainer)"
[ -n "$(field Homepage)" ] || fail "no Homepage"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
# Computed by dpkg-shlibdeps from the executables: the C library, the C++ runtime and Qt.
names=$(tr ',|' '\n\n' <<<"$depends" | awk 'NF { print $1 }')
for lib in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6; do
  grep -qxF "$lib" <<<"$names" || fail "Depends lacks $lib: $depends"
done
ok "control: $(field Package) $(field Version), Section $(field Section), Depends: $depends"

tarfiles=$(tar -tzf "$tgz")
top=$(head -n 1 <<<"$tarfiles" | cut -d/ -f1)
for f in "${expected[@]}"; do
  grep -qxF "$top/$f" <<<"$tarfiles" || fail "the .tar.gz lacks $top/$f"
done
ok "the .tar.gz holds the same files under $top/"
