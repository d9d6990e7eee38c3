package rules

import (
	"regexp"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

const lambdaBase = "role: arn:aws:iam::123456789012:role/r\ncode: {zipFile: x}\nruntime: nodejs22.x\nhandler: index.handler\n"

var lambdaFn = []string{"aws/lambda/function"}

// accountPrincipal matches an account as a principal: its id or its
// root ARN.
var accountPrincipal = regexp.MustCompile(`^(\d{12}|arn:aws[a-z0-9-]*:iam::\d{12}:root)$`)

// logRetentionDays are the retention periods CloudWatch Logs accepts.
var logRetentionDays = map[float64]bool{1: true, 3: true, 5: true, 7: true, 14: true, 30: true, 60: true, 90: true, 120: true, 150: true, 180: true, 365: true, 400: true, 545: true, 731: true, 1096: true, 1827: true, 2192: true, 2557: true, 2922: true, 3288: true, 3653: true}

var (
	_ = define(&Rule{
		ID: "lambda-inside-vpc", Title: "Lambda functions run inside a VPC",
		Types: lambdaFn, Severity: source.Hint, Set: Security,
		Equivalents: []string{"LAMBDA_INSIDE_VPC"},
		Rationale:   "A function in a VPC reaches private resources without exposing them and its egress can be controlled.",
		Fix:         "Set vpcConfig with subnetIds and securityGroupIds.",
		Bad:         []string{lambdaBase},
		Good:        []string{lambdaBase + "vpcConfig: {subnetIds: [subnet-1, subnet-2], securityGroupIds: [sg-1]}"},
		check:       needSet("vpcConfig.subnetIds"),
	})
	_ = define(&Rule{
		ID: "lambda-vpc-multi-az", Title: "Lambda functions in a VPC use subnets in several zones",
		Types: lambdaFn, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"LAMBDA_VPC_MULTI_AZ_CHECK"},
		Params:      []Param{{Name: "minSubnets", Default: "2", Doc: "the fewest subnets"}},
		Rationale:   "A function attached to one subnet stops when that zone does.",
		Fix:         "List subnets in at least two availability zones in vpcConfig.subnetIds.",
		Bad:         []string{lambdaBase + "vpcConfig: {subnetIds: [subnet-1], securityGroupIds: [sg-1]}"},
		Good:        []string{lambdaBase + "vpcConfig: {subnetIds: [subnet-1, subnet-2], securityGroupIds: [sg-1]}", lambdaBase},
		check: ifSet("vpcConfig.subnetIds", func(s *subject) {
			f := s.one("vpcConfig.subnetIds")
			if !f.v.HasUnknown() && float64(f.v.Len()) < s.paramNum("minSubnets") {
				s.fail(f, "spec.vpcConfig.subnetIds lists %d subnet(s), want at least %s", f.v.Len(), s.param("minSubnets"))
			}
		}),
	})
	_ = define(&Rule{
		ID: "lambda-concurrency-limit", Title: "Lambda functions set their reserved concurrency",
		Types: lambdaFn, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"LAMBDA_CONCURRENCY_CHECK"},
		Rationale:   "Without a limit one function's burst can take the whole account's concurrency and throttle everything else (and run up the bill).",
		Fix:         "Set reservedConcurrentExecutions.",
		Bad:         []string{lambdaBase},
		Good:        []string{lambdaBase + "reservedConcurrentExecutions: 50"},
		check:       needSet("reservedConcurrentExecutions"),
	})
	_ = define(&Rule{
		ID: "lambda-dead-letter-queue", Title: "Lambda functions have a dead-letter queue",
		Types: lambdaFn, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"LAMBDA_DLQ_CHECK"},
		Rationale:   "Asynchronous invocations that keep failing are dropped after the retries unless a dead-letter queue keeps them.",
		Fix:         "Set deadLetterConfig.targetArn to an SQS queue or SNS topic.",
		Bad:         []string{lambdaBase},
		Good:        []string{lambdaBase + "deadLetterConfig: {targetArn: 'arn:aws:sqs:eu-west-1:123456789012:dlq'}"},
		check:       needSet("deadLetterConfig.targetArn"),
	})
	_ = define(&Rule{
		ID: "lambda-runtime-supported", Title: "Lambda functions use a supported runtime",
		Types: lambdaFn, Severity: source.Warning, Set: Security,
		Equivalents: []string{"LAMBDA_FUNCTION_SETTINGS_CHECK"},
		Params:      []Param{{Name: "deprecated", Default: "nodejs,nodejs4.3,nodejs4.3-edge,nodejs6.10,nodejs8.10,nodejs10.x,nodejs12.x,nodejs14.x,nodejs16.x,python2.7,python3.6,python3.7,python3.8,ruby2.5,ruby2.7,java8,dotnetcore1.0,dotnetcore2.0,dotnetcore2.1,dotnetcore3.1,dotnet5.0,dotnet6,go1.x", Doc: "runtimes past end of support"}},
		Rationale:   "Deprecated runtimes get no security patches and functions on them can no longer be updated.",
		Fix:         "Move to a supported runtime (for Go, provided.al2023).",
		Bad:         []string{strings.Replace(lambdaBase, "nodejs22.x", "nodejs14.x", 1), strings.Replace(lambdaBase, "nodejs22.x", "go1.x", 1)},
		Good:        []string{lambdaBase},
		check: func(s *subject) {
			for _, f := range s.get("runtime") {
				if v, ok := strOf(f.v); f.state == present && ok && containsFold(s.paramList("deprecated"), v) {
					s.fail(f, "spec.runtime %s is past end of support", describe(f.v))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "lambda-tracing-active", Title: "Lambda functions trace with X-Ray",
		Types: lambdaFn, Severity: source.Hint, Set: Reliability,
		Rationale:  "Active tracing shows where a request's time goes across services and which downstream call failed.",
		Fix:        "Set tracingConfig.mode to Active.",
		Bad:        []string{lambdaBase, lambdaBase + "tracingConfig: {mode: PassThrough}"},
		Good:       []string{lambdaBase + "tracingConfig: {mode: Active}"},
		check:      needIn("tracingConfig.mode", false, "Active"),
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "lambda-environment-kms", Title: "Lambda functions with environment variables encrypt them with a KMS key",
		Types: lambdaFn, Severity: source.Hint, Set: Security,
		Rationale: "Environment variables are readable by anyone with lambda:GetFunctionConfiguration; your own key adds a key policy in the way.",
		Fix:       "Set kmsKeyArn, or move secrets out of the environment into Secrets Manager.",
		Bad:       []string{lambdaBase + "environment: {variables: {STAGE: prod}}"},
		Good:      []string{lambdaBase + "environment: {variables: {STAGE: prod}}\nkmsKeyArn: arn:aws:kms:eu-west-1:123456789012:key/k", lambdaBase},
		check:     ifSet("environment.variables", needSet("kmsKeyArn")),
	})
	_ = define(&Rule{
		ID: "lambda-permission-not-public", Title: "Lambda permissions do not let everyone invoke the function",
		Types: []string{"aws/lambda/permission"}, Severity: source.Error, Set: Security,
		Equivalents: []string{"LAMBDA_FUNCTION_PUBLIC_ACCESS_PROHIBITED"},
		Rationale:   "Principal \"*\", or a service principal without a source ARN or account, lets any AWS account (or any account's resource of that service) invoke the function; for S3 a source ARN is not enough, since another account can take a deleted bucket's name.",
		Fix:         "Name the account as principal, or name the service and set sourceAccount (or sourceArn, except for S3) or principalOrgID.",
		Bad:         []string{"action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: '*'", "action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: sns.amazonaws.com", "action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: s3.amazonaws.com\nsourceArn: 'arn:aws:s3:::b'"},
		Good:        []string{"action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: s3.amazonaws.com\nsourceAccount: '123456789012'", "action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: '123456789012'", "action: lambda:InvokeFunction\nfunctionName: fn\nprincipal: '*'\nsourceArn: arn:aws:execute-api:eu-west-1:123456789012:abc/*"},
		// Guard's LAMBDA_FUNCTION_PUBLIC_ACCESS_PROHIBITED: an account
		// principal is fine; a service principal (or "*") is scoped by
		// sourceArn, sourceAccount or principalOrgID, and S3, whose
		// bucket names another account can take over, by sourceAccount
		// or principalOrgID.
		check: func(s *subject) {
			p := s.one("principal")
			v, ok := strOf(p.v)
			if p.state != present || !ok || accountPrincipal.MatchString(v) {
				return
			}
			scoped := []string{"sourceArn", "sourceAccount", "principalOrgID"}
			if strings.EqualFold(v, "s3.amazonaws.com") {
				scoped = scoped[1:]
			}
			for _, q := range scoped {
				if s.one(q).state != absent {
					return
				}
			}
			s.fail(p, "spec.principal is %s without %s", describe(p.v), orList(scoped))
		},
	})
	_ = define(&Rule{
		ID: "lambda-url-auth", Title: "Lambda function URLs require IAM authentication",
		Types: []string{"aws/lambda/functionUrl"}, Severity: source.Warning, Set: Security,
		Rationale:  "A function URL with authType NONE is a public endpoint anyone can call.",
		Fix:        "Set authType to AWS_IAM, or put the function behind API Gateway with an authorizer.",
		Bad:        []string{"targetFunctionArn: fn\nauthType: NONE"},
		Good:       []string{"targetFunctionArn: fn\nauthType: AWS_IAM"},
		check:      needIn("authType", false, "AWS_IAM"),
		hasQuickFx: true,
	})

	_ = define(&Rule{
		ID: "sqs-queue-encrypted", Title: "SQS queues encrypt messages at rest",
		Types: []string{"aws/sqs/queue"}, Severity: source.Warning, Set: Security,
		Rationale: "Messages often carry personal or business data; SQS-managed or KMS encryption keeps them encrypted on disk.",
		Fix:       "Leave sqsManagedSseEnabled on (true) or set kmsMasterKeyId.",
		Bad:       []string{"sqsManagedSseEnabled: false"},
		Good:      []string{"{}", "kmsMasterKeyId: alias/aws/sqs", "sqsManagedSseEnabled: true"},
		check: func(s *subject) {
			if s.one("kmsMasterKeyId").state != absent {
				return
			}
			needBool("sqsManagedSseEnabled", true, true)(s)
		},
		hasQuickFx: true,
	})
	_ = define(&Rule{
		ID: "sqs-queue-dead-letter", Title: "SQS queues send failing messages to a dead-letter queue",
		Types: []string{"aws/sqs/queue"}, Severity: source.Information, Set: Reliability,
		Rationale: "Without a redrive policy a message that always fails is retried until it expires, blocking or slowing its consumers, and is then lost.",
		Fix:       "Set redrivePolicy with deadLetterTargetArn and maxReceiveCount (not needed on the dead-letter queue itself).",
		Bad:       []string{"{}"},
		Good:      []string{"redrivePolicy: {deadLetterTargetArn: 'arn:aws:sqs:eu-west-1:123456789012:dlq', maxReceiveCount: 5}", "redriveAllowPolicy: {redrivePermission: allowAll}"},
		check:     unlessSet("redriveAllowPolicy", needSet("redrivePolicy")),
	})
	_ = define(&Rule{
		ID: "sqs-queue-policy-not-public", Title: "SQS queue policies do not allow everyone",
		Types: []string{"aws/sqs/queuePolicy"}, Severity: source.Error, Set: Security,
		Rationale: "An Allow for Principal \"*\" without a condition lets any AWS account send to (or read) the queue.",
		Fix:       "Name the principals, or add an aws:SourceArn / aws:SourceAccount condition.",
		Bad:       []string{"queues: [q]\npolicyDocument: {Statement: [{Effect: Allow, Principal: '*', Action: 'sqs:SendMessage', Resource: '*'}]}"},
		Good:      []string{"queues: [q]\npolicyDocument: {Statement: [{Effect: Allow, Principal: {Service: sns.amazonaws.com}, Action: 'sqs:SendMessage', Resource: '*', Condition: {ArnEquals: {'aws:SourceArn': t}}}]}"},
		check:     resourcePolicyOpen("policyDocument"),
	})
	_ = define(&Rule{
		ID: "sns-topic-encrypted-kms", Title: "SNS topics encrypt with a KMS key",
		Types: []string{"aws/sns/topic"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"SNS_ENCRYPTED_KMS"},
		Rationale:   "SNS stores messages until delivered; without a key they are not encrypted under your control.",
		Fix:         "Set kmsMasterKeyId (alias/aws/sns or your key).",
		Bad:         []string{"{}"},
		Good:        []string{"kmsMasterKeyId: alias/aws/sns"},
		check:       needSet("kmsMasterKeyId"),
	})
	_ = define(&Rule{
		ID: "sns-topic-delivery-logging", Title: "SNS topics log delivery status",
		Types: []string{"aws/sns/topic"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"SNS_TOPIC_MESSAGE_DELIVERY_NOTIFICATION_ENABLED"},
		Rationale:   "Delivery status logs are the only record of messages a subscriber failed to receive.",
		Fix:         "Add deliveryStatusLogging for the protocols used.",
		Bad:         []string{"kmsMasterKeyId: alias/aws/sns"},
		Good:        []string{"kmsMasterKeyId: alias/aws/sns\ndeliveryStatusLogging: [{protocol: sqs, successFeedbackRoleArn: arn:aws:iam::123456789012:role/l, failureFeedbackRoleArn: arn:aws:iam::123456789012:role/l}]"},
		check:       needSet("deliveryStatusLogging"),
	})
	_ = define(&Rule{
		ID: "sns-topic-policy-not-public", Title: "SNS topic policies do not allow everyone",
		Types: []string{"aws/sns/topicPolicy"}, Severity: source.Error, Set: Security,
		Rationale: "An Allow for Principal \"*\" without a condition lets any AWS account publish to or subscribe to the topic.",
		Fix:       "Name the principals, or add an aws:SourceArn / aws:SourceOwner condition.",
		Bad:       []string{"topics: [t]\npolicyDocument: {Statement: [{Effect: Allow, Principal: {AWS: '*'}, Action: 'sns:Publish', Resource: '*'}]}"},
		Good:      []string{"topics: [t]\npolicyDocument: {Statement: [{Effect: Allow, Principal: {Service: events.amazonaws.com}, Action: 'sns:Publish', Resource: '*'}]}"},
		check:     resourcePolicyOpen("policyDocument"),
	})

	_ = define(&Rule{
		ID: "kms-key-rotation", Title: "Symmetric KMS keys rotate yearly",
		Types: []string{"aws/kms/key"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CMK_BACKING_KEY_ROTATION_ENABLED"},
		Rationale:   "Rotation limits how much data one key version protects and how long a leaked version is useful.",
		Fix:         "Set enableKeyRotation to true.",
		Bad:         []string{"keyPolicy: {}", "keyPolicy: {}\nenableKeyRotation: false"},
		Good:        []string{"keyPolicy: {}\nenableKeyRotation: true", "keyPolicy: {}\nkeySpec: RSA_2048\nkeyUsage: SIGN_VERIFY"},
		check:       when("keySpec", "SYMMETRIC_DEFAULT", []string{"SYMMETRIC_DEFAULT"}, needTrue("enableKeyRotation")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "kms-key-policy-not-public", Title: "KMS key policies do not allow everyone",
		Types: []string{"aws/kms/key"}, Severity: source.Error, Set: Security,
		Rationale: "An Allow for Principal \"*\" without a condition lets any AWS account use (or manage) the key.",
		Fix:       "Name the account root and the roles that use the key, or add a kms:CallerAccount condition.",
		Bad:       []string{"keyPolicy: {Statement: [{Effect: Allow, Principal: '*', Action: 'kms:*', Resource: '*'}]}"},
		Good:      []string{"keyPolicy: {Statement: [{Effect: Allow, Principal: {AWS: 'arn:aws:iam::123456789012:root'}, Action: 'kms:*', Resource: '*'}]}"},
		check:     resourcePolicyOpen("keyPolicy"),
	})
	_ = define(&Rule{
		ID: "kms-key-pending-window", Title: "KMS keys keep the longest deletion waiting period",
		Types: []string{"aws/kms/key"}, Severity: source.Hint, Set: Reliability,
		Params:    []Param{{Name: "minDays", Default: "30", Doc: "the shortest pendingWindowInDays"}},
		Rationale: "Data encrypted under a deleted key is lost for good; the waiting period is the time you have to notice a mistaken deletion.",
		Fix:       "Remove pendingWindowInDays (default 30) or raise it.",
		Bad:       []string{"keyPolicy: {}\npendingWindowInDays: 7"},
		Good:      []string{"keyPolicy: {}", "keyPolicy: {}\npendingWindowInDays: 30"},
		check:     needMin("pendingWindowInDays", "minDays", true),
	})

	_ = define(&Rule{
		ID: "cloudtrail-encrypted", Title: "CloudTrail trails encrypt logs with a KMS key",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUD_TRAIL_ENCRYPTION_ENABLED"},
		Rationale:   "Audit logs describe everything done in the account; a KMS key restricts who can read them.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{trailBase},
		Good:        []string{trailBase + "kmsKeyId: alias/trail"},
		check:       needSet("kmsKeyId"),
	})
	_ = define(&Rule{
		ID: "cloudtrail-log-file-validation", Title: "CloudTrail trails validate their log files",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUD_TRAIL_LOG_FILE_VALIDATION_ENABLED"},
		Rationale:   "Digest files prove that log files were not changed or deleted after delivery.",
		Fix:         "Set enableLogFileValidation to true.",
		Bad:         []string{trailBase, trailBase + "enableLogFileValidation: false"},
		Good:        []string{trailBase + "enableLogFileValidation: true"},
		check:       needTrue("enableLogFileValidation"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "cloudtrail-multi-region", Title: "CloudTrail trails cover every region",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"MULTI_REGION_CLOUD_TRAIL_ENABLED"},
		Rationale:   "Activity in a region no trail covers goes unrecorded, which is where an intruder would work.",
		Fix:         "Set isMultiRegionTrail to true.",
		Bad:         []string{trailBase, trailBase + "isMultiRegionTrail: false"},
		Good:        []string{trailBase + "isMultiRegionTrail: true"},
		check:       needTrue("isMultiRegionTrail"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "cloudtrail-cloudwatch-logs", Title: "CloudTrail trails deliver to CloudWatch Logs",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"CLOUD_TRAIL_CLOUD_WATCH_LOGS_ENABLED"},
		Rationale:   "CloudWatch Logs lets metric filters and alarms react to API activity as it happens.",
		Fix:         "Set cloudWatchLogsLogGroupArn and cloudWatchLogsRoleArn.",
		Bad:         []string{trailBase},
		Good:        []string{trailBase + "cloudWatchLogsLogGroupArn: arn:aws:logs:eu-west-1:123456789012:log-group:trail:*\ncloudWatchLogsRoleArn: arn:aws:iam::123456789012:role/t"},
		check:       needSet("cloudWatchLogsLogGroupArn"),
	})
	_ = define(&Rule{
		ID: "cloudtrail-s3-data-events", Title: "CloudTrail trails record S3 data events",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"CLOUDTRAIL_S3_DATAEVENTS_ENABLED"},
		Rationale:   "Management events do not show who read or wrote which object; data events do.",
		Fix:         "Add an event selector with dataResources of type AWS::S3::Object.",
		Bad:         []string{trailBase},
		Good:        []string{trailBase + "eventSelectors: [{dataResources: [{type: 'AWS::S3::Object', values: ['arn:aws:s3']}]}]"},
		check: func(s *subject) {
			for _, f := range s.get("eventSelectors[*].dataResources[*].type") {
				if f.state == unknown {
					return
				}
				if v, _ := strOf(f.v); f.state == present && v == "AWS::S3::Object" {
					return
				}
			}
			for _, f := range s.get("advancedEventSelectors[*].fieldSelectors[*].equals[*]") {
				if f.state == unknown {
					return
				}
				if v, _ := strOf(f.v); f.state == present && v == "AWS::S3::Object" {
					return
				}
			}
			f := s.one("eventSelectors")
			if f.state == absent {
				s.failMissing(f, "spec.eventSelectors")
				return
			}
			s.fail(f, "no event selector records AWS::S3::Object data events")
		},
	})
	_ = define(&Rule{
		ID: "cloudtrail-logging", Title: "CloudTrail trails are logging",
		Types: []string{"aws/cloudtrail/trail"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"CLOUD_TRAIL_ENABLED"},
		Rationale:   "A trail with isLogging false records nothing.",
		Fix:         "Set isLogging to true.",
		Bad:         []string{"s3BucketName: trail\nisLogging: false"},
		Good:        []string{trailBase},
		check:       needTrue("isLogging"),
		hasQuickFx:  true,
	})

	_ = define(&Rule{
		ID: "log-group-retention", Title: "CloudWatch log groups set a retention period",
		Types: []string{"aws/logs/logGroup"}, Severity: source.Information, Set: Cost,
		Equivalents: []string{"CW_LOGGROUP_RETENTION_PERIOD_CHECK"},
		Params:      []Param{{Name: "minDays", Default: "1", Doc: "the shortest retention, in days (365 or more for audit logs)"}},
		Rationale:   "Without a retention period logs are kept (and paid for) forever; too short a period loses what an investigation needs.",
		Fix:         "Set retentionInDays to one of the periods CloudWatch offers (365 or more for audit logs: raise minDays).",
		Bad:         []string{"logGroupName: app", "logGroupName: app\nretentionInDays: 8675309"},
		Good:        []string{"logGroupName: app\nretentionInDays: 7", "logGroupName: app\nretentionInDays: 400"},
		// Guard's CW_LOGGROUP_RETENTION_PERIOD_CHECK: any of CloudWatch's
		// periods (the project raises minDays for a longer one).
		check: func(s *subject) {
			needMin("retentionInDays", "minDays", false)(s)
			f := s.one("retentionInDays")
			if n, ok := numOf(f.v); f.state == present && ok && !logRetentionDays[n] {
				s.fail(f, "spec.retentionInDays is %s, not a retention period CloudWatch offers", describe(f.v))
			}
		},
	})
	_ = define(&Rule{
		ID: "log-group-encrypted", Title: "CloudWatch log groups encrypt with a KMS key",
		Types: []string{"aws/logs/logGroup"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"CLOUDWATCH_LOG_GROUP_ENCRYPTED"},
		Rationale:   "Logs often carry request data and identifiers; a KMS key restricts who can read them.",
		Fix:         "Set kmsKeyId.",
		Bad:         []string{"logGroupName: app"},
		Good:        []string{"logGroupName: app\nkmsKeyId: arn:aws:kms:eu-west-1:123456789012:key/k"},
		check:       needSet("kmsKeyId"),
	})
	_ = define(&Rule{
		ID: "cloudwatch-alarm-action", Title: "CloudWatch alarms notify someone",
		Types: []string{"aws/cloudwatch/alarm"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"CLOUDWATCH_ALARM_ACTION_CHECK"},
		Rationale:   "An alarm with no action changes state silently.",
		Fix:         "Set alarmActions (an SNS topic, an Auto Scaling or EC2 action), or okActions or insufficientDataActions.",
		Bad:         []string{alarmBase},
		Good:        []string{alarmBase + "alarmActions: ['arn:aws:sns:eu-west-1:123456789012:ops']", alarmBase + "okActions: ['arn:aws:sns:eu-west-1:123456789012:ops']"},
		// Guard's CLOUDWATCH_ALARM_ACTION_CHECK accepts any of the three.
		check: func(s *subject) {
			for _, p := range []string{"okActions", "insufficientDataActions"} {
				if s.one(p).state != absent {
					return
				}
			}
			needSet("alarmActions")(s)
		},
	})
	_ = define(&Rule{
		ID: "cloudwatch-alarm-actions-enabled", Title: "CloudWatch alarms have their actions enabled",
		Types: []string{"aws/cloudwatch/alarm"}, Severity: source.Warning, Set: Reliability,
		Equivalents: []string{"CLOUDWATCH_ALARM_ACTION_ENABLED_CHECK"},
		Rationale:   "actionsEnabled false keeps the alarm from doing anything when it fires.",
		Fix:         "Remove actionsEnabled or set it to true.",
		Bad:         []string{alarmBase + "actionsEnabled: false"},
		Good:        []string{alarmBase, alarmBase + "actionsEnabled: true"},
		check:       needBool("actionsEnabled", true, true),
		hasQuickFx:  true,
	})
)

const (
	trailBase = "s3BucketName: trail\nisLogging: true\n"
	alarmBase = "comparisonOperator: GreaterThanThreshold\nevaluationPeriods: 1\nmetricName: Errors\nnamespace: AWS/Lambda\nperiod: 60\nstatistic: Sum\nthreshold: 1\n"
)
