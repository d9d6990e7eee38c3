package rules

import (
	"regexp"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var distribution = []string{"aws/cloudfront/distribution"}

const (
	cfOrigin = "origins: [{id: o, domainName: example.com, customOriginConfig: {originProtocolPolicy: https-only}}]"
	cfBase   = "distributionConfig: {enabled: true, " + cfOrigin + ", defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: redirect-to-https}"
)

// s3Endpoint matches an S3 REST endpoint (global, regional or legacy
// s3-external-N), as an origin's domain name: Guard's pattern.
var s3Endpoint = regexp.MustCompile(`\.s3(-external-\d|[-.][a-z]*-[a-z]*-[0-9])?\.amazonaws\.com(\.cn)?$`)

func cf(extra string) string { return cfBase + extra + "}" }

var (
	_ = define(&Rule{
		ID: "cloudfront-viewer-https", Title: "CloudFront distributions serve viewers over HTTPS",
		Types: distribution, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUDFRONT_VIEWER_POLICY_HTTPS"},
		Rationale:   "allow-all serves content and cookies over plain HTTP.",
		Fix:         "Set viewerProtocolPolicy to redirect-to-https or https-only on every cache behavior.",
		Bad:         []string{"distributionConfig: {enabled: true, " + cfOrigin + ", defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: allow-all}}"},
		Good:        []string{cf("")},
		check: all(needIn("distributionConfig.defaultCacheBehavior.viewerProtocolPolicy", true, "redirect-to-https", "https-only"),
			needIn("distributionConfig.cacheBehaviors[*].viewerProtocolPolicy", true, "redirect-to-https", "https-only")),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "cloudfront-default-root-object", Title: "CloudFront distributions set a default root object",
		Types: distribution, Severity: source.Hint, Set: Security,
		Equivalents: []string{"CLOUDFRONT_DEFAULT_ROOT_OBJECT_CONFIGURED"},
		Rationale:   "Without one, a request for / is passed to the origin, which may list its contents.",
		Fix:         "Set distributionConfig.defaultRootObject (index.html).",
		Bad:         []string{cf("")},
		Good:        []string{cf(", defaultRootObject: index.html")},
		check:       needSet("distributionConfig.defaultRootObject"),
	})
	_ = define(&Rule{
		ID: "cloudfront-access-logs", Title: "CloudFront distributions write access logs",
		Types: distribution, Severity: source.Information, Set: Security,
		Equivalents: []string{"CLOUDFRONT_ACCESSLOGS_ENABLED"},
		Rationale:   "Access logs record every viewer request, needed to investigate abuse.",
		Fix:         "Set distributionConfig.logging.bucket.",
		Bad:         []string{cf("")},
		Good:        []string{cf(", logging: {bucket: logs.s3.amazonaws.com}")},
		check: func(s *subject) {
			if f := s.one("distributionConfig.logging"); f.state == absent {
				s.failMissing(f, fullPath(f))
			}
		},
	})
	_ = define(&Rule{
		ID: "cloudfront-waf", Title: "CloudFront distributions are protected by WAF",
		Types: distribution, Severity: source.Hint, Set: Security,
		Equivalents: []string{"CLOUDFRONT_ASSOCIATED_WITH_WAF"},
		Rationale:   "A web ACL filters common exploits and floods before they reach the origin.",
		Fix:         "Set distributionConfig.webACLId.",
		Bad:         []string{cf("")},
		Good:        []string{cf(", webACLId: arn:aws:wafv2:us-east-1:123456789012:global/webacl/w/1")},
		check:       needSet("distributionConfig.webACLId"),
	})
	_ = define(&Rule{
		ID: "cloudfront-origin-failover", Title: "CloudFront distributions fail over between origins",
		Types: distribution, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"CLOUDFRONT_ORIGIN_FAILOVER_ENABLED"},
		Rationale:   "An origin group retries a second origin when the first fails.",
		Fix:         "Add distributionConfig.originGroups with two origins.",
		Bad:         []string{cf(""), cf(", originGroups: {quantity: 0}"), cf(", originGroups: {quantity: 1, items: [{id: g, failoverCriteria: {statusCodes: {quantity: 1, items: [500]}}, members: {quantity: 1, items: [{originId: o}]}}]}")},
		Good:        []string{cf(", originGroups: {quantity: 1, items: [{id: g, failoverCriteria: {statusCodes: {quantity: 1, items: [500]}}, members: {quantity: 2, items: [{originId: o}, {originId: p}]}}]}")},
		// Guard's CLOUDFRONT_ORIGIN_FAILOVER_ENABLED: at least one group,
		// each of two members.
		check: func(s *subject) {
			g := s.one("distributionConfig.originGroups")
			if g.state == absent {
				s.failMissing(g, fullPath(g))
				return
			}
			if q := s.one("distributionConfig.originGroups.quantity"); q.state == present {
				if n, ok := numOf(q.v); ok && n < 1 {
					s.fail(q, "spec.%s is %s, want at least 1", pathText(q.path), describe(q.v))
				}
			}
			for _, m := range s.get("distributionConfig.originGroups.items[*].members.quantity") {
				if n, ok := numOf(m.v); m.state == present && ok && n != 2 {
					s.fail(m, "spec.%s is %s, want 2", pathText(m.path), describe(m.v))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "cloudfront-tls-policy", Title: "CloudFront distributions require TLS 1.2 from viewers",
		Types: distribution, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUDFRONT_SECURITY_POLICY_CHECK"},
		Rationale:   "Older protocol versions accept ciphers with known weaknesses.",
		Fix:         "Set viewerCertificate.minimumProtocolVersion to TLSv1.2_2021.",
		Bad:         []string{cf(", viewerCertificate: {acmCertificateArn: c, sslSupportMethod: sni-only, minimumProtocolVersion: TLSv1}")},
		Good:        []string{cf(", viewerCertificate: {acmCertificateArn: c, sslSupportMethod: sni-only, minimumProtocolVersion: TLSv1.2_2021}"), cf("")},
		check:       needIn("distributionConfig.viewerCertificate.minimumProtocolVersion", true, "TLSv1.2_2018", "TLSv1.2_2019", "TLSv1.2_2021", "TLSv1.2_2025", "TLSv1.3_2025"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "cloudfront-sni", Title: "CloudFront distributions with custom certificates use SNI",
		Types: distribution, Severity: source.Hint, Set: Cost,
		Rationale: "Dedicated IP (vip) support is billed monthly and only needed for very old clients.",
		Fix:       "Set viewerCertificate.sslSupportMethod to sni-only.",
		Bad:       []string{cf(", viewerCertificate: {acmCertificateArn: c, sslSupportMethod: vip}")},
		Good:      []string{cf(", viewerCertificate: {acmCertificateArn: c, sslSupportMethod: sni-only}")},
		check:     needNotIn("distributionConfig.viewerCertificate.sslSupportMethod", "vip", "static-ip"),
	})
	_ = define(&Rule{
		ID: "cloudfront-origin-https", Title: "CloudFront distributions reach custom origins over HTTPS",
		Types: distribution, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUDFRONT_TRAFFIC_TO_ORIGIN_ENCRYPTED"},
		Rationale:   "http-only and match-viewer send traffic between CloudFront and the origin unencrypted.",
		Fix:         "Set customOriginConfig.originProtocolPolicy to https-only.",
		Bad:         []string{"distributionConfig: {enabled: true, origins: [{id: o, domainName: example.com, customOriginConfig: {originProtocolPolicy: http-only}}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}"},
		Good:        []string{cf("")},
		check:       needIn("distributionConfig.origins[*].customOriginConfig.originProtocolPolicy", true, "https-only"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "cloudfront-no-deprecated-ssl", Title: "CloudFront distributions do not speak SSLv3 to origins",
		Types: distribution, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUDFRONT_NO_DEPRECATED_SSL_PROTOCOLS"},
		Rationale:   "SSLv3 is broken (POODLE); traffic to the origin over it can be decrypted.",
		Fix:         "Remove SSLv3 from customOriginConfig.originSSLProtocols.",
		Bad:         []string{"distributionConfig: {enabled: true, origins: [{id: o, domainName: example.com, customOriginConfig: {originProtocolPolicy: https-only, originSSLProtocols: [SSLv3, TLSv1.2]}}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}"},
		Good:        []string{"distributionConfig: {enabled: true, origins: [{id: o, domainName: example.com, customOriginConfig: {originProtocolPolicy: https-only, originSSLProtocols: [TLSv1.2]}}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}"},
		check:       needNotIn("distributionConfig.origins[*].customOriginConfig.originSSLProtocols[*]", "SSLv3"),
	})
	_ = define(&Rule{
		ID: "cloudfront-s3-origin-access", Title: "CloudFront S3 origins use origin access control",
		Types: distribution, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUDFRONT_ORIGIN_ACCESS_IDENTITY_ENABLED"},
		Rationale:   "Without origin access control (or an identity) the bucket must be public for CloudFront to read it.",
		Fix:         "Set originAccessControlId on the origin (or s3OriginConfig.originAccessIdentity).",
		Bad:         []string{"distributionConfig: {enabled: true, origins: [{id: o, domainName: b.s3.amazonaws.com, s3OriginConfig: {}}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}", "distributionConfig: {enabled: true, origins: [{id: o, domainName: b.s3.eu-west-1.amazonaws.com, customOriginConfig: {originProtocolPolicy: https-only}}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}"},
		Good:        []string{"distributionConfig: {enabled: true, origins: [{id: o, domainName: b.s3.amazonaws.com, s3OriginConfig: {}, originAccessControlId: oac}], defaultCacheBehavior: {targetOriginId: o, viewerProtocolPolicy: https-only}}", cf("")},
		// An S3 origin is one with s3OriginConfig or an S3 endpoint as
		// its domain name (Guard's CLOUDFRONT_ORIGIN_ACCESS_IDENTITY_ENABLED
		// reads both); the legacy s3Origin setting has neither control.
		check: func(s *subject) {
			if f := s.one("distributionConfig.s3Origin"); f.state == present {
				s.fail(f, "spec.%s is a legacy S3 origin, without origin access control", pathText(f.path))
			}
			for _, o := range s.get("distributionConfig.origins[*]") {
				if o.state != present {
					continue
				}
				cfg := lookup(o.v, []string{"s3OriginConfig"}, o.path)[0]
				dn := lookup(o.v, []string{"domainName"}, o.path)[0]
				name, _ := strOf(dn.v)
				if cfg.state != present && (dn.state != present || !s3Endpoint.MatchString(name)) {
					continue
				}
				oac := lookup(o.v, []string{"originAccessControlId"}, o.path)[0]
				oai := lookup(o.v, []string{"s3OriginConfig", "originAccessIdentity"}, o.path)[0]
				if oac.state == absent && (oai.state == absent || oai.state == present && empty(oai.v)) {
					s.fail(o, "spec.%s reads an S3 bucket without origin access control", pathText(o.path))
				}
			}
		},
	})

	_ = define(&Rule{
		ID: "dms-replication-not-public", Title: "DMS replication instances are not publicly accessible",
		Types: []string{"aws/dms/replicationInstance"}, Severity: source.Error, Set: Security,
		Equivalents: []string{"DMS_REPLICATION_NOT_PUBLIC"},
		Rationale:   "A replication instance holds credentials to both databases; a public address exposes it.",
		Fix:         "Set publiclyAccessible to false.",
		Bad:         []string{"replicationInstanceClass: dms.t3.micro", "replicationInstanceClass: dms.t3.micro\npubliclyAccessible: true"},
		Good:        []string{"replicationInstanceClass: dms.t3.micro\npubliclyAccessible: false"},
		check:       needBool("publiclyAccessible", false, false),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "sagemaker-notebook-no-internet", Title: "SageMaker notebook instances have no direct internet access",
		Types: []string{"aws/sagemaker/notebookInstance"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"SAGEMAKER_NOTEBOOK_NO_DIRECT_INTERNET_ACCESS"},
		Rationale:   "Direct internet access lets data leave the notebook without passing the VPC's controls.",
		Fix:         "Set directInternetAccess to Disabled and a subnetId.",
		Bad:         []string{nbBase, nbBase + "directInternetAccess: Enabled"},
		Good:        []string{nbBase + "directInternetAccess: Disabled\nsubnetId: subnet-1\nsecurityGroupIds: [sg-1]"},
		check:       needIn("directInternetAccess", false, "Disabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "sagemaker-notebook-kms", Title: "SageMaker notebook instances encrypt their storage with a KMS key",
		Types: []string{"aws/sagemaker/notebookInstance"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"SAGEMAKER_NOTEBOOK_INSTANCE_KMS_KEY_CONFIGURED"},
		Rationale:   "Notebook volumes hold data sets and credentials.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{nbBase},
		Good:        []string{nbBase + "kmsKeyId: alias/nb"},
		check:       needSet("kmsKeyId"),
	})
	_ = define(&Rule{
		ID: "sagemaker-endpoint-kms", Title: "SageMaker endpoint configurations encrypt with a KMS key",
		Types: []string{"aws/sagemaker/endpointConfig"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"SAGEMAKER_ENDPOINT_CONFIGURATION_KMS_KEY_CONFIGURED"},
		Rationale:   "Model and inference data on the endpoint's volumes are otherwise encrypted only with service keys.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{"productionVariants: [{variantName: v, modelName: m, initialInstanceCount: 1, instanceType: ml.m5.large}]"},
		Good:        []string{"productionVariants: [{variantName: v, modelName: m, initialInstanceCount: 1, instanceType: ml.m5.large}]\nkmsKeyId: alias/ml"},
		check:       needSet("kmsKeyId"),
	})
	_ = define(&Rule{
		ID: "codebuild-no-plaintext-credentials", Title: "CodeBuild projects keep AWS credentials out of plain environment variables",
		Types: []string{"aws/codebuild/project"}, Severity: source.Error, Set: Security,
		Equivalents: []string{"CODEBUILD_PROJECT_ENVVAR_AWSCRED_CHECK"},
		Rationale:   "Plain-text environment variables are visible to anyone who can read the project.",
		Fix:         "Use the project's service role; for other secrets, type SECRETS_MANAGER or PARAMETER_STORE.",
		Bad:         []string{cbEnv("{name: AWS_SECRET_ACCESS_KEY, value: abc}")},
		Good:        []string{cbEnv("{name: AWS_SECRET_ACCESS_KEY, value: 'ci/key', type: SECRETS_MANAGER}"), cbEnv("{name: STAGE, value: prod}")},
		check: func(s *subject) {
			for _, e := range s.get("environment.environmentVariables[*]") {
				if e.state != present {
					continue
				}
				n := lookup(e.v, []string{"name"}, e.path)[0]
				t := lookup(e.v, []string{"type"}, e.path)[0]
				nv, _ := strOf(n.v)
				if !containsFold([]string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}, nv) || t.state == unknown {
					continue
				}
				if tv, _ := strOf(t.v); t.state == absent || tv == "PLAINTEXT" {
					s.fail(n, "spec.%s holds %s in plain text", pathText(e.path), nv)
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "codebuild-artifact-encryption", Title: "CodeBuild projects encrypt their artifacts",
		Types: []string{"aws/codebuild/project"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CODEBUILD_PROJECT_ARTIFACT_ENCRYPTION"},
		Rationale:   "Build artifacts often contain code and configuration with secrets.",
		Fix:         "Remove encryptionDisabled or set it to false.",
		Bad:         []string{cbBase + "artifacts: {type: S3, location: b, encryptionDisabled: true}"},
		Good:        []string{cbBase + "artifacts: {type: S3, location: b}"},
		check:       all(needFalse("artifacts.encryptionDisabled"), needFalse("secondaryArtifacts[*].encryptionDisabled")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "codebuild-s3-logs-encrypted", Title: "CodeBuild projects encrypt their S3 logs",
		Types: []string{"aws/codebuild/project"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"CODEBUILD_PROJECT_S3_LOGS_ENCRYPTED"},
		Rationale:   "Build logs can print secrets and internal hostnames.",
		Fix:         "Remove logsConfig.s3Logs.encryptionDisabled or set it to false.",
		Bad:         []string{cbBase + "artifacts: {type: NO_ARTIFACTS}\nlogsConfig: {s3Logs: {status: ENABLED, location: b/logs, encryptionDisabled: true}}"},
		Good:        []string{cbBase + "artifacts: {type: NO_ARTIFACTS}\nlogsConfig: {s3Logs: {status: ENABLED, location: b/logs}}"},
		check:       needFalse("logsConfig.s3Logs.encryptionDisabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "stepfunctions-logging", Title: "Step Functions state machines log executions",
		Types: []string{"aws/stepfunctions/stateMachine"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"STEP_FUNCTIONS_STATE_MACHINE_LOGGING_ENABLED"},
		Rationale:   "Execution logs explain failed and timed-out workflows after the fact.",
		Fix:         "Set loggingConfiguration.level to ERROR or ALL with a log group destination.",
		Bad:         []string{sfnBase, sfnBase + "loggingConfiguration: {level: 'OFF'}"},
		Good:        []string{sfnBase + "loggingConfiguration: {level: ERROR, destinations: [{cloudWatchLogsLogGroup: {logGroupArn: 'arn:aws:logs:eu-west-1:123456789012:log-group:sfn:*'}}]}"},
		check:       needIn("loggingConfiguration.level", false, "ALL", "ERROR", "FATAL"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "mq-auto-minor-upgrade", Title: "Amazon MQ brokers take minor version upgrades",
		Types: []string{"aws/amazonmq/broker"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"MQ_AUTOMATIC_MINOR_VERSION_UPGRADE_ENABLED"},
		Rationale:   "Minor versions carry security fixes.",
		Fix:         "Set autoMinorVersionUpgrade to true.",
		Bad:         []string{mqBase, mqBase + "autoMinorVersionUpgrade: false"},
		Good:        []string{mqBase + "autoMinorVersionUpgrade: true"},
		check:       needTrue("autoMinorVersionUpgrade"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "mq-not-public", Title: "Amazon MQ brokers are not publicly accessible",
		Types: []string{"aws/amazonmq/broker"}, Severity: source.Warning, Set: Security,
		Rationale:  "A public broker endpoint exposes the message bus to the internet.",
		Fix:        "Set publiclyAccessible to false and subnetIds.",
		Bad:        []string{"brokerName: b\ndeploymentMode: SINGLE_INSTANCE\nengineType: RABBITMQ\nhostInstanceType: mq.t3.micro\npubliclyAccessible: true\nusers: []"},
		Good:       []string{mqBase},
		check:      needFalse("publiclyAccessible"),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "appsync-logging", Title: "AppSync APIs log field resolution",
		Types: []string{"aws/appsync/graphQLApi"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"APPSYNC_LOGGING_ENABLED"},
		Rationale:   "Resolver logs explain errors that clients only see as null fields.",
		Fix:         "Set logConfig.fieldLogLevel to ERROR or ALL with cloudWatchLogsRoleArn.",
		Bad:         []string{"name: api\nauthenticationType: AWS_IAM"},
		Good:        []string{"name: api\nauthenticationType: AWS_IAM\nlogConfig: {fieldLogLevel: ERROR, cloudWatchLogsRoleArn: arn:aws:iam::123456789012:role/l}"},
		check:       needIn("logConfig.fieldLogLevel", false, "ERROR", "ALL", "INFO", "DEBUG"),
	})
	_ = define(&Rule{
		ID: "athena-workgroup-encrypted", Title: "Athena workgroups encrypt query results",
		Types: []string{"aws/athena/workGroup"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"ATHENA_WORKGROUP_ENCRYPTED_AT_REST"},
		Rationale:   "Query results are copies of the data queried.",
		Fix:         "Set workGroupConfiguration.resultConfiguration.encryptionConfiguration.encryptionOption.",
		Bad:         []string{"name: wg\nworkGroupConfiguration: {resultConfiguration: {outputLocation: 's3://b/'}}"},
		Good:        []string{"name: wg\nworkGroupConfiguration: {resultConfiguration: {outputLocation: 's3://b/', encryptionConfiguration: {encryptionOption: SSE_S3}}}"},
		check:       needSet("workGroupConfiguration.resultConfiguration.encryptionConfiguration.encryptionOption"),
	})
)

const (
	nbBase  = "instanceType: ml.t3.medium\nroleArn: arn:aws:iam::123456789012:role/nb\n"
	cbBase  = "serviceRole: arn:aws:iam::123456789012:role/cb\nenvironment: {type: LINUX_CONTAINER, computeType: BUILD_GENERAL1_SMALL, image: 'aws/codebuild/standard:7.0'}\nsource: {type: NO_SOURCE, buildSpec: 'version: 0.2'}\n"
	sfnBase = "roleArn: arn:aws:iam::123456789012:role/sfn\ndefinitionString: '{}'\n"
	mqBase  = "brokerName: b\ndeploymentMode: SINGLE_INSTANCE\nengineType: RABBITMQ\nhostInstanceType: mq.t3.micro\npubliclyAccessible: false\nusers: []\n"
)

func cbEnv(v string) string {
	return "serviceRole: arn:aws:iam::123456789012:role/cb\nenvironment: {type: LINUX_CONTAINER, computeType: BUILD_GENERAL1_SMALL, image: 'aws/codebuild/standard:7.0', environmentVariables: [" + v + "]}\nsource: {type: NO_SOURCE, buildSpec: 'version: 0.2'}\nartifacts: {type: NO_ARTIFACTS}"
}
