#!/usr/bin/env bash
# Runs the GitHub Action's steps (action.yml → scripts/action/*.sh) the way
# a runner does, against a local build: the runner's files (RUNNER_TEMP,
# GITHUB_PATH, GITHUB_OUTPUT) are temporary files, and the "release" the
# install step downloads from is a file:// folder laid out like GitHub's
# releases/download/<tag>/ and releases/latest/download/. The upload step
# is GitHub's own action and is not run; the SARIF it would upload is
# checked instead.
#
#   scripts/test-action.sh [DIST]   DIST: a goreleaser dist/ (release archives
#                                   and checksums.txt); without it a linux
#                                   archive of `go build` is made here
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
dist=${1:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

case $(uname -m) in
	x86_64) arch=amd64 runner_arch=X64 ;;
	aarch64 | arm64) arch=arm64 runner_arch=ARM64 ;;
	*) echo "SKIP: no release archive for $(uname -m)"; exit 0 ;;
esac
archive=blueprint-ls_linux_$arch.tar.gz

# The "release": every step reads it the way it reads GitHub's.
rel="$work/releases/download/v9.9.9"
mkdir -p "$rel" "$work/releases/latest"
if [ -n "$dist" ]; then
	cp "$dist/$archive" "$dist/checksums.txt" "$rel/"
else
	mkdir -p "$work/build"
	go build -o "$work/build/blueprint-ls" ./cmd/blueprint-ls
	tar -czf "$rel/$archive" -C "$work/build" blueprint-ls
	(cd "$rel" && sha256sum "$archive" >checksums.txt)
fi
ln -s ../download/v9.9.9 "$work/releases/latest/download"

# runner_env NAME: fresh runner files for one job.
runner_env() {
	local job="$work/job-$1"
	mkdir -p "$job/temp"
	: >"$job/path"
	: >"$job/output"
	export RUNNER_OS=Linux RUNNER_ARCH=$runner_arch RUNNER_TEMP="$job/temp" GITHUB_PATH="$job/path" GITHUB_OUTPUT="$job/output"
	export BLUEPRINT_LS_DOWNLOAD_BASE="file://$work/releases"
}
output() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -1; }

# action.yml must run exactly these scripts.
for s in install check; do
	if grep -q "\"\$GITHUB_ACTION_PATH/scripts/action/$s.sh\"" action.yml; then ok "action.yml runs scripts/action/$s.sh"; else bad "action.yml does not run scripts/action/$s.sh"; fi
done

# A project with one good and one bad blueprint.
proj="$work/project"
mkdir -p "$proj/infra"
printf 'version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {}\n' >"$proj/infra/ok.blueprint.yaml"
printf 'version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.missing}\n' >"$proj/infra/bad.blueprint.yaml"

for version in v9.9.9 latest; do
	runner_env "install-$version"
	if BLUEPRINT_LS_VERSION=$version scripts/action/install.sh >"$work/install.log" 2>&1 && [ -x "$(cat "$GITHUB_PATH")/blueprint-ls" ]; then
		ok "install $version: $(head -1 "$work/install.log" | sed 's/^downloading //')"
	else
		bad "install $version"; cat "$work/install.log"
	fi
done

# A tampered archive is refused.
runner_env tampered
cp -r "$work/releases" "$work/tampered"
echo "0000000000000000000000000000000000000000000000000000000000000000  $archive" >"$work/tampered/download/v9.9.9/checksums.txt"
if BLUEPRINT_LS_VERSION=v9.9.9 BLUEPRINT_LS_DOWNLOAD_BASE="file://$work/tampered" scripts/action/install.sh >"$work/install.log" 2>&1; then
	bad "install accepted an archive whose checksum does not match"
else
	grep -q "checksum mismatch" "$work/install.log" && ok "install refuses a checksum mismatch" || { bad "install failed for another reason"; cat "$work/install.log"; }
fi

# Check with SARIF, then with annotations, as the action's inputs set them.
runner_env sarif
BLUEPRINT_LS_VERSION=v9.9.9 scripts/action/install.sh >/dev/null 2>&1
PATH="$(cat "$GITHUB_PATH"):$PATH"
(cd "$proj" && INPUT_PATHS=infra INPUT_FORMAT=sarif INPUT_SEVERITY_THRESHOLD=error INPUT_ARGS="--strict-types" "$REPO/scripts/action/check.sh" 2>"$work/check.err")
sarif=$(output sarif-file)
if [ "$(output exit-code)" = 1 ] && [ -s "$sarif" ] && grep -q '"ruleId": "ref-unknown-variable"' "$sarif" && grep -q '"uri": "infra/bad.blueprint.yaml"' "$sarif"; then
	ok "check --format sarif: exit-code 1, report at $sarif names infra/bad.blueprint.yaml"
else
	bad "check --format sarif: exit-code $(output exit-code), sarif-file $sarif"; cat "$work/check.err"
fi
runner_env github
PATH="$(cat "$work/job-sarif/path"):$PATH"
out=$(cd "$proj" && INPUT_PATHS="infra/ok.blueprint.yaml infra/bad.blueprint.yaml" INPUT_FORMAT=github "$REPO/scripts/action/check.sh" 2>&1)
if [ "$(output exit-code)" = 1 ] && grep -q '^::error file=infra/bad.blueprint.yaml,line=6' <<<"$out"; then
	ok "check --format github: exit-code 1, annotation on infra/bad.blueprint.yaml line 6"
else
	bad "check --format github: exit-code $(output exit-code)"; echo "$out"
fi
runner_env clean
out=$(cd "$proj" && INPUT_PATHS=infra/ok.blueprint.yaml INPUT_FORMAT=github "$REPO/scripts/action/check.sh" 2>&1)
[ "$(output exit-code)" = 0 ] && ok "check on a clean file: exit-code 0" || { bad "clean file: exit-code $(output exit-code)"; echo "$out"; }
runner_env badformat
if INPUT_FORMAT=junit scripts/action/check.sh >/dev/null 2>&1; then bad "check accepted format junit"; else ok "check refuses a format the action does not upload"; fi

echo "action: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
