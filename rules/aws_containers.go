package rules

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

var taskDef = []string{"aws/ecs/taskDefinition"}

const container = "name: app, image: 'nginx:1.27'"

func containers(extra string) string {
	return "containerDefinitions: [{" + container + extra + "}]"
}

var (
	_ = define(&Rule{
		ID: "efs-encrypted", Title: "EFS file systems are encrypted",
		Types: []string{"aws/efs/fileSystem"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EFS_ENCRYPTED_CHECK"},
		Rationale:   "Encryption at rest can only be chosen when the file system is created.",
		Fix:         "Set encrypted to true (and kmsKeyId to your key).",
		Bad:         []string{"{}", "encrypted: false"},
		Good:        []string{"encrypted: true"},
		check:       needTrue("encrypted"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "efs-automatic-backups", Title: "EFS file systems have automatic backups",
		Types: []string{"aws/efs/fileSystem"}, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"EFS_IN_BACKUP_PLAN"},
		Rationale:   "Automatic backups put the file system in AWS Backup's default plan, so deleted files can be restored.",
		Fix:         "Set backupPolicy.status to ENABLED.",
		Bad:         []string{"encrypted: true", "encrypted: true\nbackupPolicy: {status: DISABLED}"},
		Good:        []string{"encrypted: true\nbackupPolicy: {status: ENABLED}"},
		check:       needIn("backupPolicy.status", false, "ENABLED"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "efs-access-point-root-directory", Title: "EFS access points confine clients to a directory",
		Types: []string{"aws/efs/accessPoint"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"EFS_ACCESS_POINT_ENFORCE_ROOT_DIRECTORY"},
		Rationale:   "An access point rooted at / gives its clients the whole file system.",
		Fix:         "Set rootDirectory.path to the application's directory.",
		Bad:         []string{"fileSystemId: fs-0123456789abcdef", "fileSystemId: fs-0123456789abcdef\nrootDirectory: {path: /}"},
		Good:        []string{"fileSystemId: fs-0123456789abcdef\nrootDirectory: {path: /app}"},
		check: func(s *subject) {
			needSet("rootDirectory.path")(s)
			needNotIn("rootDirectory.path", "/")(s)
		},
	})
	_ = define(&Rule{
		ID: "efs-access-point-user-identity", Title: "EFS access points enforce a POSIX user",
		Types: []string{"aws/efs/accessPoint"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"EFS_ACCESS_POINT_ENFORCE_USER_IDENTITY"},
		Rationale:   "Without posixUser clients act as whatever user id they claim, root included.",
		Fix:         "Set posixUser with uid and gid.",
		Bad:         []string{"fileSystemId: fs-0123456789abcdef"},
		Good:        []string{"fileSystemId: fs-0123456789abcdef\nposixUser: {uid: '1000', gid: '1000'}"},
		check:       needSet("posixUser"),
	})

	_ = define(&Rule{
		ID: "ecr-image-scanning", Title: "ECR repositories scan images on push",
		Types: []string{"aws/ecr/repository"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"ECR_PRIVATE_IMAGE_SCANNING_ENABLED"},
		Rationale:   "Scanning on push reports known vulnerabilities in an image before it is deployed.",
		Fix:         "Set imageScanningConfiguration.scanOnPush to true.",
		Bad:         []string{"{}", "imageScanningConfiguration: {scanOnPush: false}"},
		Good:        []string{"imageScanningConfiguration: {scanOnPush: true}"},
		check:       needTrue("imageScanningConfiguration.scanOnPush"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecr-tag-immutability", Title: "ECR repositories make image tags immutable",
		Types: []string{"aws/ecr/repository"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"ECR_PRIVATE_TAG_IMMUTABILITY_ENABLED"},
		Rationale:   "With mutable tags a pushed image can silently replace the one a deployment was tested with.",
		Fix:         "Set imageTagMutability to IMMUTABLE.",
		Bad:         []string{"{}", "imageTagMutability: MUTABLE"},
		Good:        []string{"imageTagMutability: IMMUTABLE"},
		check:       needIn("imageTagMutability", false, "IMMUTABLE", "IMMUTABLE_WITH_EXCLUSION"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecr-lifecycle-policy", Title: "ECR repositories expire old images",
		Types: []string{"aws/ecr/repository"}, Severity: source.Hint, Set: Cost,
		Equivalents: []string{"ECR_PRIVATE_LIFECYCLE_POLICY_CONFIGURED"},
		Rationale:   "Every push adds an image that is stored (and paid for) until deleted.",
		Fix:         "Set lifecyclePolicy.lifecyclePolicyText.",
		Bad:         []string{"{}"},
		Good:        []string{"lifecyclePolicy: {lifecyclePolicyText: '{\"rules\":[{\"rulePriority\":1,\"selection\":{\"tagStatus\":\"any\",\"countType\":\"imageCountMoreThan\",\"countNumber\":50},\"action\":{\"type\":\"expire\"}}]}'}"},
		check:       needSet("lifecyclePolicy.lifecyclePolicyText"),
	})

	_ = define(&Rule{
		ID: "ecs-containers-nonprivileged", Title: "ECS containers do not run privileged",
		Types: taskDef, Severity: source.Error, Set: Security,
		Equivalents: []string{"ECS_CONTAINERS_NONPRIVILEGED"},
		Rationale:   "A privileged container has root on the host: one compromised container is a compromised instance.",
		Fix:         "Remove privileged or set it to false.",
		Bad:         []string{containers(", privileged: true")},
		Good:        []string{containers(""), containers(", privileged: false")},
		check:       needFalse("containerDefinitions[*].privileged"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecs-containers-readonly-root", Title: "ECS containers mount their root file system read-only",
		Types: taskDef, Severity: source.Information, Set: Security,
		Equivalents: []string{"ECS_CONTAINERS_READONLY_ACCESS"},
		Rationale:   "A read-only root file system keeps an intruder from changing binaries or planting tools in the container.",
		Fix:         "Set readonlyRootFilesystem to true (write to mounted volumes instead).",
		Bad:         []string{containers(""), containers(", readonlyRootFilesystem: false")},
		Good:        []string{containers(", readonlyRootFilesystem: true")},
		check:       needTrue("containerDefinitions[*].readonlyRootFilesystem"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecs-no-environment-secrets", Title: "ECS containers get credentials from secrets, not the environment",
		Types: taskDef, Severity: source.Error, Set: Security,
		Equivalents: []string{"ECS_NO_ENVIRONMENT_SECRETS"},
		Params:      []Param{{Name: "names", Default: "AWS_ACCESS_KEY_ID,AWS_SECRET_ACCESS_KEY,ECS_ENGINE_AUTH_DATA", Doc: "environment variable names that must not hold values"}},
		Rationale:   "Environment values are stored in plain text in the task definition, readable by anyone who can describe it.",
		Fix:         "Move the value to Secrets Manager or SSM and reference it under secrets; use the task role instead of access keys.",
		Bad:         []string{containers(", environment: [{name: AWS_SECRET_ACCESS_KEY, value: abc}]")},
		Good:        []string{containers(", environment: [{name: STAGE, value: prod}]")},
		check: func(s *subject) {
			for _, f := range s.get("containerDefinitions[*].environment[*].name") {
				if v, ok := strOf(f.v); f.state == present && ok && containsFold(s.paramList("names"), v) {
					s.fail(f, "spec.%s sets %s in the environment", pathText(f.path), v)
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "ecs-memory-hard-limit", Title: "ECS containers have a memory limit",
		Types: taskDef, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"ECS_TASK_DEFINITION_MEMORY_HARD_LIMIT"},
		Rationale:   "Without a hard limit one leaking container can take the memory its neighbours need.",
		Fix:         "Set memory on each container definition.",
		Bad:         []string{containers("")},
		Good:        []string{containers(", memory: 512")},
		check:       needSet("containerDefinitions[*].memory"),
	})
	_ = define(&Rule{
		ID: "ecs-nonroot-user", Title: "ECS containers run as a non-root user",
		Types: taskDef, Severity: source.Information, Set: Security,
		Equivalents: []string{"ECS_TASK_DEFINITION_NONROOT_USER"},
		Rationale:   "A process running as root in the container has the most to offer an attacker who escapes it.",
		Fix:         "Set user to a non-root user (uid or name).",
		Bad:         []string{containers(""), containers(", user: root"), containers(", user: '0'")},
		Good:        []string{containers(", user: '1000'")},
		check: func(s *subject) {
			needSet("containerDefinitions[*].user")(s)
			for _, f := range s.get("containerDefinitions[*].user") {
				if v, ok := strOf(f.v); f.state == present && ok && isRootUser(v) {
					s.fail(f, "spec.%s runs as root", pathText(f.path))
				}
			}
		},
	})
	_ = define(&Rule{
		ID: "ecs-pid-mode-not-host", Title: "ECS tasks do not share the host's process namespace",
		Types: taskDef, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ECS_TASK_DEFINITION_PID_MODE_CHECK"},
		Rationale:   "pidMode host lets containers see and signal every process on the instance.",
		Fix:         "Remove pidMode or set it to task.",
		Bad:         []string{containers("") + "\npidMode: host"},
		Good:        []string{containers(""), containers("") + "\npidMode: task"},
		check:       needNotIn("pidMode", "host"),
	})
	_ = define(&Rule{
		ID: "ecs-host-network-user", Title: "ECS tasks on the host network run as a non-root user",
		Types: taskDef, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ECS_TASK_DEFINITION_USER_FOR_HOST_MODE_CHECK"},
		Rationale:   "With host networking a root container can bind any port and see all of the instance's traffic.",
		Fix:         "Set user to a non-root user, or use awsvpc networking.",
		Bad:         []string{containers("") + "\nnetworkMode: host", containers(", user: root") + "\nnetworkMode: host"},
		Good:        []string{containers(", user: '1000'") + "\nnetworkMode: host", containers("") + "\nnetworkMode: awsvpc"},
		check: when("networkMode", "", []string{"host"}, func(s *subject) {
			for _, c := range s.get("containerDefinitions[*]") {
				if c.state != present {
					continue
				}
				if p := lookup(c.v, []string{"privileged"}, c.path)[0]; p.state == present {
					if b, _ := boolOf(p.v); b {
						continue
					}
				}
				u := lookup(c.v, []string{"user"}, c.path)[0]
				switch u.state {
				case absent:
					s.failMissing(u, fullPath(u))
				case present:
					if v, ok := strOf(u.v); ok && isRootUser(v) {
						s.fail(u, "spec.%s runs as root on the host network", pathText(u.path))
					}
				}
			}
		}),
	})
	_ = define(&Rule{
		ID: "ecs-log-configuration", Title: "ECS containers send their logs somewhere",
		Types: taskDef, Severity: source.Information, Set: Reliability,
		Equivalents: []string{"ECS_TASK_DEFINITION_LOG_CONFIGURATION"},
		Rationale:   "Without a log driver a container's output is lost with the task.",
		Fix:         "Set logConfiguration (awslogs, firelens, ...) on each container.",
		Bad:         []string{containers("")},
		Good:        []string{containers(", logConfiguration: {logDriver: awslogs, options: {awslogs-group: app}}")},
		check:       needSet("containerDefinitions[*].logConfiguration.logDriver"),
	})
	_ = define(&Rule{
		ID: "ecs-awsvpc-networking", Title: "ECS tasks use awsvpc networking",
		Types: taskDef, Severity: source.Hint, Set: Security,
		Equivalents: []string{"ECS_AWSVPC_NETWORKING_ENABLED"},
		Rationale:   "awsvpc gives each task its own network interface and security groups instead of sharing the host's.",
		Fix:         "Set networkMode to awsvpc.",
		Bad:         []string{containers(""), containers("") + "\nnetworkMode: bridge"},
		Good:        []string{containers("") + "\nnetworkMode: awsvpc"},
		check:       needIn("networkMode", false, "awsvpc"),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecs-container-insights", Title: "ECS clusters have Container Insights",
		Types: []string{"aws/ecs/cluster"}, Severity: source.Hint, Set: Reliability,
		Equivalents: []string{"ECS_CONTAINER_INSIGHTS_ENABLED"},
		Rationale:   "Container Insights collects per-task CPU, memory and network metrics for alarms and diagnosis.",
		Fix:         "Add clusterSettings [{name: containerInsights, value: enabled}].",
		Bad:         []string{"{}", "clusterSettings: [{name: containerInsights, value: disabled}]"},
		Good:        []string{"clusterSettings: [{name: containerInsights, value: enabled}]", "clusterSettings: [{name: containerInsights, value: enhanced}]"},
		check: func(s *subject) {
			for _, c := range s.get("clusterSettings[*]") {
				if c.state == unknown {
					return
				}
				if c.state != present {
					continue
				}
				n := lookup(c.v, []string{"name"}, c.path)[0]
				if v, _ := strOf(n.v); v != "containerInsights" {
					continue
				}
				val := lookup(c.v, []string{"value"}, c.path)[0]
				if val.state == unknown {
					return
				}
				if v, _ := strOf(val.v); v == "enabled" || v == "enhanced" {
					return
				}
				s.fail(val, "spec.%s turns Container Insights off", pathText(val.path))
				return
			}
			s.failMissing(s.one("clusterSettings"), "the containerInsights setting of spec.clusterSettings")
		},
	})
	_ = define(&Rule{
		ID: "ecs-fargate-latest-platform", Title: "ECS Fargate services use the latest platform version",
		Types: []string{"aws/ecs/service"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"ECS_FARGATE_LATEST_PLATFORM_VERSION"},
		Rationale:   "Pinning an old platform version keeps tasks on an older kernel and runtime without the latest fixes.",
		Fix:         "Remove platformVersion or set it to LATEST.",
		Bad:         []string{"launchType: FARGATE\nplatformVersion: 1.3.0"},
		Good:        []string{"launchType: FARGATE", "launchType: FARGATE\nplatformVersion: LATEST", "launchType: EC2\nplatformVersion: 1.3.0"},
		check:       when("launchType", "EC2", []string{"FARGATE"}, needIn("platformVersion", true, "LATEST")),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "ecs-service-no-public-ip", Title: "ECS services do not give tasks public IP addresses",
		Types: []string{"aws/ecs/service"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"ECS_SERVICE_ASSIGN_PUBLIC_IP_DISABLED"},
		Rationale:   "Tasks with public addresses are reachable from the internet, past any load balancer.",
		Fix:         "Set networkConfiguration.awsvpcConfiguration.assignPublicIp to DISABLED; use NAT for egress.",
		Bad:         []string{"networkConfiguration: {awsvpcConfiguration: {subnets: [subnet-1], assignPublicIp: ENABLED}}"},
		Good:        []string{"networkConfiguration: {awsvpcConfiguration: {subnets: [subnet-1], assignPublicIp: DISABLED}}"},
		check:       needNotIn("networkConfiguration.awsvpcConfiguration.assignPublicIp", "ENABLED"),
	})

	_ = define(&Rule{
		ID: "eks-endpoint-no-public-access", Title: "EKS cluster endpoints are not public",
		Types: []string{"aws/eks/cluster"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EKS_ENDPOINT_NO_PUBLIC_ACCESS"},
		Rationale:   "A public Kubernetes API endpoint is reachable (and attackable) from the whole internet.",
		Fix:         "Set resourcesVpcConfig.endpointPublicAccess to false and endpointPrivateAccess to true.",
		Bad:         []string{eksBase + "}", eksBase + ", endpointPublicAccess: true}"},
		Good:        []string{eksBase + ", endpointPublicAccess: false, endpointPrivateAccess: true}"},
		check:       needBool("resourcesVpcConfig.endpointPublicAccess", false, false),
		hasQuickFx:  true,
	})
	_ = define(&Rule{
		ID: "eks-secrets-encrypted", Title: "EKS clusters encrypt Kubernetes secrets with KMS",
		Types: []string{"aws/eks/cluster"}, Severity: source.Warning, Set: Security,
		Equivalents: []string{"EKS_SECRETS_ENCRYPTED"},
		Rationale:   "Envelope encryption keeps Kubernetes secrets unreadable in etcd backups without the KMS key.",
		Fix:         "Add encryptionConfig [{resources: [secrets], provider: {keyArn: ...}}].",
		Bad:         []string{eksBase + "}"},
		Good:        []string{eksBase + "}\nencryptionConfig: [{resources: [secrets], provider: {keyArn: arn:aws:kms:eu-west-1:123456789012:key/k}}]"},
		check: func(s *subject) {
			for _, f := range s.get("encryptionConfig[*].resources[*]") {
				if f.state == unknown {
					return
				}
				if v, _ := strOf(f.v); f.state == present && v == "secrets" {
					return
				}
			}
			s.failMissing(s.one("encryptionConfig"), "spec.encryptionConfig for secrets")
		},
	})
	_ = define(&Rule{
		ID: "eks-cluster-logging", Title: "EKS clusters send control plane logs to CloudWatch",
		Types: []string{"aws/eks/cluster"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"EKS_CLUSTER_LOGGING_ENABLED"},
		Rationale:   "API server and audit logs record who did what in the cluster.",
		Fix:         "Set logging.clusterLogging.enabledTypes (api, audit, authenticator, ...).",
		Bad:         []string{eksBase + "}"},
		Good:        []string{eksBase + "}\nlogging: {clusterLogging: {enabledTypes: [{type: api}, {type: audit}]}}"},
		check:       needSet("logging.clusterLogging.enabledTypes"),
	})
)

const eksBase = "roleArn: arn:aws:iam::123456789012:role/eks\nresourcesVpcConfig: {subnetIds: [subnet-1, subnet-2]"

func isRootUser(u string) bool {
	name, _, _ := strings.Cut(u, ":")
	return name == "root" || name == "0"
}
