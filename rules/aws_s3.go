package rules

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var bucket = []string{"aws/s3/bucket"}

const pabGood = "publicAccessBlockConfiguration: {blockPublicAcls: true, blockPublicPolicy: true, ignorePublicAcls: true, restrictPublicBuckets: true}"

var (
	_ = define(&Rule{
		ID: "s3-bucket-public-access-blocked", Title: "S3 buckets block every kind of public access",
		Types: bucket, Severity: source.Warning, Set: Security,
		Equivalents: []string{"S3_BUCKET_LEVEL_PUBLIC_ACCESS_PROHIBITED"},
		Rationale:   "A bucket's public access block is the backstop against a policy or ACL that makes objects public by mistake; all four settings must be on for it to hold.",
		Fix:         "Set publicAccessBlockConfiguration's blockPublicAcls, blockPublicPolicy, ignorePublicAcls and restrictPublicBuckets to true.",
		Bad:         []string{"{}", "publicAccessBlockConfiguration: {blockPublicAcls: false, blockPublicPolicy: true, ignorePublicAcls: true, restrictPublicBuckets: true}", "publicAccessBlockConfiguration: {blockPublicAcls: true}"},
		Good:        []string{pabGood},
		check: all(needTrue("publicAccessBlockConfiguration.blockPublicAcls"), needTrue("publicAccessBlockConfiguration.blockPublicPolicy"),
			needTrue("publicAccessBlockConfiguration.ignorePublicAcls"), needTrue("publicAccessBlockConfiguration.restrictPublicBuckets")),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "s3-bucket-encryption", Title: "S3 buckets declare default server-side encryption",
		Types: bucket, Severity: source.Information, Set: Security,
		Equivalents: []string{"S3_BUCKET_SERVER_SIDE_ENCRYPTION_ENABLED"},
		Rationale:   "Declaring the bucket's default encryption makes the at-rest protection explicit and reviewable instead of relying on account defaults.",
		Fix:         "Add bucketEncryption.serverSideEncryptionConfiguration with serverSideEncryptionByDefault.sseAlgorithm AES256 or aws:kms.",
		Bad:         []string{"{}", "bucketEncryption: {serverSideEncryptionConfiguration: [{bucketKeyEnabled: true}]}"},
		Good:        []string{"bucketEncryption: {serverSideEncryptionConfiguration: [{serverSideEncryptionByDefault: {sseAlgorithm: AES256}}]}"},
		check:       needIn("bucketEncryption.serverSideEncryptionConfiguration[*].serverSideEncryptionByDefault.sseAlgorithm", false, "AES256", "aws:kms", "aws:kms:dsse"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-kms-encryption", Title: "S3 buckets encrypt with a KMS key by default",
		Types: bucket, Severity: source.Hint, Set: Security,
		Rationale: "A KMS key adds an access-control layer (key policy) and an audit trail of every decryption on top of S3's own keys.",
		Fix:       "Set serverSideEncryptionByDefault.sseAlgorithm to aws:kms (and kmsMasterKeyID to your key).",
		Bad:       []string{"bucketEncryption: {serverSideEncryptionConfiguration: [{serverSideEncryptionByDefault: {sseAlgorithm: AES256}}]}"},
		Good:      []string{"bucketEncryption: {serverSideEncryptionConfiguration: [{serverSideEncryptionByDefault: {sseAlgorithm: 'aws:kms', kmsMasterKeyID: alias/data}}]}"},
		check:     needIn("bucketEncryption.serverSideEncryptionConfiguration[*].serverSideEncryptionByDefault.sseAlgorithm", false, "aws:kms", "aws:kms:dsse"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-versioning", Title: "S3 buckets keep object versions",
		Types: bucket, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"S3_BUCKET_VERSIONING_ENABLED"},
		Rationale:   "Versioning keeps overwritten and deleted objects recoverable, the first line of defence against a bad deploy or a deleting bug.",
		Fix:         "Set versioningConfiguration.status to Enabled.",
		Bad:         []string{"{}", "versioningConfiguration: {status: Suspended}"},
		Good:        []string{"versioningConfiguration: {status: Enabled}"},
		check:       needIn("versioningConfiguration.status", false, "Enabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "s3-bucket-logging", Title: "S3 buckets log server access",
		Types: bucket, Severity: source.Hint, Set: Security,
		Equivalents: []string{"S3_BUCKET_LOGGING_ENABLED"},
		Rationale:   "Access logs are how you find out who read or changed what after an incident.",
		Fix:         "Add loggingConfiguration with a destinationBucketName.",
		Bad:         []string{"{}"},
		Good:        []string{"loggingConfiguration: {destinationBucketName: logs, logFilePrefix: app/}"},
		check:       needSet("loggingConfiguration"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-replication", Title: "S3 buckets replicate to another bucket",
		Types: bucket, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"S3_BUCKET_REPLICATION_ENABLED"},
		Rationale:   "Replication keeps a copy of the data in another bucket (and region) for disaster recovery.",
		Fix:         "Add replicationConfiguration with a role and at least one enabled rule.",
		Bad:         []string{"{}", "replicationConfiguration: {role: arn:aws:iam::123456789012:role/r, rules: [{status: Disabled, destination: {bucket: 'arn:aws:s3:::b'}}]}"},
		Good:        []string{"replicationConfiguration: {role: arn:aws:iam::123456789012:role/r, rules: [{status: Enabled, destination: {bucket: 'arn:aws:s3:::b'}}]}"},
		check: all(needSet("replicationConfiguration"),
			ifSet("replicationConfiguration", needIn("replicationConfiguration.rules[*].status", true, "Enabled"))),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "s3-bucket-object-lock", Title: "S3 buckets holding records enable Object Lock",
		Types: bucket, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"S3_BUCKET_DEFAULT_LOCK_ENABLED"},
		Rationale:   "Object Lock stops objects being deleted or overwritten for a retention period (write once, read many), which audits and ransomware recovery rely on.",
		Fix:         "Set objectLockEnabled to true (only possible when the bucket is created) and add objectLockConfiguration.",
		Bad:         []string{"{}", "objectLockEnabled: false"},
		Good:        []string{"objectLockEnabled: true"},
		check:       needTrue("objectLockEnabled"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "s3-bucket-public-read-acl", Title: "S3 buckets grant no public read through their canned ACL",
		Types: bucket, Severity: source.Warning, Set: Security,
		Rationale: "The PublicRead, PublicReadWrite and AuthenticatedRead canned ACLs let anyone (or any AWS account) list and read the bucket.",
		Fix:       "Remove accessControl or set it to Private; serve public content through CloudFront with origin access control.",
		Bad:       []string{"accessControl: PublicRead", "accessControl: AuthenticatedRead"},
		Good:      []string{"{}", "accessControl: Private"},
		check:     needNotIn("accessControl", "PublicRead", "PublicReadWrite", "AuthenticatedRead"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-public-write-acl", Title: "S3 buckets grant no public write through their canned ACL",
		Types: bucket, Severity: source.Error, Set: Security,
		Equivalents: []string{"S3_BUCKET_NO_PUBLIC_RW_ACL"},
		Rationale:   "PublicReadWrite lets anyone on the internet upload, overwrite and delete objects.",
		Fix:         "Remove accessControl or set it to Private.",
		Bad:         []string{"accessControl: PublicReadWrite"},
		Good:        []string{"accessControl: Private", "accessControl: PublicRead"},
		check:       needNotIn("accessControl", "PublicReadWrite"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-acls-disabled", Title: "S3 buckets disable ACLs (bucket owner enforced)",
		Types: bucket, Severity: source.Hint, Set: Security,
		Equivalents: []string{"S3_BUCKET_ACL_PROHIBITED"},
		Rationale:   "With ACLs disabled, access is decided by policies alone; objects other accounts upload still belong to you.",
		Fix:         "Set ownershipControls.rules to [{objectOwnership: BucketOwnerEnforced}].",
		Bad:         []string{"{}", "ownershipControls: {rules: [{objectOwnership: ObjectWriter}]}"},
		Good:        []string{"ownershipControls: {rules: [{objectOwnership: BucketOwnerEnforced}]}"},
		check:       needIn("ownershipControls.rules[*].objectOwnership", false, "BucketOwnerEnforced"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "s3-bucket-lifecycle", Title: "S3 buckets have lifecycle rules",
		Types: bucket, Severity: source.Hint, Set: Cost,
		Equivalents: []string{"S3_LIFECYCLE_POLICY_CHECK"},
		Rationale:   "Without lifecycle rules objects are kept (and paid for) forever, including incomplete multipart uploads.",
		Fix:         "Add lifecycleConfiguration.rules that expire or transition objects.",
		Bad:         []string{"{}"},
		Good:        []string{"lifecycleConfiguration: {rules: [{status: Enabled, expirationInDays: 365}]}"},
		check:       needSet("lifecycleConfiguration.rules"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-noncurrent-version-expiry", Title: "Versioned S3 buckets expire noncurrent versions",
		Types: bucket, Severity: source.Hint, Set: Cost,
		Equivalents: []string{"S3_VERSION_LIFECYCLE_POLICY_CHECK"},
		Rationale:   "In a versioned bucket every overwrite keeps the old version; without a noncurrent-version rule storage grows without bound.",
		Fix:         "Add a lifecycle rule with noncurrentVersionExpiration (or noncurrentVersionTransitions).",
		Bad:         []string{"versioningConfiguration: {status: Enabled}", "versioningConfiguration: {status: Enabled}\nlifecycleConfiguration: {rules: [{status: Enabled, expirationInDays: 30}]}"},
		Good:        []string{"{}", "versioningConfiguration: {status: Enabled}\nlifecycleConfiguration: {rules: [{status: Enabled, noncurrentVersionExpiration: {noncurrentDays: 30}}]}"},
		check:       when("versioningConfiguration.status", "", []string{"Enabled"}, checkNoncurrent),
	})
	_ = define(&Rule{
		ID: "s3-bucket-event-notifications", Title: "S3 buckets send event notifications",
		Types: bucket, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"S3_EVENT_NOTIFICATIONS_ENABLED"},
		Rationale:   "Notifications let downstream processing and monitoring react to objects arriving or disappearing.",
		Fix:         "Add notificationConfiguration (queue, topic, Lambda or EventBridge).",
		Bad:         []string{"{}"},
		Good:        []string{"notificationConfiguration: {eventBridgeConfiguration: {eventBridgeEnabled: true}}"},
		check:       needSet("notificationConfiguration"),
	})
	_ = define(&Rule{
		ID: "s3-bucket-policy-ssl-only", Title: "S3 bucket policies deny requests not made over TLS",
		Types: []string{"aws/s3/bucketPolicy"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"S3_BUCKET_SSL_REQUESTS_ONLY"},
		Rationale:   "S3 accepts plain HTTP; only a Deny on aws:SecureTransport false keeps data encrypted in transit for every client.",
		Fix:         "Add a statement: Effect Deny, Principal \"*\", Action s3:*, Resource the bucket and its objects, Condition {Bool: {aws:SecureTransport: false}}.",
		Bad:         []string{"bucket: b\npolicyDocument: {Version: '2012-10-17', Statement: [{Effect: Allow, Principal: {AWS: arn:aws:iam::123456789012:root}, Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*'}]}"},
		Good:        []string{"bucket: b\npolicyDocument: {Version: '2012-10-17', Statement: [{Effect: Deny, Principal: '*', Action: 's3:*', Resource: ['arn:aws:s3:::b', 'arn:aws:s3:::b/*'], Condition: {Bool: {'aws:SecureTransport': 'false'}}}]}"},
		check:       checkSSLOnly,
	})
	_ = define(&Rule{
		ID: "s3-bucket-policy-public", Title: "S3 bucket policies do not allow everyone",
		Types: []string{"aws/s3/bucketPolicy"}, Severity: source.Warning, Set: Security,
		Rationale: "An Allow for Principal \"*\" without a condition opens the bucket to the whole internet.",
		Fix:       "Name the principals (accounts, roles, the CloudFront service with a SourceArn condition) instead of \"*\".",
		Bad:       []string{"bucket: b\npolicyDocument: {Statement: [{Effect: Allow, Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*'}]}"},
		Good:      []string{"bucket: b\npolicyDocument: {Statement: [{Effect: Allow, Principal: {Service: cloudfront.amazonaws.com}, Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*', Condition: {StringEquals: {'AWS:SourceArn': x}}}]}"},
		check:     resourcePolicyOpen("policyDocument"),
	})
)

func checkNoncurrent(s *subject) {
	for _, f := range s.get("lifecycleConfiguration.rules[*]") {
		switch f.state {
		case unknown:
			return
		case present:
			for _, k := range []string{"noncurrentVersionExpiration", "noncurrentVersionExpirationInDays", "noncurrentVersionTransitions", "noncurrentVersionTransition"} {
				if g := lookup(f.v, []string{k}, f.path)[0]; g.state != absent {
					return
				}
			}
		}
	}
	f := s.one("lifecycleConfiguration.rules")
	if f.state == absent {
		f = s.one("versioningConfiguration.status")
	}
	s.fail(f, "no lifecycle rule expires noncurrent versions")
}

func checkSSLOnly(s *subject) {
	doc := s.one("policyDocument")
	if doc.state != present {
		return
	}
	undecided := false
	for _, st := range s.statements("policyDocument") {
		e := stmt(st, "Effect")
		c := stmt(st, "Condition")
		if e.state == unknown || c.state == unknown {
			undecided = true
			continue
		}
		if es, _ := strOf(e.v); !strings.EqualFold(es, "Deny") || c.state == absent {
			continue
		}
		for _, op := range []string{"Bool", "BoolIfExists"} {
			for _, key := range []string{"aws:SecureTransport", "aws:securetransport"} {
				v := lookup(c.v, []string{op, key}, nil)[0]
				if v.state == unknown {
					undecided = true
				}
				if b, ok := boolOf(v.v); v.state == present && ok && !b {
					return
				}
			}
		}
	}
	if !undecided {
		s.fail(doc, "no Deny statement for aws:SecureTransport false")
	}
}
