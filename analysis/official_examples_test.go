package analysis

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// officialExampleProblems is every error and warning the official AWS
// provider's examples (testdata/bluelink-provider-aws) get, with the
// reason each is right. None is an unknown type.
var officialExampleProblems = []struct{ at, code, why string }{
	// A data source example alone is not a whole blueprint.
	{"datasources-lambda_alias_basic.blueprint.yaml:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_alias_jsonc.blueprint.jsonc:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_code_signing_config_basic.blueprint.yaml:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_code_signing_config_jsonc.blueprint.jsonc:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_function_jsonc.blueprint.jsonc:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_function_url_jsonc.blueprint.jsonc:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_function_url_jsonc.blueprint.jsonc:29:19", "datasource-export-type", objectExport},
	{"datasources-lambda_function_url_yaml.blueprint.yaml:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_function_url_yaml.blueprint.yaml:23:15", "datasource-export-type", objectExport},
	{"datasources-lambda_function_yaml.blueprint.yaml:9:1", "yaml-syntax", tabs},
	{"datasources-lambda_function_yaml_export_all.blueprint.yaml:9:1", "yaml-syntax", tabs},
	{"datasources-lambda_layer_version_basic.blueprint.yaml:1:1", "spec-no-resources", noResources},
	{"datasources-lambda_layer_version_jsonc.blueprint.jsonc:1:1", "spec-no-resources", noResources},
	{"resources-iam_oidc_provider_complete.blueprint.yaml:7:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_oidc_provider_jsonc.blueprint.jsonc:8:9", "spec-unknown-field", metadataDescription},
	{"resources-iam_role_basic.blueprint.yaml:7:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_role_basic.blueprint.yaml:24:9", "resource-field-type", tagsAsMap},
	{"resources-iam_role_complete.blueprint.yaml:6:7", "value-type-mismatch", "an object value written as a literal mapping; the spec gives non-string values only through a ${..} substitution"},
	{"resources-iam_role_complete.blueprint.yaml:25:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_role_complete.blueprint.yaml:65:9", "resource-field-type", tagsAsMap},
	{"resources-iam_role_jsonc.blueprint.jsonc:8:9", "spec-unknown-field", metadataDescription},
	{"resources-iam_saml_provider_basic.blueprint.yaml:9:29", "resource-bounds", "placeholder SAML metadata shorter than the 1,000 characters AWS requires"},
	{"resources-iam_saml_provider_complete.blueprint.yaml:7:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_saml_provider_jsonc.blueprint.jsonc:8:9", "spec-unknown-field", metadataDescription},
	{"resources-iam_server_certificate_basic.blueprint.yaml:7:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_server_certificate_complete.blueprint.yaml:7:7", "spec-unknown-field", metadataDescription},
	{"resources-iam_server_certificate_jsonc.blueprint.jsonc:8:9", "spec-unknown-field", metadataDescription},
	{"resources-iam_user_jsonc.blueprint.jsonc:25:26", "ref-unknown-resource", "${var.user_password}: var is no namespace (variables.user_password is meant)"},
	{"resources-lambda_alias_complete.blueprint.yaml:22:44", "ref-resource-property", noSpec},
	{"resources-lambda_alias_complete.blueprint.yaml:28:44", "ref-resource-property", noSpec},
	{"resources-lambda_alias_complete.blueprint.yaml:30:45", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_basic.blueprint.yaml:20:56", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_complete.blueprint.yaml:20:64", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_complete.blueprint.yaml:57:9", "resource-field-type", tagsAsMap},
	{"resources-lambda_event_source_mapping_documentdb.blueprint.yaml:22:61", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_dynamodb.blueprint.yaml:22:59", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_jsonc.blueprint.jsonc:19:61", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_jsonc.blueprint.jsonc:37:17", "resource-field-type", tagsAsMap},
	{"resources-lambda_event_source_mapping_kafka.blueprint.yaml:22:56", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_kafka.blueprint.yaml:25:9", "resource-bounds", "two Kafka topics; AWS takes exactly one (Topics: maxItems 1)"},
	{"resources-lambda_event_source_mapping_kinesis.blueprint.yaml:22:58", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_mq.blueprint.yaml:22:53", "ref-resource-property", noSpec},
	{"resources-lambda_event_source_mapping_mq.blueprint.yaml:25:9", "resource-bounds", "two MQ queues; AWS takes exactly one (Queues: maxItems 1)"},
	{"resources-lambda_function_inline_yaml.blueprint.yaml:4:1", "yaml-syntax", tabs},
	{"resources-lambda_function_jsonc.blueprint.jsonc:8:17", "spec-unknown-field", metadataDescription},
	{"resources-lambda_function_jsonc.blueprint.jsonc:44:25", "resource-field-type", tagsAsMap},
	{"resources-lambda_function_version_complete.blueprint.yaml:22:44", "ref-resource-property", noSpec},
	{"resources-lambda_function_yaml.blueprint.yaml:4:1", "yaml-syntax", tabs},
	{"resources-lambda_layer_version_permission_complete.blueprint.yaml:22:44", "ref-resource-property", noSpec},
}

const (
	noResources         = "a data source example alone: the spec requires at least one resource or include"
	objectExport        = "exports cors as object; the spec allows string, integer, float, boolean and array exports"
	tabs                = "the example indents with tab characters, which YAML forbids"
	metadataDescription = "metadata.description is not a metadata field (displayName, labels, annotations, custom)"
	tagsAsMap           = "tags written as a map; the provider's schema, like CloudFormation's, takes a list of {key, value}"
	noSpec              = "${resources.x.functionName} skips .spec/.state, which the spec requires in a resource reference"
)

// TestOfficialProviderExamples checks the official AWS provider's
// examples with the built-in providers: no type is unknown (the catalog,
// the provider's spellings and data sources cover them all), and the
// problems left are exactly those listed, each for a stated reason.
func TestOfficialProviderExamples(t *testing.T) {
	checkCorpus(t, "../testdata/bluelink-provider-aws/*.blueprint.*", 60, officialExampleProblems,
		func(code string) bool {
			return strings.Contains(code, "unknown-type") || code == "resource-unknown-provider"
		},
		func(string) bool { return true })
}

// knownProblem is a diagnostic a real-world corpus is expected to get, at
// file:line:col, with the reason it is right.
type knownProblem = struct{ at, code, why string }

// checkCorpus analyses the files glob matches (at least min of them) and
// compares the errors and warnings that listed accepts with want, in
// order; a code that forbidden accepts fails the test wherever it is.
func checkCorpus(t *testing.T, glob string, min int, want []knownProblem, forbidden, listed func(code string) bool) {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) < min {
		t.Fatalf("%d example files", len(files))
	}
	var got []string
	for _, f := range files {
		r := analyzeFile(t, f)
		for _, d := range r.Diagnostics {
			switch {
			case d.Severity > source.Warning:
			case forbidden(d.Code):
				t.Errorf("%s: %s", filepath.Base(f), describe(r, d))
			case listed(d.Code):
				l, c := r.File.Mapper.LineCol(d.Range.Start, source.UTF32)
				got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.Base(f), l, c, d.Code))
			}
		}
	}
	var wantLines []string
	for _, p := range want {
		wantLines = append(wantLines, p.at+" "+p.code)
	}
	if diff := cmp.Diff(wantLines, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
