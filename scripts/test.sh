#!/usr/bin/env bash
# The whole test suite: Go tests (every package, including the in-process
# language-server scenarios and benchmarks' correctness), the pre-commit
# hooks run for real, and the editor clients in real VS Code, Neovim and Emacs.
#
#   scripts/test.sh            # everything (installs editors; needs root for apt)
#   scripts/test.sh go         # only the Go tests (no root, no network)
#
# Besides the suites, everything also runs the release build as a snapshot
# and the GitHub Action's steps against it (scripts/test-release.sh).
#
# CI (.ci/run) runs exactly this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
MODE=${1:-all} # read before the fuzz loop's `set --` replaces $1

echo "=== go test ./..."
# go.mod and go.sum must be what `go mod tidy` makes them.
go mod tidy -diff || { echo "FAIL: go.mod/go.sum are not tidy (run go mod tidy)" >&2; exit 1; }
go vet ./...
# internal/testreport condenses the -json stream: package lines, failed
# tests in full, every skipped test with its reason, and a closing count.
REPORT=$(mktemp -d)/testreport
trap 'rm -rf "$(dirname "$REPORT")"' EXIT
go build -o "$REPORT" ./internal/testreport
# -timeout: a package's whole run, not one test; lsp's differential
# tests drive hundreds of documents through two server sessions.
go test -json -timeout 30m ./... 2>&1 | "$REPORT"
# The fuzz targets' seed corpora run above; a short fuzzing burst per parser
# catches regressions the seeds do not, and one over random expressions
# checks that a secret is never printed (docs/security.md); one edits a
# blueprint and checks the per-unit reuse key (docs/architecture.md), one
# checks that a spliced re-parse equals the whole parse (one for YAML, one
# for JSON and JSONC, one for the blueprint language) and one that an incremental analysis equals
# a full one; one feeds the language server's frame reader garbage before
# a valid frame; two check the language server's padding of a YAML and a
# .bp blueprint against a client's copy under random edits, and one that
# the change the server tells a splice covers every byte edited since the
# version it splices from; one checks that the tree of a text padded from
# its parse is the parse of the padded text (PadParsed, every format),
# and two that a text read in two halves on two cores is the whole parse
# (YAML, JSON and JSONC; .bp).
for target in "./syntax FuzzParseYAML" "./syntax FuzzParseJSON" "./syntax FuzzTree" "./syntax FuzzReparse" "./syntax FuzzReparseJSON" "./schema FuzzPadParsed" "./syntax FuzzSplitParse" "./bplang FuzzParseSplit" "./ide FuzzIncremental" "./bplang FuzzParse" "./bplang FuzzSplice" "./subst FuzzParse" "./source FuzzMapper" "./format FuzzFormat" "./engine FuzzSecretNeverPrinted" "./analysis FuzzUnitKey" "./analysis FuzzWindowEqualsFull" "./analysis FuzzPatchTyping" "./landscaper FuzzCheck" "./lsp FuzzFrameReader" "./lsp FuzzSlackBookkeeping" "./lsp FuzzBPSlackBookkeeping" "./lsp FuzzEditsAcrossVersions"; do
	read -r pkg name <<<"$target"
	# Quiet when it passes; the fuzzer's report (the failing input and where
	# it was saved) when it does not.
	if ! out=$(go test "$pkg" -run '^$' -fuzz "^$name\$" -fuzztime 10s 2>&1); then
		# Go 1.26's fuzz coordinator can report its own -fuzztime deadline
		# as a failure ("context deadline exceeded", golang/go#75804, fixed
		# in Go 1.27) on a loaded machine. A real failure always writes its
		# input; without one, that race is all it was.
		if grep -q 'context deadline exceeded' <<<"$out" && ! grep -q 'Failing input written' <<<"$out"; then
			echo "fuzz $pkg $name: stopped by the Go 1.26 -fuzztime race (golang/go#75804), no failing input" >&2
			continue
		fi
		printf '%s\n' "$out" | grep -v '^fuzz: elapsed' >&2
		echo "FAIL: fuzz $pkg $name" >&2
		exit 1
	fi
done
# The hostile inputs of docs/security.md against the real binary, under a
# 2 GB address-space limit.
scripts/hostile.sh
# Nothing unreachable from the commands beyond the explained allow-list.
scripts/deadcode.sh
echo "go: ok"

[ "$MODE" = go ] && exit 0

echo "=== embedded AWS catalog against its sources"
scripts/test-catalog.sh

echo "=== pre-commit hooks"
if ! command -v pre-commit >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	# A fresh container has no package lists: update them first, or the
	# install finds nothing and the hooks are skipped.
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq && apt-get install -y -qq pre-commit >/dev/null || echo "pre-commit could not be installed" >&2
fi
# Prints a clear SKIP line when pre-commit could not be installed.
scripts/test-pre-commit.sh

echo "=== editors"
editors/ci.sh

echo "=== release snapshot and GitHub Action"
# After the editors: the VSIX packaging reuses editors/vscode/node_modules.
scripts/test-release.sh
