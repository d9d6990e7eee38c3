#!/usr/bin/env bash
# Runs the repository's pre-commit hooks (.pre-commit-hooks.yaml) for real:
# `pre-commit try-repo` builds blueprint-ls from this checkout (language:
# golang) and runs blueprint-check and blueprint-check-all against a scratch
# git repository holding a valid and an invalid blueprint.
#
#   scripts/test-pre-commit.sh          # test the hooks at HEAD
#   REF=my-branch scripts/test-pre-commit.sh
#
# try-repo builds a commit, so uncommitted changes are not tested. Needs
# pre-commit (Debian: apt-get install -y pre-commit), git and go; without
# pre-commit it prints SKIP and exits 0.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
ref=${REF:-HEAD}

if ! command -v pre-commit >/dev/null 2>&1; then
	echo "SKIP: pre-commit is not installed (apt-get install -y pre-commit); hooks not tested"
	exit 0
fi
for tool in git go; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed; hooks not tested"; exit 0; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export PRE_COMMIT_HOME=${PRE_COMMIT_HOME:-$scratch/cache}
export PRE_COMMIT_COLOR=never
cd "$scratch"
mkdir work && cd work
git init -q
git config user.email test@example.com
git config user.name test
mkdir -p infra
cat > infra/ok.blueprint.yaml <<'YAML'
version: 2023-04-20
resources:
  queue:
    type: aws/sqs/queue
    spec: {}
YAML
cat > infra/bad.blueprint.yaml <<'YAML'
version: 2023-04-20
resources:
  queue:
    type: AWS::SQS::Queue
    spec: {}
YAML
echo "not a blueprint" > notes.txt
git add . && git commit -q -m scratch

passed=0 failed=0
# expect NAME WANT(pass|fail) HOOK ARGS...: runs the hook through try-repo
# and checks its status.
expect() {
	local name=$1 want=$2 hook=$3; shift 3
	local log="$scratch/$name.log" got=pass
	pre-commit try-repo "$repo" "$hook" --ref "$ref" "$@" >"$log" 2>&1 || got=fail
	if [ "$got" = "$want" ]; then
		echo "ok   $name ($got)"
		passed=$((passed + 1))
	else
		echo "FAIL $name: want $want, got $got"; sed 's/^/    /' "$log"
		failed=$((failed + 1))
	fi
	# The invalid file must be named in a failing run's output.
	if [ "$want" = fail ] && ! grep -q 'bad.blueprint.yaml:4:11: error\[resource-type-format\]' "$log"; then
		echo "FAIL $name: diagnostic missing from output"; sed 's/^/    /' "$log"
		failed=$((failed + 1))
	fi
}

expect blueprint-check-valid-file   pass blueprint-check --files infra/ok.blueprint.yaml notes.txt
expect blueprint-check-invalid-file fail blueprint-check --files infra/ok.blueprint.yaml infra/bad.blueprint.yaml
expect blueprint-check-all          fail blueprint-check-all --all-files
git rm -q infra/bad.blueprint.yaml && git commit -q -m fix
expect blueprint-check-all-fixed    pass blueprint-check-all --all-files

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
