#!/usr/bin/env bash
# Runs the hostile inputs of docs/security.md against the real binary
# under a 2 GB address-space limit (ulimit -v) and a 20-second timeout:
# each must end with exit status 1 or 2 and a clear message, never a
# crash, a hang or an out-of-memory death. The Go tests check the exact
# messages; this checks the budgets hold in a real process.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/blueprint-ls" ./cmd/blueprint-ls
bin=$work/blueprint-ls

proj=$work/proj
mkdir -p "$proj/providers" "$work/elsewhere"
: >"$proj/.blueprint-ls.yaml"
printf 'aws_access_key_id = AKIAEXAMPLEEXAMPLE\n' >"$work/elsewhere/creds"
mkfifo "$proj/fifo"
header='version: 2023-04-20
resources:
  q:
    type: aws/sqs/queue
    spec:
      queueName: '
include() { printf 'version: 2023-04-20\ninclude:\n  c:\n    path: %s\nresources: {}\n' "$1"; }
include /dev/zero >"$proj/zero.yaml"
include fifo >"$proj/fifo-include.yaml"
include ../elsewhere/creds >"$proj/outside.yaml"
n=32000
{ printf '%s${' "$header"; printf 'trim(%.0s' $(seq $n); printf '"a"'; printf ')%.0s' $(seq $n); printf '}\n'; } >"$proj/deep.yaml"
n=100000
{ printf '%s${' "$header"; printf '[%.0s' $(seq $n); printf ']%.0s' $(seq $n); printf '}\n'; } >"$proj/arrays.yaml"
printf '%s${trim("a")}\n' "$header" >"$proj/ok.yaml"
# The blueprint language: deep arrays in an expression, deep blocks.
{ printf 'version "2025-11-02"\nvalue v: array {\n    value = '; printf '[%.0s' $(seq $n); printf ']%.0s' $(seq $n); printf '\n}\n'; } >"$proj/deep.bp"
{ printf 'version "2025-11-02"\nmetadata {'; printf ' a {%.0s' $(seq $n); printf '}%.0s' $(seq $n); printf '}\n'; } >"$proj/blocks.bp"
r='"aaaaaaaaaa"'
for _ in $(seq 9); do r="replace($r, \"\", \"aaaaaaaaaa\")"; done
printf '%s${%s}\n' "$header" "$r" >"$proj/replace.yaml"
{
	printf 'version: 2023-04-20\nvalues:\n  v0:\n    type: string\n    value: %s\n' "$(printf 'a%.0s' $(seq 100))"
	for i in $(seq 1 39); do printf '  v%d:\n    type: string\n    value: ${values.v%d}${values.v%d}\n' "$i" $((i - 1)) $((i - 1)); done
	printf 'resources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${values.v39}\n'
} >"$proj/doubling.yaml"
mkdir -p "$work/discover" && ln -s /dev/zero "$work/discover/z.blueprint.yaml"
mkdir -p "$work/prov/providers" && printf 'providers: [providers]\n' >"$work/prov/.blueprint-ls.yaml" &&
	ln -s /dev/zero "$work/prov/providers/z.json" && cp "$proj/ok.yaml" "$work/prov/a.blueprint.yaml"

fail=0
run() {
	local want=$1
	shift
	local code=0
	(
		ulimit -v 2097152
		cd "$proj"
		timeout 20 "$bin" "$@"
	) >"$work/out" 2>&1 || code=$?
	if [ "$code" != "$want" ]; then
		echo "hostile: $* exited $code, want $want:" >&2
		head -c 2000 "$work/out" >&2
		fail=1
	elif grep -q 'AKIA' "$work/out"; then
		echo "hostile: $* quotes the credentials file" >&2
		fail=1
	fi
}
run 1 check --no-summary zero.yaml
run 1 check --no-summary fifo-include.yaml
run 1 check --no-summary --format sarif outside.yaml
run 1 check --no-summary deep.yaml
run 1 check --no-summary arrays.yaml
run 1 plan deep.yaml
run 1 plan replace.yaml
run 1 plan doubling.yaml
run 0 eval --blueprint deep.yaml '${1}' # loads the deep blueprint at once
run 1 check --no-summary deep.bp
run 1 check --no-summary blocks.bp
run 1 convert deep.bp --to yaml
run 2 fmt blocks.bp
run 2 plan --state /dev/zero ok.yaml
run 2 plan --vars fifo ok.yaml
run 2 check --no-summary "$work/discover"
run 1 check --no-summary "$work/prov/a.blueprint.yaml" # the /dev/zero link is reported on that file
run 2 fmt -w "$work/discover"
[ "$fail" = 0 ] && echo "hostile: ok"
exit "$fail"
