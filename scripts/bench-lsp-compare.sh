#!/usr/bin/env bash
# Side by side with the official Bluelink language server (issue 16):
# builds our server and the driver (cmd/lspbench), builds the official
# server from a Bluelink checkout when given one (or takes its binary), and
# prints the tables of docs/performance.md "Side by side with the official
# server": edits that break and mend exports.envName (a place both servers
# check), then our server alone with the edits in the middle resource.
#
# Usage:
#   scripts/bench-lsp-compare.sh [--official BINARY | --official-src BLUELINK_CHECKOUT] [LSPBENCH FLAGS...]
# e.g.
#   scripts/bench-lsp-compare.sh --official-src ~/src/bluelink -sizes 1000,5000
# Without --official or --official-src only our server is measured. The
# official server is built from BLUELINK_CHECKOUT/tools/blueprint-ls with the
# Go module proxy. Flags after the options go to lspbench (-sizes, -edits,
# -completions, -clients, -format, -settle, -timeout; see go doc ./cmd/lspbench).
# Environment: BLUEPRINT_BENCH_SCRATCH (default ${TMPDIR:-/tmp}/blueprint-ls-bench)
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRATCH=${BLUEPRINT_BENCH_SCRATCH:-${TMPDIR:-/tmp}/blueprint-ls-bench}
mkdir -p "$SCRATCH"

official='' official_src=''
while [ $# -gt 0 ]; do
  case $1 in
    --official) official=$(realpath "${2:?--official needs a binary}"); shift 2 ;;
    --official-src) official_src=$(realpath "${2:?--official-src needs a Bluelink checkout}"); shift 2 ;;
    -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
    *) break ;;
  esac
done

echo "building blueprint-ls and lspbench..." >&2
(cd "$REPO" && go build -o "$SCRATCH/blueprint-ls" ./cmd/blueprint-ls && go build -o "$SCRATCH/lspbench" ./cmd/lspbench)

if [ -n "$official_src" ]; then
  src="$official_src/tools/blueprint-ls"
  [ -f "$src/go.mod" ] || { echo "bench-lsp-compare: $src/go.mod not found (want a newstack-cloud/bluelink checkout)" >&2; exit 2; }
  echo "building the official server from $src..." >&2
  (cd "$src" && GOFLAGS=-mod=mod go build -o "$SCRATCH/bluelink-ls" ./cmd)
  official="$SCRATCH/bluelink-ls"
fi
if [ -n "$official" ] && [ ! -x "$official" ]; then
  echo "bench-lsp-compare: $official is not an executable" >&2
  exit 2
fi

servers=(-server "ours=$SCRATCH/blueprint-ls,serve")
[ -z "$official" ] || servers+=(-server "official=$official")

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3)"
echo "# ours: $("$SCRATCH/blueprint-ls" version 2>/dev/null | head -1)"
if [ -n "$official_src" ] && git -C "$official_src" rev-parse HEAD >/dev/null 2>&1; then
  echo "# official: $official ($(git -C "$official_src" rev-parse --short HEAD))"
elif [ -n "$official" ]; then
  echo "# official: $official"
else
  echo "# official: not given (--official or --official-src); our server only"
fi
echo
echo "Edits break and mend exports.envName's reference:"
echo
"$SCRATCH/lspbench" "${servers[@]}" -edit export "$@"
echo
echo "Our server, edits in the middle resource's tags:"
echo
"$SCRATCH/lspbench" -server "ours=$SCRATCH/blueprint-ls,serve" -edit resource "$@"
