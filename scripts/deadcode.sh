#!/usr/bin/env bash
# Fails when a function no command can reach appears that
# scripts/deadcode.allow does not list (with its reason). deadcode is run
# at a pinned version through the Go module proxy (or the module cache).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

version=v0.52.0
out=$(go run "golang.org/x/tools/cmd/deadcode@$version" ./...)
# "<file>:<line>:<col>: unreachable func: <name>" -> "<file> <name>"
found=$(printf '%s\n' "$out" | sed -nE 's/^([^:]+):[0-9]+:[0-9]+: unreachable func: (.*)$/\1 \2/p' | sort)
# A line "<dir>/ *" allows every function of the package in <dir> (one
# that only tests import, by design).
for dir in $(grep -E '^[^#[:space:]]+/ \*$' scripts/deadcode.allow | cut -d' ' -f1); do
	found=$(printf '%s\n' "$found" | grep -v "^${dir}[^/]* " || true)
done
allowed=$(grep -vE '^[[:space:]]*(#|$)' scripts/deadcode.allow | grep -vE '/ \*$' | sort)
new=$(comm -23 <(printf '%s\n' "$found" | sed '/^$/d') <(printf '%s\n' "$allowed"))
stale=$(comm -13 <(printf '%s\n' "$found" | sed '/^$/d') <(printf '%s\n' "$allowed"))
if [ -n "$new" ]; then
	echo "deadcode: unreachable functions not in scripts/deadcode.allow:" >&2
	printf '  %s\n' "$new" >&2
	echo "delete them, use them, move test-only helpers into a _test.go file, or allow-list them with a reason" >&2
	exit 1
fi
if [ -n "$stale" ]; then
	echo "deadcode: scripts/deadcode.allow lists functions that are no longer unreachable (remove them):" >&2
	printf '  %s\n' "$stale" >&2
	exit 1
fi
echo "deadcode: ok"
