#!/usr/bin/env bash
# Installs what the editor clients' tests need and runs them all:
#   VS Code extension: typecheck, unit tests (node --test), grammar tests
#   (vscode-tmgrammar-test), packaging (vsce), end-to-end test in real VS Code
#   (code-server 4.100.3 + Debian Chromium + playwright-core);
#   Neovim plugin: headless end-to-end tests on Debian's 0.7.2 and on newer
#   Neovims from Debian trixie (0.10) and sid (0.12);
#   Emacs (blueprint-ls.el on eglot): batch end-to-end tests on Debian's
#   Emacs 28.2 (elpa-eglot, elpa-yaml-mode) and on Emacs from Debian
#   trixie (30.1, eglot built in);
#   Helix: editors/helix/languages.toml read by a real Helix (trixie's hx
#   25.01), each blueprint format opened in it (tmux) with its diagnostic.
# An editor that cannot be installed fails its tests loudly; nothing is
# skipped silently.
#
# Usage: editors/ci.sh            (from anywhere; needs root for apt-get)
# Environment:
#   BLUEPRINT_EDITORS_SCRATCH  build/cache dir (default ${TMPDIR:-/tmp}/blueprint-ls-editors)
#   BLUEPRINT_PACKAGE_ALL=1    package every platform's VSIX, not only linux-x64 + universal
#   BLUEPRINT_NVIM_SUITES      newer Neovims to fetch (default "trixie sid")
#   BLUEPRINT_EMACS_SUITES     newer Emacs to fetch (default "trixie")
#   BLUEPRINT_E2E_XFAIL        features whose e2e assertions are expected to fail
#                              for now (comma-separated; reported as XFAIL)
set -euo pipefail

EDITORS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$EDITORS/.." && pwd)
SCRATCH=${BLUEPRINT_EDITORS_SCRATCH:-${TMPDIR:-/tmp}/blueprint-ls-editors}
mkdir -p "$SCRATCH/bin" "$SCRATCH/logs"
export DEBIAN_FRONTEND=noninteractive
# npm: build native modules against the local Node headers, let code-server's
# postinstall run as root, and let node-pty's `npx node-gyp` run.
export npm_config_nodedir=${npm_config_nodedir:-/usr} npm_config_unsafe_perm=true npm_config_yes=true
export npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

T0=$(date +%s)
declare -a SUMMARY=()
PASSED=0
FAILED=0
SKIPPED=0
STATUS=0

step_time() { echo $(($(date +%s) - $1)); }
note() { printf '\n=== %s\n' "$*"; }

# run NAME KIND CMD...: runs a test suite, tees its log, counts its results
# from the runner's closing lines (KIND: node | tmgrammar | plain).
run() {
  local name=$1 kind=$2
  shift 2
  local log="$SCRATCH/logs/$name.log" start rc=0 p=0 f=0 s=0
  start=$(date +%s)
  note "$name"
  "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  case $kind in
    node)
      p=$(awk '/^# pass /{print $3}' "$log" | tail -1)
      f=$(awk '/^# fail /{print $3}' "$log" | tail -1)
      ;;
    tmgrammar)
      p=$(grep -c '^✓' "$log" || true)
      f=$(grep -c '^✖' "$log" || true)
      ;;
    plain)
      read -r p f s < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?$/\1 \2 \4/p' "$log" | tail -1) || true
      ;;
  esac
  p=${p:-0} f=${f:-0} s=${s:-0}
  if [ "$rc" -eq 0 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then p=1; fi # a check without counts
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi # a crash counts as a failure
  PASSED=$((PASSED + p)) FAILED=$((FAILED + f)) SKIPPED=$((SKIPPED + s))
  [ "$rc" -eq 0 ] || STATUS=1
  SUMMARY+=("$(printf '%-28s exit %-3s %3s passed %3s failed %3s xfail  %4ss' "$name" "$rc" "$p" "$f" "$s" "$(step_time "$start")")")
}

# setup NAME CMD...: an install/build step; a failure is recorded and the
# suites that need it fail on their own (loudly) later.
setup() {
  local name=$1 start rc=0
  shift
  start=$(date +%s)
  note "setup: $name"
  "$@" || rc=$?
  [ "$rc" -eq 0 ] || { STATUS=1; FAILED=$((FAILED + 1)); echo "FAIL: setup step $name exited $rc" >&2; }
  SUMMARY+=("$(printf '%-28s exit %-3s %34s %4ss' "setup: $name" "$rc" "" "$(step_time "$start")")")
}

apt_install() {
  local missing=()
  for p in chromium neovim emacs-nox elpa-eglot elpa-yaml-mode tmux patchelf ripgrep build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "apt packages present"
    return
  fi
  echo "installing: ${missing[*]}"
  apt-get update -qq || return 1
  apt-get install -y -qq "${missing[@]}" >/dev/null || return 1
}

# npm_ci DIR: `npm ci` unless node_modules already matches the lock file.
npm_ci() {
  local dir=$1 want have=''
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  [ -f "$dir/node_modules/.ci-lock-sha256" ] && have=$(cat "$dir/node_modules/.ci-lock-sha256")
  if [ "$want" = "$have" ]; then
    echo "$dir/node_modules up to date"
    return
  fi
  local rc=0
  (cd "$dir" && npm ci --no-audit --no-fund >"$SCRATCH/logs/npm-ci-$(basename "$dir").log" 2>&1) || rc=$?
  grep -v -e 'Unknown \(env\|user\) config' -e 'install-scripts' "$SCRATCH/logs/npm-ci-$(basename "$dir").log" | tail -5
  [ "$rc" -eq 0 ] || return 1
  echo "$want" >"$dir/node_modules/.ci-lock-sha256"
}

