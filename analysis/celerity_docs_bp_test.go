package analysis

import (
	"strings"
	"testing"
)

// celerityDocsLangProblems is every spec problem the blueprint-language
// (.bp) examples of the Celerity documentation get. They are the same
// examples as the YAML ones of celerityDocsSpecProblems, written in the
// other tab of each page, and they get the same problems at the
// corresponding places; the few more are a slip in one form only
// (queue-00) or blocks that have no YAML twin (runtime-index-00).
var celerityDocsLangProblems = []knownProblem{
	{"celerity-cache-01.bp:16:5", "resource-missing-field", vpcName},
	{"celerity-cache-01.bp:51:5", "resource-missing-field", handlerName},
	{"celerity-channel-08.bp:53:5", "resource-missing-field", handlerName},
	{"celerity-channel-08.bp:69:5", "resource-missing-field", handlerName},
	{"celerity-handler-02.bp:15:5", "resource-missing-field", emptySpec},
	{"celerity-handler-03.bp:15:5", "resource-missing-field", emptySpec},
	{"celerity-handler-07.bp:15:5", "resource-missing-field", emptySpec},
	{"celerity-handler-07.bp:35:9", "resource-unknown-field", "startFromBeginning in a consumer's spec, as in the YAML form"},
	{"celerity-handler-08.bp:20:5", "resource-missing-field", emptySpec},
	{"celerity-handler-10.bp:17:26", "resource-field-type", externalEvents},
	{"celerity-handler-10.bp:18:13", "resource-missing-field", externalEvents},
	{"celerity-handler-10.bp:19:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-10.bp:20:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.bp:17:26", "resource-field-type", externalEvents},
	{"celerity-handler-11.bp:18:13", "resource-missing-field", externalEvents},
	{"celerity-handler-11.bp:19:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.bp:23:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.bp:24:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-11.bp:25:17", "resource-unknown-field", externalEvents},
	{"celerity-handler-config-01.bp:58:5", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.bp:80:5", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.bp:102:5", "resource-missing-field", handlerName},
	{"celerity-handler-config-01.bp:124:5", "resource-missing-field", handlerName},
	{"celerity-queue-00.bp:5:18", "var-invalid-type", "variable type number in the blueprint-language tab only; the YAML tab says integer"},
	{"celerity-sql-database-02.bp:16:5", "resource-missing-field", vpcName},
	{"celerity-sql-database-02.bp:54:5", "resource-missing-field", handlerName},
	{"celerity-sql-database-02.bp:72:5", "resource-missing-field", "an API without protocols, which the transformer requires"},
	{"celerity-sql-database-02.bp:73:9", "resource-unknown-field", "type: http on an API; the transformer takes protocols: [http]"},
	{"celerity-sql-database-02.bp:74:9", "resource-missing-field", "a custom domain without the certificateId the transformer requires"},
	{"celerity-topic-01.bp:34:5", "resource-missing-field", handlerName},
	{"runtime-index-00.bp:30:5", "resource-missing-field", handlerName},
	{"runtime-index-00.bp:50:5", "resource-missing-field", handlerName},
}

// emptySpec: `spec { # ... }` stands for configuration left out. The
// block is an empty mapping, so the required fields are missing; the YAML
// form (`spec:` with only a comment) is an empty value and gets
// spec-field-type at the same place.
const emptySpec = "a spec block holding only a comment where the page elides the configuration"

// TestCelerityDocsBlueprintLanguage checks the blueprint-language examples
// of the Celerity documentation: every block parses, every type and the
// transform are known, and the spec problems are exactly those listed.
func TestCelerityDocsBlueprintLanguage(t *testing.T) {
	checkCorpus(t, "../testdata/celerity-docs-bp/*.bp", 40, celerityDocsLangProblems,
		func(code string) bool {
			return strings.Contains(code, "unknown-type") || code == "resource-unknown-provider" || code == "transform-unknown" || code == "bp-syntax"
		},
		func(code string) bool {
			return strings.HasPrefix(code, "resource-") || code == "var-invalid-type"
		})
}
