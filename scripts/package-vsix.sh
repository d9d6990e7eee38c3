#!/usr/bin/env bash
# Packages the VS Code extension for one platform around a binary the
# release build made: GoReleaser runs it after each build (.goreleaser.yaml,
# builds[].hooks.post). The linux/amd64 run also packages the universal
# VSIX (no binary). Builds run in parallel and the packaging shares the
# extension folder, so runs take a lock.
#
#   scripts/package-vsix.sh GOOS GOARCH BINARY [OUTDIR]    (OUTDIR: dist/vsix)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
goos=$1 goarch=$2 binary=$(realpath "$3") out=$(realpath -m "${4:-dist/vsix}")
case $goos in
  linux | darwin) os=$goos ;;
  windows) os=win32 ;;
  *) echo "package-vsix: no VS Code target for $goos" >&2; exit 2 ;;
esac
case $goarch in
  amd64) arch=x64 ;;
  arm64) arch=arm64 ;;
  *) echo "package-vsix: no VS Code target for $goarch" >&2; exit 2 ;;
esac
universal=--no-universal
[ "$os-$arch" = linux-x64 ] && universal=
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
cd editors/vscode
node scripts/package.mjs --target "$os-$arch" --binary "$binary" $universal --out "$out" >"$out/$os-$arch.log" 2>&1 ||
  { cat "$out/$os-$arch.log" >&2; exit 1; }
