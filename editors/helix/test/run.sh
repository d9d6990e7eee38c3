#!/usr/bin/env bash
# Checks editors/helix/languages.toml in a real Helix against one
# blueprint-ls: Helix reads the file without an error, each of its
# languages (bluelink-yaml, bluelink-json, bluelink-lang) has blueprint-ls
# as its server, Helix's own "blueprint" (GNOME Blueprint) is untouched,
# and each fixture opened in Helix (in tmux) gets its language and the
# server's diagnostic on the line of its one mistake.
# Usage: run.sh HX BLUEPRINT_LS   (env: BLUEPRINT_E2E_TIMEOUT, seconds per wait)
set -uo pipefail
HX=${1:?hx binary}
SERVER=$(realpath "${2:?blueprint-ls binary}")
HERE=$(cd "$(dirname "$0")" && pwd)
TESTDATA=$(cd "$HERE/../../testdata" && pwd)
TIMEOUT=${BLUEPRINT_E2E_TIMEOUT:-20}
command -v "$HX" >/dev/null || { echo "FAIL: $HX not found" >&2; exit 1; }
command -v tmux >/dev/null || { echo "FAIL: tmux not found" >&2; exit 1; }
HOME_DIR=$(mktemp -d)
trap 'tmux -L blueprint-hx kill-server 2>/dev/null; rm -rf "$HOME_DIR"' EXIT
mkdir -p "$HOME_DIR/.config/helix" "$HOME_DIR/bin" "$HOME_DIR/ws"
cp "$HERE/../languages.toml" "$HOME_DIR/.config/helix/languages.toml"
# The status line names the file's language and counts its diagnostics.
printf '[editor.statusline]\nleft = ["mode", "file-name"]\nright = ["file-type", "diagnostics"]\n' >"$HOME_DIR/.config/helix/config.toml"
ln -s "$SERVER" "$HOME_DIR/bin/blueprint-ls" # the command the snippet names
ENV=(env HOME="$HOME_DIR" XDG_CONFIG_HOME="$HOME_DIR/.config" PATH="$HOME_DIR/bin:$PATH" NO_COLOR=1)
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS  helix  $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  helix  $1"; shift; printf '      %s\n' "$@"; }
echo "# blueprint-ls Helix checks: $("$HX" --version), server $SERVER"

for lang in bluelink-yaml bluelink-json bluelink-lang; do
  out=$("${ENV[@]}" "$HX" --health "$lang" 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
  if grep -q "Error parsing" <<<"$out" || grep -q "not found" <<<"$out" || ! grep -q "✓ blueprint-ls: $HOME_DIR/bin/blueprint-ls" <<<"$out"; then
    fail "$lang: configured with blueprint-ls" "$out"
  else
    pass "$lang: configured with blueprint-ls"
  fi
done
out=$("${ENV[@]}" "$HX" --health blueprint 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
if grep -q "blueprint-compiler" <<<"$out" && ! grep -q "blueprint-ls" <<<"$out"; then
  pass "GNOME's blueprint language left alone"
else
  fail "GNOME's blueprint language left alone" "$out"
fi

# open FILE LANG: Helix shows FILE as LANG and a diagnostic on the line of
# the mistake ("enviroment"), within the timeout.
open_file() {
  local file=$1 lang=$2 line screen deadline
  cp "$TESTDATA/$file" "$HOME_DIR/ws/$file"
  line=$(grep -n enviroment "$HOME_DIR/ws/$file" | head -1 | cut -d: -f1)
  tmux -L blueprint-hx new-session -d -s hx -x 160 -y 60 -c "$HOME_DIR/ws" "${ENV[*]} $HX $file"
  deadline=$(($(date +%s) + TIMEOUT))
  while :; do
    screen=$(tmux -L blueprint-hx capture-pane -p -t hx 2>/dev/null)
    # The gutter marks the line with ● before its number; the status line
    # names the language and counts the diagnostics.
    if grep -qE "^●[[:space:]]+$line[[:space:]]" <<<"$screen" && grep -q "$lang" <<<"$(tail -2 <<<"$screen")"; then
      pass "$file opens as $lang with the diagnostic on line $line"
      break
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      fail "$file opens as $lang with the diagnostic on line $line" "after ${TIMEOUT}s the screen was:" "$screen"
      break
    fi
    sleep 0.2 # polling the screen; the loop ends as soon as it shows the diagnostic
  done
  tmux -L blueprint-hx kill-session -t hx 2>/dev/null
}
open_file app.blueprint.yaml bluelink-yaml
open_file app.blueprint.json bluelink-json
open_file app.bp bluelink-lang

echo
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
