#!/usr/bin/env bash
# The embedded AWS catalog is exactly what its generator makes of its two
# sources: the shared CloudFormation schema set and the pinned
# @aws-cdk/aws-service-spec package. The Go test skips without the package
# (tests never fetch); this script fetches the pinned version from the npm
# registry into a temporary folder first, so CI runs the comparison.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=$(sed -n 's/.*`@aws-cdk\/aws-service-spec` version \([0-9.]*\).*/\1/p' providers/registry/builtin/catalog/README.md | head -1)
if [ -z "$version" ]; then
	echo "FAIL: providers/registry/builtin/catalog/README.md does not name the service spec version" >&2
	exit 1
fi
if [ ! -f ../shared/cfn-schemas/us-east-1-all.tar.gz ]; then
	echo "SKIP: catalog freshness: ../shared/cfn-schemas/us-east-1-all.tar.gz absent"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && npm pack --silent "@aws-cdk/aws-service-spec@$version" >/dev/null); then
	echo "FAIL: npm pack @aws-cdk/aws-service-spec@$version" >&2
	exit 1
fi
BLUEPRINT_SERVICE_SPEC=$(ls "$tmp"/*.tgz) go test -count=1 -run '^TestCommittedCatalogIsFresh$' ./providers/registry/internal/catalog/gen
echo "catalog: fresh against @aws-cdk/aws-service-spec@$version"
