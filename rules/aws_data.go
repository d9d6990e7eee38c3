package rules

import (
	"github.com/blueprint-ls/blueprint-ls/source"
)

var (
	dbInstance = []string{"aws/rds/dbInstance"}
	dbCluster  = []string{"aws/rds/dbCluster"}
)

// standalone runs c unless the DB instance belongs to a cluster (Aurora),
// whose cluster decides storage, backups and availability.
func standalone(c func(*subject)) func(*subject) {
	return func(s *subject) {
		if f := s.one("dbClusterIdentifier"); f.state == absent {
			c(s)
		}
	}
}

const rdsBase = "engine: postgres\ndbInstanceClass: db.t3.micro\nallocatedStorage: '20'\n"

var (
	_ = define(&Rule{
		ID: "rds-storage-encrypted", Title: "RDS DB instances encrypt their storage",
		Types: dbInstance, Severity: source.Warning, Set: Security,
		Equivalents: []string{"RDS_STORAGE_ENCRYPTED"},
		Rationale:   "Unencrypted database storage, its snapshots and replicas expose the data to anyone who can copy them; encryption can only be chosen when the instance is created.",
		Fix:         "Set storageEncrypted to true (and kmsKeyId to your key).",
		Bad:         []string{rdsBase, rdsBase + "storageEncrypted: false"},
		Good:        []string{rdsBase + "storageEncrypted: true", "engine: aurora-postgresql\ndbInstanceClass: db.r6g.large\ndbClusterIdentifier: c"},
		check:       standalone(needTrue("storageEncrypted")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-instance-not-public", Title: "RDS DB instances are not publicly accessible",
		Types: dbInstance, Severity: source.Error, Set: Security,
		Equivalents: []string{"RDS_INSTANCE_PUBLIC_ACCESS_CHECK"},
		Rationale:   "A publicly accessible instance gets an internet-resolvable address; only its security group stands between the database and the internet.",
		Fix:         "Set publiclyAccessible to false (explicitly: unset, the subnet group decides) and reach the database from inside the VPC.",
		Bad:         []string{rdsBase + "publiclyAccessible: true", rdsBase},
		Good:        []string{rdsBase + "publiclyAccessible: false"},
		// Not set, the subnet group decides (an instance in the default
		// VPC is public): Guard's RDS_INSTANCE_PUBLIC_ACCESS_CHECK wants
		// false written.
		check:      needBool("publiclyAccessible", false, false),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "rds-multi-az", Title: "RDS DB instances run in several availability zones",
		Types: dbInstance, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"RDS_MULTI_AZ_SUPPORT"},
		Rationale:   "A Multi-AZ instance fails over to a standby in another zone; a single-AZ one is down until its zone recovers.",
		Fix:         "Set multiAZ to true.",
		Bad:         []string{rdsBase, rdsBase + "multiAZ: false"},
		Good:        []string{rdsBase + "multiAZ: true"},
		check:       standalone(needTrue("multiAZ")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-instance-deletion-protection", Title: "RDS DB instances have deletion protection",
		Types: dbInstance, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"RDS_INSTANCE_DELETION_PROTECTION_ENABLED"},
		Rationale:   "Deletion protection stops a mistaken delete (or a blueprint change that replaces the instance) from destroying the database.",
		Fix:         "Set deletionProtection to true.",
		Bad:         []string{rdsBase, rdsBase + "deletionProtection: false"},
		Good:        []string{rdsBase + "deletionProtection: true"},
		check:       needTrue("deletionProtection"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-backup-enabled", Title: "RDS DB instances keep automated backups",
		Types: dbInstance, Severity: source.Warning, Set: Reliability,
		Equivalents: []string{"DB_INSTANCE_BACKUP_ENABLED"},
		Params:      []Param{{Name: "minDays", Default: "1", Doc: "the shortest backup retention, in days"}},
		Rationale:   "A backupRetentionPeriod of 0 turns automated backups and point-in-time restore off.",
		Fix:         "Set backupRetentionPeriod to at least 1 (7 or more for production); write it rather than rely on the default.",
		Bad:         []string{rdsBase + "backupRetentionPeriod: 0", rdsBase},
		Good:        []string{rdsBase + "backupRetentionPeriod: 7"},
		// Guard's DB_INSTANCE_BACKUP_ENABLED wants the period written.
		check: standalone(needMin("backupRetentionPeriod", "minDays", false)),
	})
	_ = define(&Rule{
		ID: "rds-auto-minor-version-upgrade", Title: "RDS DB instances take minor version upgrades",
		Types: dbInstance, Severity: source.Hint, Set: Security,
		Equivalents: []string{"RDS_AUTOMATIC_MINOR_VERSION_UPGRADE_ENABLED"},
		Rationale:   "Minor versions carry security fixes; turning automatic upgrades off leaves known vulnerabilities in place.",
		Fix:         "Set autoMinorVersionUpgrade to true.",
		Bad:         []string{rdsBase + "autoMinorVersionUpgrade: false", rdsBase},
		Good:        []string{rdsBase + "autoMinorVersionUpgrade: true"},
		// Guard's RDS_AUTOMATIC_MINOR_VERSION_UPGRADE_ENABLED wants it
		// written.
		check:      needBool("autoMinorVersionUpgrade", true, false),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "rds-enhanced-monitoring", Title: "RDS DB instances have enhanced monitoring",
		Types: dbInstance, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"RDS_ENHANCED_MONITORING_ENABLED"},
		Rationale:   "Enhanced monitoring shows the operating system's view (processes, memory, I/O) that CloudWatch's hypervisor metrics miss.",
		Fix:         "Set monitoringInterval to 1, 5, 10, 15, 30 or 60, with monitoringRoleArn.",
		Bad:         []string{rdsBase, rdsBase + "monitoringInterval: 0"},
		Good:        []string{rdsBase + "monitoringInterval: 60\nmonitoringRoleArn: arn:aws:iam::123456789012:role/m"},
		check: func(s *subject) {
			f := s.one("monitoringInterval")
			switch f.state {
			case absent:
				s.failMissing(f, "spec.monitoringInterval")
			case present:
				if n, ok := numOf(f.v); ok && n <= 0 {
					s.fail(f, "spec.monitoringInterval is %s", describe(f.v))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "rds-logging-enabled", Title: "RDS DB instances export their logs to CloudWatch",
		Types: dbInstance, Severity: source.Hint, Set: Security,
		Equivalents: []string{"RDS_LOGGING_ENABLED"},
		Rationale:   "Database logs (errors, audit, slow queries) are needed to investigate incidents and are lost with the instance unless exported.",
		Fix:         "List the engine's log types in enableCloudwatchLogsExports.",
		Bad:         []string{rdsBase},
		Good:        []string{rdsBase + "enableCloudwatchLogsExports: [postgresql]"},
		check:       needSet("enableCloudwatchLogsExports"),
	})
	_ = define(&Rule{
		ID: "rds-instance-iam-auth", Title: "RDS DB instances accept IAM database authentication",
		Types: dbInstance, Severity: source.Hint, Set: Security,
		Equivalents: []string{"RDS_INSTANCE_IAM_AUTHENTICATION_ENABLED"},
		Rationale:   "IAM authentication replaces long-lived database passwords with short-lived tokens tied to roles.",
		Fix:         "Set enableIAMDatabaseAuthentication to true.",
		Bad:         []string{rdsBase, rdsBase + "enableIAMDatabaseAuthentication: false"},
		Good:        []string{rdsBase + "enableIAMDatabaseAuthentication: true"},
		check:       standalone(needTrue("enableIAMDatabaseAuthentication")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-instance-default-admin", Title: "RDS DB instances do not use the default admin user name",
		Types: dbInstance, Severity: source.Information, Set: Security,
		Equivalents: []string{"RDS_INSTANCE_DEFAULT_ADMIN_CHECK"},
		Rationale:   "The engine's default administrator name is the first one attackers guess.",
		Fix:         "Choose another masterUsername.",
		Bad:         []string{rdsBase + "masterUsername: postgres", rdsBase + "masterUsername: admin"},
		Good:        []string{rdsBase + "masterUsername: app_owner"},
		check:       needNotIn("masterUsername", "admin", "postgres", "root", "sa", "master"),
	})
	_ = define(&Rule{
		ID: "rds-cluster-encrypted", Title: "RDS DB clusters encrypt their storage",
		Types: dbCluster, Severity: source.Warning, Set: Security,
		Equivalents: []string{"RDS_CLUSTER_ENCRYPTED_AT_REST"},
		Rationale:   "Unencrypted cluster storage and snapshots expose the data; encryption can only be chosen at creation.",
		Fix:         "Set storageEncrypted to true.",
		Bad:         []string{"engine: aurora-postgresql", "engine: aurora-postgresql\nstorageEncrypted: false"},
		Good:        []string{"engine: aurora-postgresql\nstorageEncrypted: true"},
		check:       unlessTrue("storageEncrypted", unlessSet("snapshotIdentifier", needTrue("storageEncrypted"))),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-cluster-deletion-protection", Title: "RDS DB clusters have deletion protection",
		Types: dbCluster, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"RDS_CLUSTER_DELETION_PROTECTION_ENABLED"},
		Rationale:   "Deletion protection stops a mistaken delete or replacement from destroying the cluster.",
		Fix:         "Set deletionProtection to true.",
		Bad:         []string{"engine: aurora-postgresql", "engine: aurora-postgresql\ndeletionProtection: false"},
		Good:        []string{"engine: aurora-postgresql\ndeletionProtection: true"},
		check:       needTrue("deletionProtection"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-cluster-iam-auth", Title: "RDS DB clusters accept IAM database authentication",
		Types: dbCluster, Severity: source.Hint, Set: Security,
		Equivalents: []string{"RDS_CLUSTER_IAM_AUTHENTICATION_ENABLED"},
		Rationale:   "IAM authentication replaces long-lived database passwords with short-lived tokens tied to roles.",
		Fix:         "Set enableIAMDatabaseAuthentication to true.",
		Bad:         []string{"engine: aurora-mysql", "engine: aurora-mysql\nenableIAMDatabaseAuthentication: false"},
		Good:        []string{"engine: aurora-mysql\nenableIAMDatabaseAuthentication: true"},
		check:       needTrue("enableIAMDatabaseAuthentication"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "rds-cluster-default-admin", Title: "RDS DB clusters do not use the default admin user name",
		Types: dbCluster, Severity: source.Information, Set: Security,
		Equivalents: []string{"RDS_CLUSTER_DEFAULT_ADMIN_CHECK"},
		Rationale:   "The engine's default administrator name is the first one attackers guess.",
		Fix:         "Choose another masterUsername.",
		Bad:         []string{"engine: aurora-postgresql\nmasterUsername: postgres"},
		Good:        []string{"engine: aurora-postgresql\nmasterUsername: app_owner"},
		check:       needNotIn("masterUsername", "admin", "postgres", "root", "sa", "master"),
	})
	_ = define(&Rule{
		ID: "rds-cluster-backtracking", Title: "Aurora MySQL clusters have backtracking",
		Types: dbCluster, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"AURORA_MYSQL_BACKTRACKING_ENABLED"},
		Rationale:   "Backtracking rewinds the cluster to a moment before a bad write in minutes, without a restore.",
		Fix:         "Set backtrackWindow (seconds) above 0.",
		Bad:         []string{"engine: aurora-mysql", "engine: aurora-mysql\nbacktrackWindow: 0"},
		Good:        []string{"engine: aurora-mysql\nbacktrackWindow: 86400", "engine: aurora-postgresql"},
		check: when("engine", "", []string{"aurora", "aurora-mysql"}, func(s *subject) {
			f := s.one("backtrackWindow")
			switch f.state {
			case absent:
				s.failMissing(f, "spec.backtrackWindow")
			case present:
				if n, ok := numOf(f.v); ok && n <= 0 {
					s.fail(f, "spec.backtrackWindow is %s", describe(f.v))
				}
			}
		}),
	})
	_ = define(&Rule{
		ID: "rds-cluster-backup-retention", Title: "RDS DB clusters keep backups for a week or more",
		Types: dbCluster, Severity: source.Hint, Set: Reliability,
		Params:    []Param{{Name: "minDays", Default: "7", Doc: "the shortest backup retention, in days"}},
		Rationale: "The default retention of one day leaves a weekend's mistake unrecoverable.",
		Fix:       "Set backupRetentionPeriod to at least 7.",
		Bad:       []string{"engine: aurora-postgresql", "engine: aurora-postgresql\nbackupRetentionPeriod: 1"},
		Good:      []string{"engine: aurora-postgresql\nbackupRetentionPeriod: 14"},
		check:     needMin("backupRetentionPeriod", "minDays", false),
	})
	_ = define(&Rule{
		ID: "docdb-cluster-encrypted", Title: "DocumentDB clusters encrypt their storage",
		Types: []string{"aws/docdb/dbCluster"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"DOCDB_CLUSTER_ENCRYPTED"},
		Rationale:   "Unencrypted storage and snapshots expose the data; encryption can only be chosen at creation.",
		Fix:         "Set storageEncrypted to true.",
		Bad:         []string{"{}", "storageEncrypted: false"},
		Good:        []string{"storageEncrypted: true"},
		check:       needTrue("storageEncrypted"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "neptune-cluster-encrypted", Title: "Neptune clusters encrypt their storage",
		Types: []string{"aws/neptune/dbCluster"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"NEPTUNE_CLUSTER_ENCRYPTED"},
		Rationale:   "Unencrypted storage and snapshots expose the data; encryption can only be chosen at creation.",
		Fix:         "Set storageEncrypted to true.",
		Bad:         []string{"{}", "storageEncrypted: false"},
		Good:        []string{"storageEncrypted: true"},
		check:       needTrue("storageEncrypted"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "neptune-cluster-iam-auth", Title: "Neptune clusters accept IAM database authentication",
		Types: []string{"aws/neptune/dbCluster"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"NEPTUNE_CLUSTER_IAM_DATABASE_AUTHENTICATION"},
		Rationale:   "IAM authentication signs every request with role credentials instead of leaving the endpoint open to the network.",
		Fix:         "Set iamAuthEnabled to true.",
		Bad:         []string{"storageEncrypted: true", "storageEncrypted: true\niamAuthEnabled: false"},
		Good:        []string{"storageEncrypted: true\niamAuthEnabled: true"},
		check:       needTrue("iamAuthEnabled"),
		hasQuickFx:  true,
	})

	_ = define(&Rule{
		ID: "dynamodb-pitr-enabled", Title: "DynamoDB tables have point-in-time recovery",
		Types: []string{"aws/dynamodb/table"}, Severity: source.Warning, Set: Reliability,
		Equivalents: []string{"DYNAMODB_PITR_ENABLED"},
		Rationale:   "Point-in-time recovery restores the table to any second of the last 35 days after a bad write or delete; without it there is no undo.",
		Fix:         "Set pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled to true.",
		Bad:         []string{ddbBase, ddbBase + "pointInTimeRecoverySpecification: {pointInTimeRecoveryEnabled: false}"},
		Good:        []string{ddbBase + "pointInTimeRecoverySpecification: {pointInTimeRecoveryEnabled: true}"},
		check:       needTrue("pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "dynamodb-table-encrypted-kms", Title: "DynamoDB tables encrypt with a KMS key",
		Types: []string{"aws/dynamodb/table"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"DYNAMODB_TABLE_ENCRYPTED_KMS"},
		Rationale:   "A KMS key (AWS managed or your own) gives key-policy control and an audit trail of every use, which the default owned key does not.",
		Fix:         "Set sseSpecification.sseEnabled to true (sseType KMS, kmsMasterKeyId for your key).",
		Bad:         []string{ddbBase, ddbBase + "sseSpecification: {sseEnabled: false}"},
		Good:        []string{ddbBase + "sseSpecification: {sseEnabled: true, sseType: KMS}"},
		check:       needTrue("sseSpecification.sseEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "dynamodb-deletion-protection", Title: "DynamoDB tables have deletion protection",
		Types: []string{"aws/dynamodb/table"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"DYNAMODB_TABLE_DELETION_PROTECTION_ENABLED"},
		Rationale:   "Deletion protection stops a mistaken delete or a replacing change from dropping the table and its data.",
		Fix:         "Set deletionProtectionEnabled to true.",
		Bad:         []string{ddbBase, ddbBase + "deletionProtectionEnabled: false"},
		Good:        []string{ddbBase + "deletionProtectionEnabled: true"},
		check:       needTrue("deletionProtectionEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "dynamodb-billing-scales", Title: "DynamoDB tables scale with demand",
		Types: []string{"aws/dynamodb/table"}, Severity: source.Hint, Set: Cost,
		Equivalents: []string{"DYNAMODB_AUTOSCALING_ENABLED"},
		Rationale:   "A provisioned table without auto scaling is either over-provisioned (paid for idle capacity) or throttled at peaks; on-demand billing follows the load.",
		Fix:         "Set billingMode to PAY_PER_REQUEST, or pair provisioned throughput with Application Auto Scaling.",
		Bad:         []string{ddbBase + "billingMode: PROVISIONED\nprovisionedThroughput: {readCapacityUnits: 5, writeCapacityUnits: 5}"},
		Good:        []string{ddbBase + "billingMode: PAY_PER_REQUEST"},
		check:       needIn("billingMode", false, "PAY_PER_REQUEST"),
		hasQuickFx:  true,
	})
)

const ddbBase = "attributeDefinitions: [{attributeName: id, attributeType: S}]\nkeySchema: [{attributeName: id, keyType: HASH}]\n"

// unlessSet runs c unless p is written (a snapshot restore, say, decides
// what c checks).
func unlessSet(p string, c func(*subject)) func(*subject) {
	pat := pattern(p)
	return func(s *subject) {
		if s.onec(pat).state == absent {
			c(s)
		}
	}
}
