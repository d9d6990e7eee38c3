#!/usr/bin/env bash
# Checks every Landscaper blueprint under docs/, examples/ and
# test/integration/ of a gardener/landscaper checkout (with the files
# beside each) and prints each diagnostic and the count of blueprints
# with no errors. The checkout is not part of this repository:
#
#   git clone --depth 1 https://github.com/gardener/landscaper /tmp/landscaper
#   scripts/landscaper-corpus.sh /tmp/landscaper
set -euo pipefail
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 LANDSCAPER_CHECKOUT" >&2
	exit 2
fi
root=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
LANDSCAPER_CORPUS="$root" go test ./landscaper/ -run '^TestScanDir$' -count=1 -v |
	sed -n 's/^ *corpus_test.go:[0-9]*: //p'
