#!/usr/bin/env bash
# The whole test suite: Go tests (every package, including the in-process
# language-server scenarios and benchmarks' correctness), the pre-commit
# hooks run for real, and the editor clients in real VS Code and Neovim.
#
#   scripts/test.sh            # everything (installs editors; needs root for apt)
#   scripts/test.sh go         # only the Go tests (no root, no network)
#
# CI (.ci/run) runs exactly this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "=== go test ./..."
go vet ./...
go test ./...
# The fuzz targets' seed corpora run above; a short fuzzing burst per parser
# catches regressions the seeds do not, and one over random expressions
# checks that a secret is never printed (docs/security.md).
for target in "./syntax FuzzParseYAML" "./syntax FuzzParseJSON" "./syntax FuzzTree" "./subst FuzzParse" "./source FuzzMapper" "./format FuzzFormat" "./engine FuzzSecretNeverPrinted"; do
	read -r pkg name <<<"$target"
	go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime 10s >/dev/null
done
# The hostile inputs of docs/security.md against the real binary, under a
# 2 GB address-space limit.
scripts/hostile.sh
# Nothing unreachable from the commands beyond the explained allow-list.
scripts/deadcode.sh
echo "go: ok"

[ "${1:-all}" = go ] && exit 0

echo "=== pre-commit hooks"
if ! command -v pre-commit >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null || true
fi
# Prints a clear SKIP line when pre-commit could not be installed.
scripts/test-pre-commit.sh

echo "=== editors"
editors/ci.sh