seed_ripgrep() {
  # @vscode/ripgrep (a code-server dependency) downloads rg in postinstall;
  # it first looks in this cache, seeded with Debian's rg.
  # Written to a temporary name and moved into place: a run beside this one
  # must never read a half-written archive (it would delete it as invalid).
  local cache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
  local want="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
  mkdir -p "$cache"
  if [ ! -f "$want" ]; then
    tar -C /usr/bin -czf "$want.$$" rg && mv -f "$want.$$" "$want"
  fi
}

install_vscode_deps() {
  seed_ripgrep || return 1
  npm_ci "$EDITORS/vscode" || return 1
  npm_ci "$EDITORS/vscode/e2e" || return 1
  XDG_CONFIG_HOME="$SCRATCH/xdg-config" XDG_DATA_HOME="$SCRATCH/xdg-data" \
    "$EDITORS/vscode/e2e/node_modules/.bin/code-server" --version | head -1
}

build_server() {
  rm -f "$SCRATCH/bin/blueprint-ls"
  (cd "$REPO" && go build -o "$SCRATCH/bin/blueprint-ls" ./cmd/blueprint-ls) || return 1
  "$SCRATCH/bin/blueprint-ls" version
}

package_vsix() {
  rm -rf "$SCRATCH/vsix"
  if [ "${BLUEPRINT_PACKAGE_ALL:-}" = 1 ]; then
    (cd "$EDITORS/vscode" && npm run --silent package -- --out "$SCRATCH/vsix") || return 1
  else
    (cd "$EDITORS/vscode" && npm run --silent package -- --target linux-x64 --out "$SCRATCH/vsix") || return 1
  fi
  ls -la "$SCRATCH/vsix"
}

fetch_nvims() {
  for suite in ${BLUEPRINT_NVIM_SUITES:-trixie sid}; do
    "$EDITORS/neovim/scripts/fetch-nvim-debian.sh" "$suite" "$SCRATCH/nvim-$suite" || return 1
  done
}

fetch_emacs() {
  for suite in ${BLUEPRINT_EMACS_SUITES:-trixie}; do
    "$EDITORS/emacs/scripts/fetch-emacs-debian.sh" "$suite" "$SCRATCH/emacs-$suite" || return 1
  done
}

fetch_helix() {
  "$EDITORS/helix/scripts/fetch-helix-debian.sh" trixie "$SCRATCH/helix-trixie"
}

setup "apt packages" apt_install
setup "npm ci + code-server" install_vscode_deps
setup "go build blueprint-ls" build_server
setup "newer Neovims" fetch_nvims
setup "newer Emacs" fetch_emacs
setup "Helix" fetch_helix

cd "$EDITORS/vscode"
run vscode-typecheck plain npm run --silent typecheck
run vscode-unit node bash -c 'node scripts/build.mjs --tests && node --test out/test/'
run vscode-grammar tmgrammar node scripts/grammar-test.mjs
setup "vsce package" package_vsix
VSIX=$(ls "$SCRATCH"/vsix/blueprint-ls-linux-x64-*.vsix 2>/dev/null | head -1 || true)
run vscode-e2e plain env -u BLUEPRINT_LS ARTIFACTS="$EDITORS/vscode/test-artifacts" node e2e/run.mjs "${VSIX:-missing-linux-x64.vsix}"

cd "$EDITORS/neovim"
export XDG_STATE_HOME="$SCRATCH/nvim-state"
run "neovim-$(nvim --version 2>/dev/null | head -1 | awk '{print $2}' || echo missing)" plain test/run.sh nvim "$SCRATCH/bin/blueprint-ls"
for suite in ${BLUEPRINT_NVIM_SUITES:-trixie sid}; do
  run "neovim-$suite" plain test/run.sh "$SCRATCH/nvim-$suite/nvim" "$SCRATCH/bin/blueprint-ls"
done

cd "$EDITORS/emacs"
run "emacs-$(emacs --version 2>/dev/null | head -1 | awk '{print $3}' || echo missing)" plain test/run.sh emacs "$SCRATCH/bin/blueprint-ls"
for suite in ${BLUEPRINT_EMACS_SUITES:-trixie}; do
  run "emacs-$suite" plain env EMACS_PACKAGE_DIRS="$SCRATCH/emacs-$suite/site-lisp/yaml-mode" \
    test/run.sh "$SCRATCH/emacs-$suite/emacs" "$SCRATCH/bin/blueprint-ls"
done

cd "$EDITORS/helix"
run helix-trixie plain test/run.sh "$SCRATCH/helix-trixie/hx" "$SCRATCH/bin/blueprint-ls"

note "editors/ci.sh summary ($(step_time "$T0")s total)"
printf '%s\n' "${SUMMARY[@]}"
[ -z "${BLUEPRINT_E2E_XFAIL:-}" ] || echo "expected failures allowed for: $BLUEPRINT_E2E_XFAIL"
echo "screenshots: $EDITORS/vscode/test-artifacts"
echo "editors: $PASSED passed, $FAILED failed, $SKIPPED skipped"
exit $STATUS
