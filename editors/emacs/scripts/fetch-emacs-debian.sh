#!/usr/bin/env bash
# Fetches a newer Emacs than Debian 12 ships (trixie = 30.1), with that
# suite's yaml-mode, without touching the system's apt configuration or
# libc: a private apt state directory, `apt-get download` of emacs-nox, its
# lisp and its library dependencies two levels down (that suite's libc6
# included), `dpkg-deb -x` into a prefix, and patchelf so the binary uses
# the prefix's dynamic loader and libraries. The binary goes where its
# native-compiled lisp is found (../native-lisp from it); a wrapper points
# it at the prefix's lisp, data and dump file, and leaves the system's
# site-start (Emacs 28's elpa packages) out. Processes it starts (the
# language server) run with the system libc as usual.
#
# Usage: fetch-emacs-debian.sh SUITE DEST  ->  DEST/emacs (wrapper script),
#        DEST/site-lisp/yaml-mode (for EMACS_PACKAGE_DIRS)
# Idempotent: a DEST/emacs that runs is kept.
set -euo pipefail
SUITE=${1:?suite: trixie or sid}
DEST=$(realpath -m "${2:?destination directory}")
if [ -x "$DEST/emacs" ] && "$DEST/emacs" --batch --eval '(kill-emacs 0)' >/dev/null 2>&1; then
  "$DEST/emacs" --version | head -1
  exit 0
fi
command -v patchelf >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq patchelf >/dev/null
rm -rf "$DEST"
mkdir -p "$DEST/apt/lists/partial" "$DEST/apt/cache/archives/partial" "$DEST/debs" "$DEST/root" "$DEST/site-lisp"
# The system's Debian mirror, read from its deb822 or one-line sources.
MIRROR=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$MIRROR" ]; then
  MIRROR=$(awk '$1 == "deb" && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
fi
MIRROR=${MIRROR:-http://deb.debian.org/debian}
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $SUITE main" >"$DEST/apt/sources.list"
A=(-o "Dir::Etc::sourcelist=$DEST/apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$DEST/apt/lists" -o "Dir::Cache=$DEST/apt/cache"
  -o "Dir::State::status=/dev/null")
apt-get update -qq "${A[@]}"
V=$(apt-cache "${A[@]}" policy emacs-nox | awk '/Candidate:/{print $2}')
[ -n "$V" ] && [ "$V" != "(none)" ] || { echo "no emacs-nox in $SUITE" >&2; exit 1; }
# deps PKG: the packages PKG depends on (first alternative, no versions).
deps() { apt-cache "${A[@]}" show "$1" 2>/dev/null | awk '/^Depends:/{print; exit}' | sed 's/^Depends://; s/([^)]*)//g; s/|[^,]*//g; s/,/ /g'; }
libs() { tr ' ' '\n' | grep -E '^(lib|zlib)' | grep -vE -- '-(dev|data|common)$' || true; }
L1=$(deps "emacs-nox=$V" | libs)
L2=$(for p in $L1; do deps "$p"; done | libs)
L3=$(for p in $L2; do deps "$p"; done | libs)
PKGS=$(printf '%s\n' $L1 $L2 $L3 libc6 libgcc-s1 | sort -u)
cd "$DEST/debs"
# shellcheck disable=SC2086
apt-get download -qq "${A[@]}" "emacs-nox=$V" "emacs-bin-common=$V" "emacs-common=$V" elpa-yaml-mode $PKGS 2>&1 |
  grep -v 'Download is performed unsandboxed' || true
for d in *.deb; do dpkg-deb -x "$d" "$DEST/root"; done
R=$DEST/root
L=$R/usr/lib/x86_64-linux-gnu
EV=$(ls "$R/usr/share/emacs" | grep -E '^[0-9]' | head -1)
BIN=$R/usr/lib/emacs/$EV/bin/emacs
mkdir -p "$(dirname "$BIN")"
cp "$R/usr/bin/emacs-nox" "$BIN"
patchelf --set-interpreter "$L/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$L" "$BIN"
EXEC=$(dirname "$(ls "$R"/usr/libexec/emacs/"$EV"/*/emacs-*.pdmp | head -1)")
PDMP=$(ls "$EXEC"/emacs-*.pdmp | head -1)
cp -r "$(ls -d "$R"/usr/share/emacs/site-lisp/elpa-src/yaml-mode-* | head -1)" "$DEST/site-lisp/yaml-mode"
cat >"$DEST/emacs" <<WRAP
#!/bin/sh
export EMACSLOADPATH="$R/usr/share/emacs/$EV/lisp:"
export EMACSDATA="$R/usr/share/emacs/$EV/etc" EMACSDOC="$R/usr/share/emacs/$EV/etc" EMACSPATH="$EXEC"
case "\$1" in --batch|-batch) first=\$1; shift; exec "$BIN" "\$first" --dump-file="$PDMP" --no-site-file "\$@";; esac
exec "$BIN" --dump-file="$PDMP" --no-site-file "\$@"
WRAP
chmod +x "$DEST/emacs"
"$DEST/emacs" --version | head -1
