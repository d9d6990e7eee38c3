#!/usr/bin/env bash
# Runs the Neovim e2e tests with one Neovim binary against one blueprint-ls.
# Usage: run.sh NVIM BLUEPRINT_LS   (env: BLUEPRINT_E2E_XFAIL, BLUEPRINT_E2E_TIMEOUT_MS)
set -euo pipefail
NVIM=${1:?nvim binary}
SERVER=$(realpath "${2:?blueprint-ls binary}")
HERE=$(cd "$(dirname "$0")" && pwd)
command -v "$NVIM" >/dev/null || { echo "FAIL: $NVIM not found" >&2; exit 1; }
cd "$HERE/.."
export BLUEPRINT_LS=$SERVER
export BLUEPRINT_FIXTURE=${BLUEPRINT_FIXTURE:-$HERE/../../testdata/app.blueprint.yaml}
export XDG_STATE_HOME=${XDG_STATE_HOME:-$(mktemp -d)} # LSP log, away from $HOME
timeout 600 "$NVIM" --headless -i NONE -u test/init.lua -c 'luafile test/e2e.lua'
