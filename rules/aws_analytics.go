package rules

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

var searchDomains = []string{"aws/opensearchservice/domain", "aws/elasticsearch/domain"}

var (
	_ = define(&Rule{
		ID: "opensearch-encrypted-at-rest", Title: "OpenSearch domains encrypt data at rest",
		Types: searchDomains, Severity: source.Warning, Set: Security,
		Equivalents: []string{"OPENSEARCH_ENCRYPTED_AT_REST", "ELASTICSEARCH_ENCRYPTED_AT_REST"},
		Rationale:   "Indexes, logs and snapshots of an unencrypted domain are stored in plain text.",
		Fix:         "Set encryptionAtRestOptions.enabled to true.",
		Bad:         []string{"{}", "encryptionAtRestOptions: {enabled: false}"},
		Good:        []string{"encryptionAtRestOptions: {enabled: true}"},
		check:       needTrue("encryptionAtRestOptions.enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "opensearch-node-to-node-encryption", Title: "OpenSearch domains encrypt traffic between nodes",
		Types: searchDomains, Severity: source.Warning, Set: Security,
		Equivalents: []string{"OPENSEARCH_NODE_TO_NODE_ENCRYPTION_CHECK", "ELASTICSEARCH_NODE_TO_NODE_ENCRYPTION_CHECK"},
		Rationale:   "Without it, data moving between the domain's nodes crosses the network in plain text.",
		Fix:         "Set nodeToNodeEncryptionOptions.enabled to true.",
		Bad:         []string{"{}", "nodeToNodeEncryptionOptions: {enabled: false}"},
		Good:        []string{"nodeToNodeEncryptionOptions: {enabled: true}"},
		check:       needTrue("nodeToNodeEncryptionOptions.enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "opensearch-in-vpc", Title: "OpenSearch domains run inside a VPC",
		Types: searchDomains, Severity: source.Warning, Set: Security,
		Equivalents: []string{"OPENSEARCH_IN_VPC_ONLY", "ELASTICSEARCH_IN_VPC_ONLY"},
		Rationale:   "A domain outside a VPC has a public endpoint guarded only by its access policy.",
		Fix:         "Set vpcOptions.subnetIds (and securityGroupIds).",
		Bad:         []string{"{}"},
		Good:        []string{"vpcOptions: {subnetIds: [subnet-1], securityGroupIds: [sg-1]}"},
		check:       needSet("vpcOptions.subnetIds"),
	})
	_ = define(&Rule{
		ID: "opensearch-https-required", Title: "OpenSearch domains require HTTPS",
		Types: searchDomains, Severity: source.Warning, Set: Security,
		Equivalents: []string{"OPENSEARCH_HTTPS_REQUIRED"},
		Rationale:   "Plain HTTP sends queries, documents and credentials unencrypted.",
		Fix:         "Set domainEndpointOptions.enforceHTTPS to true and domainEndpointOptions.tlsSecurityPolicy to Policy-Min-TLS-1-2-2019-07 (or Policy-Min-TLS-1-2-PFS-2023-10).",
		Bad:         []string{"{}", "domainEndpointOptions: {enforceHTTPS: false, tlsSecurityPolicy: Policy-Min-TLS-1-2-2019-07}", "domainEndpointOptions: {enforceHTTPS: true}", "domainEndpointOptions: {enforceHTTPS: true, tlsSecurityPolicy: Policy-Min-TLS-1-0-2019-07}"},
		Good:        []string{"domainEndpointOptions: {enforceHTTPS: true, tlsSecurityPolicy: Policy-Min-TLS-1-2-2019-07}"},
		// HTTPS with TLS 1.0 allowed is not much of a requirement: Guard's
		// OPENSEARCH_HTTPS_REQUIRED wants the TLS 1.2 policy written (the
		// default is TLS 1.0).
		check: all(needTrue("domainEndpointOptions.enforceHTTPS"),
			needIn("domainEndpointOptions.tlsSecurityPolicy", false, "Policy-Min-TLS-1-2-2019-07", "Policy-Min-TLS-1-2-PFS-2023-10")),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "opensearch-logs-to-cloudwatch", Title: "OpenSearch domains publish error logs to CloudWatch",
		Types: searchDomains, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"OPENSEARCH_LOGS_TO_CLOUDWATCH", "ELASTICSEARCH_LOGS_TO_CLOUDWATCH"},
		Rationale:   "Error logs explain failed requests and cluster problems; they are not kept otherwise.",
		Fix:         "Add logPublishingOptions.ES_APPLICATION_LOGS with enabled true and a log group.",
		Bad:         []string{"{}"},
		Good:        []string{"logPublishingOptions: {ES_APPLICATION_LOGS: {enabled: true, cloudWatchLogsLogGroupArn: arn:aws:logs:eu-west-1:123456789012:log-group:os}}"},
		check:       needTrue("logPublishingOptions.ES_APPLICATION_LOGS.enabled"),
	})
	_ = define(&Rule{
		ID: "opensearch-audit-logging", Title: "OpenSearch domains publish audit logs",
		Types: []string{"aws/opensearchservice/domain"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"OPENSEARCH_AUDIT_LOGGING_ENABLED"},
		Rationale:   "Audit logs record who accessed which index, needed to investigate a data leak.",
		Fix:         "Add logPublishingOptions.AUDIT_LOGS with enabled true and a log group.",
		Bad:         []string{"{}"},
		Good:        []string{"logPublishingOptions: {AUDIT_LOGS: {enabled: true, cloudWatchLogsLogGroupArn: arn:aws:logs:eu-west-1:123456789012:log-group:os}}"},
		check: all(needTrue("logPublishingOptions.AUDIT_LOGS.enabled"),
			needString("logPublishingOptions.AUDIT_LOGS.cloudWatchLogsLogGroupArn")),
	})
	_ = define(&Rule{
		ID: "opensearch-access-control", Title: "OpenSearch domains have fine-grained access control",
		Types: []string{"aws/opensearchservice/domain"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"OPENSEARCH_ACCESS_CONTROL_ENABLED"},
		Rationale:   "Fine-grained access control limits users to indexes, documents and fields.",
		Fix:         "Set advancedSecurityOptions.enabled to true.",
		Bad:         []string{"{}", "advancedSecurityOptions: {enabled: false}"},
		Good:        []string{"advancedSecurityOptions: {enabled: true, internalUserDatabaseEnabled: false}"},
		check:       needTrue("advancedSecurityOptions.enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "opensearch-data-node-fault-tolerance", Title: "OpenSearch domains spread three or more data nodes across zones",
		Types: []string{"aws/opensearchservice/domain"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"OPENSEARCH_DATA_NODE_FAULT_TOLERANCE"},
		Rationale:   "With fewer than three nodes or one zone, a node or zone failure makes the domain unavailable.",
		Fix:         "Set clusterConfig.zoneAwarenessEnabled to true and instanceCount to 3 or more.",
		Bad:         []string{"clusterConfig: {instanceCount: 1}", "clusterConfig: {zoneAwarenessEnabled: true}", "clusterConfig: {instanceCount: 3, zoneAwarenessEnabled: false}"},
		Good:        []string{"clusterConfig: {instanceCount: 3, zoneAwarenessEnabled: true}"},
		check: func(s *subject) {
			needTrue("clusterConfig.zoneAwarenessEnabled")(s)
			f := s.one("clusterConfig.instanceCount")
			if f.state == absent {
				s.failMissing(f, fullPath(f)) // one node, by default
			} else if n, ok := numOf(f.v); f.state == present && ok && n < 3 {
				s.fail(f, "spec.clusterConfig.instanceCount is %s, want at least 3", describe(f.v))
			}
		},
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "opensearch-dedicated-master", Title: "OpenSearch domains have dedicated primary nodes",
		Types: []string{"aws/opensearchservice/domain"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"OPENSEARCH_PRIMARY_NODE_FAULT_TOLERANCE"},
		Rationale:   "Dedicated primary nodes keep cluster management stable when data nodes are busy or failing.",
		Fix:         "Set clusterConfig.dedicatedMasterEnabled to true with dedicatedMasterCount 3.",
		Bad:         []string{"clusterConfig: {instanceCount: 3}", "clusterConfig: {instanceCount: 3, dedicatedMasterEnabled: false}"},
		Good:        []string{"clusterConfig: {instanceCount: 3, dedicatedMasterEnabled: true, dedicatedMasterCount: 3}"},
		check:       needTrue("clusterConfig.dedicatedMasterEnabled"),
		hasQuickFx:  true,
	})

	_ = define(&Rule{
		ID: "elasticache-auto-failover", Title: "ElastiCache replication groups fail over automatically",
		Types: []string{"aws/elasticache/replicationGroup"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"ELASTICACHE_REPL_GRP_AUTO_FAILOVER_ENABLED"},
		Rationale:   "Without automatic failover a primary's failure leaves the group read-only until someone promotes a replica.",
		Fix:         "Set automaticFailoverEnabled to true (with at least one replica).",
		Bad:         []string{rgBase, rgBase + "automaticFailoverEnabled: false"},
		Good:        []string{rgBase + "automaticFailoverEnabled: true"},
		check:       needTrue("automaticFailoverEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elasticache-encrypted-at-rest", Title: "ElastiCache replication groups encrypt data at rest",
		Types: []string{"aws/elasticache/replicationGroup"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ELASTICACHE_REPL_GRP_ENCRYPTED_AT_REST"},
		Rationale:   "Backups and swap of an unencrypted cache hold its data in plain text.",
		Fix:         "Set atRestEncryptionEnabled to true.",
		Bad:         []string{rgBase, rgBase + "atRestEncryptionEnabled: false"},
		Good:        []string{rgBase + "atRestEncryptionEnabled: true"},
		check:       needTrue("atRestEncryptionEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elasticache-encrypted-in-transit", Title: "ElastiCache replication groups encrypt traffic",
		Types: []string{"aws/elasticache/replicationGroup"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ELASTICACHE_REPL_GRP_ENCRYPTED_IN_TRANSIT"},
		Rationale:   "Cache traffic (session data, tokens) crosses the network in plain text without TLS.",
		Fix:         "Set transitEncryptionEnabled to true.",
		Bad:         []string{rgBase, rgBase + "transitEncryptionEnabled: false"},
		Good:        []string{rgBase + "transitEncryptionEnabled: true"},
		check:       needTrue("transitEncryptionEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elasticache-redis-auth", Title: "ElastiCache Redis replication groups require authentication",
		Types: []string{"aws/elasticache/replicationGroup"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ELASTICACHE_REPL_GRP_REDIS_AUTH_ENABLED"},
		Rationale:   "Without AUTH (or RBAC user groups) anything that can reach the port can read and write the cache.",
		Fix:         "Set authToken (from a secret) or userGroupIds.",
		Bad:         []string{rgBase},
		Good:        []string{rgBase + "userGroupIds: [app]"},
		check: func(s *subject) {
			if s.one("authToken").state == absent && s.one("userGroupIds").state == absent {
				s.failMissing(s.one("authToken"), "spec.authToken (or userGroupIds)")
			}
		},
	})
	_ = define(&Rule{
		ID: "elasticache-automatic-backup", Title: "ElastiCache Redis keeps automatic backups",
		Types: []string{"aws/elasticache/replicationGroup", "aws/elasticache/cacheCluster"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"ELASTICACHE_REDIS_CLUSTER_AUTOMATIC_BACKUP_CHECK"},
		Params:      []Param{{Name: "minDays", Default: "1", Doc: "the shortest snapshot retention, in days"}},
		Rationale:   "A snapshot retention of 0 means no backup to restore the cache's data from.",
		Fix:         "Set snapshotRetentionLimit to 1 or more.",
		Bad:         []string{rgBase, rgBase + "snapshotRetentionLimit: 0"},
		Good:        []string{rgBase + "snapshotRetentionLimit: 7"},
		check: when("engine", "redis", []string{"redis", "valkey"}, func(s *subject) {
			needMin("snapshotRetentionLimit", "minDays", false)(s)
		}),
	})
	_ = define(&Rule{
		ID: "elasticache-auto-minor-upgrade", Title: "ElastiCache clusters take minor version upgrades",
		Types: []string{"aws/elasticache/cacheCluster"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"ELASTICACHE_AUTO_MINOR_VERSION_UPGRADE_CHECK"},
		Rationale:   "Minor versions carry security fixes.",
		Fix:         "Remove autoMinorVersionUpgrade or set it to true.",
		Bad:         []string{ccBase + "autoMinorVersionUpgrade: false"},
		Good:        []string{ccBase},
		check:       needBool("autoMinorVersionUpgrade", true, true),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "elasticache-subnet-group", Title: "ElastiCache clusters run in a named subnet group",
		Types: []string{"aws/elasticache/cacheCluster"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"ELASTICACHE_SUBNET_GROUP_CHECK"},
		Rationale:   "Without a subnet group the cluster lands in the default VPC's default subnets.",
		Fix:         "Set cacheSubnetGroupName.",
		Bad:         []string{ccBase},
		Good:        []string{ccBase + "cacheSubnetGroupName: private"},
		check:       needSet("cacheSubnetGroupName"),
	})

	_ = define(&Rule{
		ID: "redshift-not-public", Title: "Redshift clusters are not publicly accessible",
		Types: redshift, Severity: source.Error, Set: Security,
		Equivalents: []string{"REDSHIFT_CLUSTER_PUBLIC_ACCESS_CHECK"},
		Rationale:   "A public cluster endpoint exposes the warehouse to the internet behind only its security group.",
		Fix:         "Set publiclyAccessible to false.",
		Bad:         []string{rsBase + "publiclyAccessible: true"},
		Good:        []string{rsBase, rsBase + "publiclyAccessible: false"},
		check:       needFalse("publiclyAccessible"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "redshift-encrypted", Title: "Redshift clusters are encrypted",
		Types: redshift, Severity: source.Warning, Set: Security,
		Equivalents: []string{"REDSHIFT_CLUSTER_CONFIGURATION_CHECK"},
		Rationale:   "Unencrypted warehouse storage and snapshots expose the data.",
		Fix:         "Set encrypted to true.",
		Bad:         []string{rsBase, rsBase + "encrypted: false"},
		Good:        []string{rsBase + "encrypted: true"},
		check:       needTrue("encrypted"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "redshift-kms", Title: "Redshift clusters encrypt with a KMS key",
		Types: redshift, Severity: source.Hint, Set: Security,
		Equivalents: []string{"REDSHIFT_CLUSTER_KMS_ENABLED"},
		Rationale:   "Your own KMS key adds key-policy control and an audit trail over the warehouse's data.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{rsBase + "encrypted: true"},
		Good:        []string{rsBase + "encrypted: true\nkmsKeyId: arn:aws:kms:eu-west-1:123456789012:key/k"},
		check:       needSet("kmsKeyId"),
	})
	_ = define(&Rule{
		ID: "redshift-enhanced-vpc-routing", Title: "Redshift clusters route COPY and UNLOAD through the VPC",
		Types: redshift, Severity: source.Hint, Set: Security,
		Equivalents: []string{"REDSHIFT_ENHANCED_VPC_ROUTING_ENABLED"},
		Rationale:   "Enhanced VPC routing keeps data loads and unloads inside the VPC, where endpoints and flow logs apply.",
		Fix:         "Set enhancedVpcRouting to true.",
		Bad:         []string{rsBase, rsBase + "enhancedVpcRouting: false"},
		Good:        []string{rsBase + "enhancedVpcRouting: true"},
		check:       needTrue("enhancedVpcRouting"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "redshift-backup", Title: "Redshift clusters keep automated snapshots",
		Types: redshift, Severity: source.Warning, Set: Reliability,
		Equivalents: []string{"REDSHIFT_BACKUP_ENABLED"},
		Params:      []Param{{Name: "minDays", Default: "1", Doc: "the shortest snapshot retention, in days"}},
		Rationale:   "A retention period of 0 turns automated snapshots off.",
		Fix:         "Set automatedSnapshotRetentionPeriod to 1 or more.",
		Bad:         []string{rsBase + "automatedSnapshotRetentionPeriod: 0"},
		Good:        []string{rsBase, rsBase + "automatedSnapshotRetentionPeriod: 7"},
		check:       needMin("automatedSnapshotRetentionPeriod", "minDays", true),
	})
	_ = define(&Rule{
		ID: "redshift-version-upgrade", Title: "Redshift clusters take version upgrades",
		Types: redshift, Severity: source.Hint, Set: Security,
		Rationale:  "Engine upgrades carry security fixes.",
		Fix:        "Remove allowVersionUpgrade or set it to true.",
		Bad:        []string{rsBase + "allowVersionUpgrade: false"},
		Good:       []string{rsBase},
		check:      needBool("allowVersionUpgrade", true, true),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "redshift-default-admin", Title: "Redshift clusters do not use the default admin user name",
		Types: redshift, Severity: source.Information, Set: Security,
		Equivalents: []string{"REDSHIFT_DEFAULT_ADMIN_CHECK"},
		Rationale:   "awsuser is the first name attackers guess.",
		Fix:         "Choose another masterUsername.",
		Bad:         []string{"clusterType: single-node\nnodeType: ra3.xlplus\ndbName: dev\nmasterUsername: awsuser"},
		Good:        []string{rsBase},
		check:       needNotIn("masterUsername", "awsuser"),
	})

	_ = define(&Rule{
		ID: "kinesis-stream-encrypted", Title: "Kinesis data streams are encrypted",
		Types: []string{"aws/kinesis/stream"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"KINESIS_STREAM_ENCRYPTED"},
		Rationale:   "Records are stored for the retention period; without KMS encryption they are stored in plain text.",
		Fix:         "Set streamEncryption {encryptionType: KMS, keyId: alias/aws/kinesis}.",
		Bad:         []string{"shardCount: 1"},
		Good:        []string{"shardCount: 1\nstreamEncryption: {encryptionType: KMS, keyId: alias/aws/kinesis}"},
		check:       needIn("streamEncryption.encryptionType", false, "KMS"),
	})
	_ = define(&Rule{
		ID: "firehose-encrypted", Title: "Firehose delivery streams encrypt data at rest",
		Types: []string{"aws/kinesisfirehose/deliveryStream"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"KINESIS_FIREHOSE_DELIVERY_STREAM_ENCRYPTED"},
		Rationale:   "Records buffered by a direct-put stream are stored unencrypted without server-side encryption.",
		Fix:         "Set deliveryStreamEncryptionConfigurationInput {keyType: AWS_OWNED_CMK or CUSTOMER_MANAGED_CMK}.",
		Bad:         []string{"deliveryStreamType: DirectPut"},
		Good:        []string{"deliveryStreamType: DirectPut\ndeliveryStreamEncryptionConfigurationInput: {keyType: AWS_OWNED_CMK}", "deliveryStreamType: KinesisStreamAsSource"},
		check:       when("deliveryStreamType", "DirectPut", []string{"DirectPut"}, needSet("deliveryStreamEncryptionConfigurationInput.keyType")),
	})
	_ = define(&Rule{
		ID: "secretsmanager-cmk", Title: "Secrets Manager secrets encrypt with your own KMS key",
		Types: []string{"aws/secretsmanager/secret"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"SECRETSMANAGER_USING_CMK"},
		Rationale:   "A customer managed key lets a key policy decide who can decrypt the secret, separately from who can read it.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{"name: db", "name: db\nkmsKeyId: alias/aws/secretsmanager"},
		Good:        []string{"name: db\nkmsKeyId: alias/secrets"},
		check:       all(needSet("kmsKeyId"), needNotIn("kmsKeyId", "alias/aws/secretsmanager")),
	})
	_ = define(&Rule{
		ID: "secretsmanager-rotation", Title: "Secrets Manager rotation schedules rotate at least every 90 days",
		Types: []string{"aws/secretsmanager/rotationSchedule"}, Severity: source.Information, Set: Security,
		Params:    []Param{{Name: "maxDays", Default: "90", Doc: "the longest rotation interval, in days"}},
		Rationale: "Long-lived secrets stay useful to whoever copied them.",
		Fix:       "Set rotationRules.automaticallyAfterDays (or a scheduleExpression) of 90 days or less.",
		Bad:       []string{"secretId: s\nrotationLambdaARN: arn:aws:lambda:eu-west-1:123456789012:function:r", "secretId: s\nrotationLambdaARN: arn:aws:lambda:eu-west-1:123456789012:function:r\nrotationRules: {automaticallyAfterDays: 365}"},
		Good:      []string{"secretId: s\nrotationLambdaARN: arn:aws:lambda:eu-west-1:123456789012:function:r\nrotationRules: {automaticallyAfterDays: 30}", "secretId: s\nrotationLambdaARN: arn:aws:lambda:eu-west-1:123456789012:function:r\nrotationRules: {scheduleExpression: rate(30 days)}"},
		check: unlessSet("rotationRules.scheduleExpression", func(s *subject) {
			needSet("rotationRules.automaticallyAfterDays")(s)
			needMax("rotationRules.automaticallyAfterDays", "maxDays", true)(s)
		}),
	})
)

var redshift = []string{"aws/redshift/cluster"}

const (
	rgBase = "replicationGroupDescription: cache\nengine: redis\n"
	ccBase = "cacheNodeType: cache.t3.micro\nengine: redis\nnumCacheNodes: 1\n"
	rsBase = "clusterType: single-node\nnodeType: ra3.xlplus\ndbName: dev\nmasterUsername: warehouse_admin\n"
)
