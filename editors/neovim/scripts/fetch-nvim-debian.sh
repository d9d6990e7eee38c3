#!/usr/bin/env bash
# Fetches a newer Neovim than Debian 12 ships (trixie = 0.10.x, sid = 0.12.x)
# without touching the system's apt configuration or libc: a private apt
# state directory, `apt-get download` of nvim and its direct library
# dependencies (that suite's libc6 included), `dpkg-deb -x` into a prefix,
# and patchelf so nvim uses the prefix's dynamic loader and libraries.
# Language servers started by nvim run with the system libc as usual.
#
# Usage: fetch-nvim-debian.sh SUITE DEST  ->  DEST/nvim (wrapper script)
# Idempotent: a DEST/nvim that runs is kept.
set -euo pipefail
SUITE=${1:?suite: trixie or sid}
DEST=$(realpath -m "${2:?destination directory}")
if [ -x "$DEST/nvim" ] && "$DEST/nvim" --version >/dev/null 2>&1; then
  "$DEST/nvim" --version | head -1
  exit 0
fi
command -v patchelf >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq patchelf >/dev/null
rm -rf "$DEST"
mkdir -p "$DEST/apt/lists/partial" "$DEST/apt/cache/archives/partial" "$DEST/debs" "$DEST/root"
# The system's Debian mirror, read from its deb822 or one-line sources.
MIRROR=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$MIRROR" ]; then
  MIRROR=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" >"$DEST/apt/sources.list"
A=(-o "Dir::Etc::sourcelist=$DEST/apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$DEST/apt/lists" -o "Dir::Cache=$DEST/apt/cache")
apt-get update -qq "${A[@]}"
V=$(apt-cache "${A[@]}" policy neovim | awk '/Candidate:/{print $2}')
DEPS=$(apt-cache "${A[@]}" show "neovim=$V" | awk '/^Depends:/{print; exit}' | sed 's/^Depends://; s/([^)]*)//g; s/|[^,]*//g; s/,/ /g')
(
  cd "$DEST/debs"
  # shellcheck disable=SC2086 # DEPS is a list of package names
  apt-get download -qq "${A[@]}" "neovim=$V" $DEPS libgcc-s1 libluajit-5.1-common 2>&1 | grep -v '^W: Download is performed unsandboxed' || true
)
for d in "$DEST"/debs/*.deb; do dpkg-deb -x "$d" "$DEST/root"; done
L="$DEST/root/usr/lib/x86_64-linux-gnu"
patchelf --set-interpreter "$L/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$L" "$DEST/root/usr/bin/nvim"
cat >"$DEST/nvim" <<WRAP
#!/bin/sh
export VIMRUNTIME="$DEST/root/usr/share/nvim/runtime"
exec "$DEST/root/usr/bin/nvim" "\$@"
WRAP
chmod +x "$DEST/nvim"
"$DEST/nvim" --version | head -1
