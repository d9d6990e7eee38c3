#!/usr/bin/env bash
# Step 1 of the GitHub Action (action.yml): puts blueprint-ls on the PATH.
# Downloads the release archive for the runner's OS and architecture,
# checks it against the release's checksums.txt, unpacks it into
# $RUNNER_TEMP and adds that to $GITHUB_PATH. With BLUEPRINT_LS_BINARY set,
# uses that binary instead (a self-built one, or the local build
# scripts/test-action.sh tests with).
#
# Environment: RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH (set by the
# runner); BLUEPRINT_LS_VERSION (a tag such as v0.1.0, or latest);
# BLUEPRINT_LS_DOWNLOAD_BASE (default: the repository's releases; any URL
# curl reads, file:// included).
set -euo pipefail
version=${BLUEPRINT_LS_VERSION:-latest}
base=${BLUEPRINT_LS_DOWNLOAD_BASE:-https://github.com/blueprint-ls/blueprint-ls/releases}
dest="${RUNNER_TEMP:?}/blueprint-ls-bin"
mkdir -p "$dest"

exe=blueprint-ls
[ "${RUNNER_OS:-}" = Windows ] && exe=blueprint-ls.exe

if [ -n "${BLUEPRINT_LS_BINARY:-}" ]; then
	cp "$BLUEPRINT_LS_BINARY" "$dest/$exe"
else
	case "${RUNNER_OS:?}" in
		Linux) os=linux ext=tar.gz ;;
		macOS) os=darwin ext=tar.gz ;;
		Windows) os=windows ext=zip ;;
		*) echo "::error::blueprint-ls: no release for runner OS $RUNNER_OS" >&2; exit 1 ;;
	esac
	case "${RUNNER_ARCH:?}" in
		X64) arch=amd64 ;;
		ARM64) arch=arm64 ;;
		*) echo "::error::blueprint-ls: no release for runner architecture $RUNNER_ARCH" >&2; exit 1 ;;
	esac
	if [ "$version" = latest ]; then
		url="$base/latest/download"
	else
		url="$base/download/$version"
	fi
	archive="blueprint-ls_${os}_${arch}.$ext"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "downloading $url/$archive"
	curl -fsSL --retry 3 -o "$tmp/$archive" "$url/$archive"
	curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$url/checksums.txt"
	want=$(awk -v f="$archive" '$2 == f {print $1}' "$tmp/checksums.txt")
	[ -n "$want" ] || { echo "::error::blueprint-ls: $archive is not in checksums.txt" >&2; exit 1; }
	if command -v sha256sum >/dev/null; then
		have=$(sha256sum "$tmp/$archive" | cut -d' ' -f1)
	else
		have=$(shasum -a 256 "$tmp/$archive" | cut -d' ' -f1)
	fi
	[ "$want" = "$have" ] || { echo "::error::blueprint-ls: checksum mismatch for $archive" >&2; exit 1; }
	if [ "$ext" = zip ]; then
		unzip -q -o "$tmp/$archive" "$exe" -d "$dest"
	else
		tar -xzf "$tmp/$archive" -C "$dest" "$exe"
	fi
fi
chmod +x "$dest/$exe"
echo "$dest" >>"${GITHUB_PATH:?}"
"$dest/$exe" version
