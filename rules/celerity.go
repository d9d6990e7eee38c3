package rules

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The Celerity abstract types say the same things as the AWS resources
// they become; these rules are their AWS counterparts' over the abstract
// fields.

const handlerBase = "handlerName: orders\nhandler: handlers.orders\n"

var (
	_ = define(&Rule{
		ID: "celerity-bucket-versioning", Title: "Celerity buckets keep object versions",
		Types: []string{"celerity/bucket"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"S3_BUCKET_VERSIONING_ENABLED"},
		Rationale:   "Versioning keeps overwritten and deleted objects recoverable.",
		Fix:         "Set versioning.status to enabled.",
		Bad:         []string{"name: files", "name: files\nversioning: {status: suspended}"},
		Good:        []string{"name: files\nversioning: {status: enabled}"},
		check:       needIn("versioning.status", false, "enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "celerity-bucket-logging", Title: "Celerity buckets log access",
		Types: []string{"celerity/bucket"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"S3_BUCKET_LOGGING_ENABLED"},
		Rationale:   "Access logs are how you find out who read or changed what after an incident.",
		Fix:         "Set logging.destinationBucket.",
		Bad:         []string{"name: files"},
		Good:        []string{"name: files\nlogging: {destinationBucket: logs}"},
		check:       needSet("logging.destinationBucket"),
	})
	_ = define(&Rule{
		ID: "celerity-bucket-public-website", Title: "Celerity buckets are served as public websites only on purpose",
		Types: []string{"celerity/bucket"}, Severity: source.Information, Set: Security,
		Rationale: "A website configuration makes every object in the bucket publicly readable.",
		Fix:       "Remove website, or keep only public assets in this bucket and suppress the finding with a reason.",
		Bad:       []string{"name: site\nwebsite: {mainPageDocument: index.html}"},
		Good:      []string{"name: files"},
		check:     needUnset("website"),
	})
	_ = define(&Rule{
		ID: "celerity-handler-timeout", Title: "Celerity handlers set a timeout",
		Types: []string{"celerity/handler"}, Severity: source.Information, Set: Reliability,
		Params:    []Param{{Name: "maxSeconds", Default: "300", Doc: "the longest timeout, in seconds"}},
		Rationale: "Without an explicit timeout a stuck handler runs (and is billed) until the platform's limit.",
		Fix:       "Set timeout (seconds) to what the handler needs.",
		Bad:       []string{handlerBase, handlerBase + "timeout: 900"},
		Good:      []string{handlerBase + "timeout: 30"},
		check:     all(needSet("timeout"), needMax("timeout", "maxSeconds", true)),
	})
	_ = define(&Rule{
		ID: "celerity-handler-tracing", Title: "Celerity handlers trace requests",
		Types: []string{"celerity/handler"}, Severity: source.Hint, Set: Reliability,
		Rationale:  "Tracing shows where a request's time goes across services.",
		Fix:        "Set tracingEnabled to true.",
		Bad:        []string{handlerBase, handlerBase + "tracingEnabled: false"},
		Good:       []string{handlerBase + "tracingEnabled: true"},
		check:      needTrue("tracingEnabled"),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "celerity-handler-runtime-supported", Title: "Celerity handlers use a supported runtime",
		Types: []string{"celerity/handler"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"LAMBDA_FUNCTION_SETTINGS_CHECK"},
		Params:      []Param{{Name: "deprecated", Default: "nodejs14.x,nodejs16.x,python3.7,python3.8,go1.x,java8", Doc: "runtimes past end of support"}},
		Rationale:   "Deprecated runtimes get no security patches.",
		Fix:         "Move to a supported runtime.",
		Bad:         []string{handlerBase + "runtime: nodejs16.x"},
		Good:        []string{handlerBase + "runtime: nodejs22.x", handlerBase},
		check: func(s *subject) {
			for _, f := range s.get("runtime") {
				if v, ok := strOf(f.v); f.state == present && ok && containsFold(s.paramList("deprecated"), v) {
					s.fail(f, "spec.runtime %s is past end of support", describe(f.v))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "celerity-topic-encrypted", Title: "Celerity topics encrypt with a KMS key",
		Types: []string{"celerity/topic"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"SNS_ENCRYPTED_KMS"},
		Rationale:   "Messages are stored until delivered; a key keeps them encrypted under your control.",
		Fix:         "Set encryptionKeyId.",
		Bad:         []string{"name: events"},
		Good:        []string{"name: events\nencryptionKeyId: alias/events"},
		check:       needSet("encryptionKeyId"),
	})
	_ = define(&Rule{
		ID: "celerity-api-auth", Title: "Celerity APIs require a guard by default",
		Types: []string{"celerity/api"}, Severity: source.Warning, Set: Security,
		Rationale: "Without a default guard every route is public unless each one names a guard.",
		Fix:       "Set auth.defaultGuard to one of auth.guards.",
		Bad:       []string{"protocols: [http]"},
		Good:      []string{"protocols: [http]\nauth: {defaultGuard: jwt, guards: {jwt: {type: jwt, issuer: 'https://id.example.com', audience: [api], tokenSource: $.headers.Authorization}}}"},
		check:     needSet("auth.defaultGuard"),
	})
	_ = define(&Rule{
		ID: "celerity-api-tracing", Title: "Celerity APIs trace requests",
		Types: []string{"celerity/api"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"API_GW_XRAY_ENABLED"},
		Rationale:   "Tracing shows where a request's latency and errors come from.",
		Fix:         "Set tracingEnabled to true.",
		Bad:         []string{"protocols: [http]", "protocols: [http]\ntracingEnabled: false"},
		Good:        []string{"protocols: [http]\ntracingEnabled: true"},
		check:       needTrue("tracingEnabled"),
		hasQuickFx:  true,
	})
)
