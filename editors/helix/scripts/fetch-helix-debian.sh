#!/usr/bin/env bash
# Fetches Helix (Debian's package hx: trixie = 25.01) for Debian 12, which
# has none, without touching the system's apt configuration or libc: a
# private apt state directory, `apt-get download` of hx and that suite's
# libc6 and libgcc-s1, `dpkg-deb -x` into a prefix, and patchelf so hx uses
# the prefix's dynamic loader and libraries. Debian's hx has no tree-sitter
# grammars (its README.Debian); the language server needs none.
#
# Usage: fetch-helix-debian.sh SUITE DEST  ->  DEST/hx (wrapper script)
# Idempotent: a DEST/hx that runs is kept.
set -euo pipefail
SUITE=${1:?suite: trixie or sid}
DEST=$(realpath -m "${2:?destination directory}")
if [ -x "$DEST/hx" ] && "$DEST/hx" --version >/dev/null 2>&1; then
  "$DEST/hx" --version
  exit 0
fi
command -v patchelf >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq patchelf >/dev/null
rm -rf "$DEST"
mkdir -p "$DEST/apt/lists/partial" "$DEST/apt/cache/archives/partial" "$DEST/debs" "$DEST/root"
MIRROR=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$MIRROR" ]; then
  MIRROR=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" >"$DEST/apt/sources.list"
A=(-o "Dir::Etc::sourcelist=$DEST/apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$DEST/apt/lists" -o "Dir::Cache=$DEST/apt/cache"
  -o "Dir::State::status=/dev/null")
apt-get update -qq "${A[@]}"
cd "$DEST/debs"
apt-get download -qq "${A[@]}" hx libc6 libgcc-s1 2>&1 | grep -v 'Download is performed unsandboxed' || true
for d in *.deb; do dpkg-deb -x "$d" "$DEST/root"; done
R=$DEST/root
L=$R/usr/lib/x86_64-linux-gnu
patchelf --set-interpreter "$L/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$L" "$R/usr/lib/hx/hx"
cat >"$DEST/hx" <<WRAP
#!/bin/sh
export HELIX_RUNTIME="$R/usr/lib/hx/runtime"
exec "$R/usr/lib/hx/hx" "\$@"
WRAP
chmod +x "$DEST/hx"
"$DEST/hx" --version
