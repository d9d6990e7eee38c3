#!/usr/bin/env bash
# Runs the Emacs e2e tests with one Emacs binary against one blueprint-ls.
# Usage: run.sh EMACS BLUEPRINT_LS   (env: BLUEPRINT_E2E_TIMEOUT, seconds per wait)
# Emacs 28 needs eglot and yaml-mode (Debian: elpa-eglot elpa-yaml-mode);
# Emacs 29+ needs yaml-mode (eglot is built in). Packages come from the
# Debian site-lisp (Emacs runs without -Q so site-start activates them) or
# from EMACS_PACKAGE_DIRS (colon-separated directories added to load-path).
set -euo pipefail
EMACS=${1:?emacs binary}
SERVER=$(realpath "${2:?blueprint-ls binary}")
HERE=$(cd "$(dirname "$0")" && pwd)
command -v "$EMACS" >/dev/null || { echo "FAIL: $EMACS not found" >&2; exit 1; }
export BLUEPRINT_LS=$SERVER
export BLUEPRINT_TESTDATA=${BLUEPRINT_TESTDATA:-$(cd "$HERE/../../testdata" && pwd)}
export HOME=${E2E_HOME:-$(mktemp -d)} # no user init, eglot's state away from $HOME
PRE=()
IFS=: read -r -a dirs <<<"${EMACS_PACKAGE_DIRS:-}"
for d in "${dirs[@]}"; do
  [ -n "$d" ] && PRE+=(--eval "(add-to-list 'load-path \"$d\")")
done
timeout 600 "$EMACS" --batch "${PRE[@]}" -l "$HERE/e2e.el" 2>"$HOME/emacs-stderr.log" || {
  rc=$?
  echo "--- emacs stderr (last 40 lines)"
  tail -40 "$HOME/emacs-stderr.log"
  exit $rc
}
