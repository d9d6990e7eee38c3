package analysis

import (
	"strings"
	"testing"
)

// celerityDocsSpecProblems is every spec problem (resource-* codes) and
// syntax error the Celerity documentation's examples get against the
// built-in Celerity types, which follow the Celerity transformer; each
// is a place where the documentation and the transformer disagree, or a
// slip in the example.
var celerityDocsSpecProblems = []struct{ at, code, why string }{
	{"celerity-cache-01.blueprint.yaml:13:9", "resource-missing-field", vpcName},
	{"celerity-cache-01.blueprint.yaml:38:9", "resource-missing-field", handlerName},
	{"celerity-channel-08.blueprint.yaml:38:9", "resource-missing-field", handlerName},
	{"celerity-channel-08.blueprint.yaml:49:9", "resource-missing-field", handlerName},
	{"celerity-handler-07.blueprint.yaml:28:13", "resource-unknown-field", "startFromBeginning in a consumer's spec; the transformer reads it from the annotation celerity.consumer.datastore.startFromBeginning"},
	{"celerity-handler-10.blueprint.yaml:15:29", "resource-field-type", externalEvents},
	{"celerity-handler-10.blueprint.yaml:16:17", "resource-missing-field", externalEvents},
	{"celerity-handler-10.blueprint.yaml:17:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-10.blueprint.yaml:18:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.blueprint.yaml:15:29", "resource-field-type", externalEvents},
	{"celerity-handler-11.blueprint.yaml:16:17", "resource-missing-field", externalEvents},
	{"celerity-handler-11.blueprint.yaml:17:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.blueprint.yaml:21:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.blueprint.yaml:22:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.blueprint.yaml:23:21", "resource-unknown-field", externalEvents},
	{"celerity-handler-config-01.blueprint.yaml:53:9", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.blueprint.yaml:69:9", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.blueprint.yaml:85:9", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.blueprint.yaml:101:9", "resource-missing-field", handlerName},
	{"celerity-sql-database-02.blueprint.yaml:13:9", "resource-missing-field", vpcName},
	{"celerity-sql-database-02.blueprint.yaml:41:9", "resource-missing-field", handlerName},
	{"celerity-sql-database-02.blueprint.yaml:54:9", "resource-missing-field", "an API without protocols, which the transformer requires"},
	{"celerity-sql-database-02.blueprint.yaml:55:13", "resource-unknown-field", "type: http on an API; the transformer takes protocols: [http]"},
	{"celerity-sql-database-02.blueprint.yaml:56:13", "resource-missing-field", "a custom domain without the certificateId the transformer requires"},
	{"celerity-topic-01.blueprint.yaml:26:9", "resource-missing-field", handlerName},
	{"celerity-workflow-08.blueprint.yaml:52:4", "yaml-syntax", "a line indented by 3 spaces in the example"},
}

const (
	handlerName    = "the documentation omits handlerName, which the transformer's celerity/handler requires"
	vpcName        = "the documentation omits name, which the transformer's celerity/vpc requires"
	externalEvents = "externalEvents written as one source; the transformer takes a map of named sources, each {sourceType, sourceConfiguration}"
)

// TestCelerityDocsExamples checks the Celerity documentation's examples:
// every type and the transform are known, and the spec problems are
// exactly those listed.
func TestCelerityDocsExamples(t *testing.T) {
	checkCorpus(t, "../testdata/celerity-docs/*.blueprint.yaml", 40, celerityDocsSpecProblems,
		func(code string) bool {
			return strings.Contains(code, "unknown-type") || code == "resource-unknown-provider" || code == "transform-unknown"
		},
		func(code string) bool { return strings.HasPrefix(code, "resource-") || code == "yaml-syntax" })
}
