#!/usr/bin/env bash
# Keeps the release path from rotting: installs GoReleaser (pinned, from the
# Go module proxy, cached), runs `goreleaser check` and a snapshot release
# of .goreleaser.yaml (everything a v* tag does except signing and
# publishing), checks what it made, and runs the GitHub Action's steps
# against the snapshot (scripts/test-action.sh).
#
#   scripts/test-release.sh
# Environment:
#   BLUEPRINT_TOOLS   where built tools are cached (default ~/.cache/blueprint-ls-tools)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GORELEASER_VERSION=v2.15.1
tools=${BLUEPRINT_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/blueprint-ls-tools}
bin="$tools/goreleaser-$GORELEASER_VERSION"
if [ ! -x "$bin/goreleaser" ]; then
	echo "installing goreleaser $GORELEASER_VERSION into $bin (a few minutes, once)"
	GOBIN="$bin" GOFLAGS=-mod=mod go install "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION"
fi
goreleaser="$bin/goreleaser"

# The VSIX packaging (scripts/package-vsix.sh) needs the extension's tools.
if [ ! -x editors/vscode/node_modules/.bin/vsce ]; then
	(cd editors/vscode && npm ci --no-audit --no-fund >/dev/null)
fi

passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

"$goreleaser" check && ok "goreleaser check" || bad "goreleaser check"
log=$(mktemp)
start=$(date +%s)
if "$goreleaser" release --snapshot --clean --skip=sign >"$log" 2>&1; then
	ok "goreleaser release --snapshot in $(($(date +%s) - start))s"
else
	bad "goreleaser release --snapshot"; tail -40 "$log"
fi
rm -f "$log"

for target in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64; do
	ext=tar.gz
	[[ $target == windows_* ]] && ext=zip
	a="dist/blueprint-ls_$target.$ext"
	if [ -f "$a" ] && grep -q " blueprint-ls_$target.$ext\$" dist/checksums.txt; then ok "$a, in checksums.txt"; else bad "$a missing or not in checksums.txt"; fi
	case $target in
		windows_*) vs=win32-${target#windows_} ;;
		*) vs=${target/_/-} ;;
	esac
	vs=${vs/amd64/x64}
	v=$(ls dist/vsix/blueprint-ls-"$vs"-*.vsix 2>/dev/null | head -1)
	if [ -n "$v" ] && grep -q " $(basename "$v")\$" dist/checksums.txt; then ok "$v, in checksums.txt"; else bad "no VSIX for $vs in dist/vsix or checksums.txt"; fi
done
u=$(ls dist/vsix/blueprint-ls-universal-*.vsix 2>/dev/null | head -1)
[ -n "$u" ] && ok "$u" || bad "no universal VSIX"
# checksums.txt names files by base name: the archives are in dist/, the
# VSIX files in dist/vsix/ (as the release page lists them all together).
if (cd dist && while read -r sum name; do
	f=$name
	[ -f "$f" ] || f=vsix/$name
	echo "$sum  $f"
done <checksums.txt | sha256sum --quiet -c -); then
	ok "checksums.txt matches all $(wc -l <dist/checksums.txt) files"
else
	bad "checksums.txt does not match the files"
fi

contents=$(tar -tzf dist/blueprint-ls_linux_amd64.tar.gz)
for f in blueprint-ls blueprint-ls-plugins LICENSE THIRD_PARTY_NOTICES.md README.md; do
	grep -qx "$f" <<<"$contents" && ok "linux_amd64 archive holds $f" || bad "linux_amd64 archive lacks $f"
done
version=$(dist/blueprint-ls_linux_amd64_v1/blueprint-ls --version)
commit='^commit: [0-9a-f]\{40\}$'
if [ -z "$(git remote)" ]; then
	# Without a remote GoReleaser's snapshot skips the git state (commit
	# "none"); a clone, as in CI, has one.
	commit='^commit: '
	echo "note: no git remote, so the snapshot is stamped without its commit"
fi
if grep -q '^blueprint-ls [0-9.]*-snapshot' <<<"$version" && grep -q "$commit" <<<"$version" && grep -q '^built: ' <<<"$version"; then
	ok "stamped: $(tr '\n' ' ' <<<"$version")"
else
	bad "the binary is not stamped: $version"
fi
# The VSIX bundles the very binary of the archive.
if cmp -s <(unzip -p "$(ls dist/vsix/blueprint-ls-linux-x64-*.vsix | head -1)" extension/bin/blueprint-ls) dist/blueprint-ls_linux_amd64_v1/blueprint-ls; then
	ok "the linux-x64 VSIX bundles the release binary"
else
	bad "the linux-x64 VSIX does not bundle the release binary"
fi

echo "release: $passed passed, $failed failed"
scripts/test-action.sh dist
[ "$failed" -eq 0 ]
