#!/usr/bin/env bash
# Step 2 of the GitHub Action (action.yml): runs blueprint-ls check. With
# format sarif the report goes to a file for the upload step; with github
# the annotations go to the log. The exit status is recorded as the
# step's exit-code output, and the step itself succeeds so the upload
# still runs; step 4 fails the job afterwards.
#
# Environment: INPUT_PATHS (space-separated, default "."), INPUT_FORMAT
# (sarif or github), INPUT_SEVERITY_THRESHOLD, INPUT_ARGS (extra flags),
# RUNNER_TEMP, GITHUB_OUTPUT.
set -euo pipefail
format=${INPUT_FORMAT:-sarif}
case $format in
	sarif | github) ;;
	*) echo "::error::blueprint-ls: format must be sarif or github, not $format" >&2; exit 1 ;;
esac
read -r -a paths <<<"${INPUT_PATHS:-.}"
read -r -a extra <<<"${INPUT_ARGS:-}"
args=(check --format "$format" --severity-threshold "${INPUT_SEVERITY_THRESHOLD:-error}" "${extra[@]}" "${paths[@]}")
code=0
if [ "$format" = sarif ]; then
	sarif="${RUNNER_TEMP:?}/blueprint-ls.sarif"
	blueprint-ls "${args[@]}" >"$sarif" || code=$?
	echo "sarif-file=$sarif" >>"${GITHUB_OUTPUT:?}"
else
	blueprint-ls "${args[@]}" || code=$?
fi
echo "exit-code=$code" >>"${GITHUB_OUTPUT:?}"
