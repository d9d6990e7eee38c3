#!/bin/sh
# check-same-output.sh BASE [COMMIT...]: proves that COMMITs change no
# output of `check --format json` (issue 36's cold-path work must not).
# The baseline is blueprint-ls at BASE; the new binary is BASE with each
# COMMIT's patch applied in turn (with no COMMIT: HEAD), so the comparison
# holds only those changes, whatever else landed meanwhile. Both are built
# from `git archive` copies, never the work tree. The comparison is
# cmd/blueprint-ls TestCheckOutputUnchanged: the generated 1,000-, 5,000-
# and 20,000-resource blueprints (YAML, JSON, .bp) and every blueprint
# under testdata/, standard output, standard error and exit status byte
# for byte.
#
#   scripts/check-same-output.sh ef30ff3 1c0170a ae0d451
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BASE [COMMIT...]" >&2; exit 2; }
base=$1
shift
root=$(git rev-parse --show-toplevel)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base" "$tmp/new"
git -C "$root" archive "$base" | tar -x -C "$tmp/base"
if [ $# -eq 0 ]; then
	git -C "$root" archive HEAD | tar -x -C "$tmp/new"
else
	git -C "$root" archive "$base" | tar -x -C "$tmp/new"
	for c in "$@"; do
		git -C "$root" show --format= --binary "$c" | git -C "$tmp/new" apply --whitespace=nowarn -
	done
fi
test=cmd/blueprint-ls/check_same_test.go
[ -f "$tmp/new/$test" ] || git -C "$root" show "HEAD:$test" >"$tmp/new/$test"
(cd "$tmp/base" && go build -o "$tmp/baseline" ./cmd/blueprint-ls)
cd "$tmp/new"
BLUEPRINT_LS_BASELINE="$tmp/baseline" go test ./cmd/blueprint-ls -run '^TestCheckOutputUnchanged$' -count=1 -v -timeout 30m
