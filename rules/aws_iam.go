package rules

import (
	"strings"

	"github.com/blueprint-ls/blueprint-ls/source"
)

const (
	onRole       = "roles: [app]\n"
	adminPolicy  = "policyName: p\npolicyDocument: {Version: '2012-10-17', Statement: [{Effect: Allow, Action: '*', Resource: '*'}]}"
	scopedPolicy = "policyName: p\npolicyDocument: {Version: '2012-10-17', Statement: [{Effect: Allow, Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::b/*'}]}"
	trust        = "assumeRolePolicyDocument: {Statement: [{Effect: Allow, Principal: {Service: lambda.amazonaws.com}, Action: 'sts:AssumeRole'}]}"
)

var (
	_ = define(&Rule{
		ID: "iam-policy-no-admin-access", Title: "IAM policies do not grant every action on every resource",
		Types: iamPolicyTypes, Severity: source.Error, Set: Security,
		Equivalents: []string{"IAM_POLICY_NO_STATEMENTS_WITH_ADMIN_ACCESS"},
		Rationale:   "An Allow of Action \"*\" on Resource \"*\" is full administrator access: whoever holds it can do anything, including granting themselves more.",
		Fix:         "List the actions and resources the principal needs (least privilege).",
		Bad:         []string{onRole + adminPolicy, onRole + "policyName: p\npolicyDocument: {Statement: {Effect: Allow, Action: ['*:*'], Resource: ['*']}}"},
		Good:        []string{onRole + scopedPolicy, onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Deny, Action: '*', Resource: '*'}]}"},
		check: func(s *subject) {
			s.allowStatements(func(st field) {
				if anyString(stmt(st, "Action"), isStar) == yes && anyString(stmt(st, "Resource"), isStar) == yes {
					s.fail(stmt(st, "Action"), "spec.%s allows every action on every resource", pathText(st.path))
				}
			})
		},
	})
	_ = define(&Rule{
		ID: "iam-policy-no-full-service-access", Title: "IAM policies do not grant every action of a service",
		Types: iamPolicyTypes, Severity: source.Warning, Set: Security,
		Equivalents: []string{"IAM_POLICY_NO_STATEMENTS_WITH_FULL_ACCESS"},
		Rationale:   "An action like s3:* grants deletes, policy changes and everything the service adds later, far beyond what code usually needs.",
		Fix:         "Replace service:* with the specific actions used.",
		Bad:         []string{onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Allow, Action: ['s3:*'], Resource: 'arn:aws:s3:::b/*'}]}"},
		Good:        []string{onRole + scopedPolicy},
		check: func(s *subject) {
			s.allowStatements(func(st field) {
				if anyString(stmt(st, "Action"), func(a string) bool { return strings.HasSuffix(a, ":*") || a == "*" }) == yes {
					s.fail(stmt(st, "Action"), "spec.%s allows every action of a service", pathText(st.path))
				}
			})
		},
	})
	_ = define(&Rule{
		ID: "iam-policy-no-not-action-allow", Title: "IAM policies do not allow with NotAction",
		Types: iamPolicyTypes, Severity: source.Warning, Set: Security,
		Rationale: "Allow with NotAction grants every action except those listed, including every action AWS adds in the future.",
		Fix:       "Allow the needed actions with Action instead.",
		Bad:       []string{onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Allow, NotAction: 'iam:*', Resource: '*'}]}"},
		Good:      []string{onRole + scopedPolicy, onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Deny, NotAction: 'iam:*', Resource: '*'}]}"},
		check: func(s *subject) {
			s.allowStatements(func(st field) {
				if f := stmt(st, "NotAction"); f.state == present {
					s.fail(f, "spec.%s allows with NotAction", pathText(st.path))
				}
			})
		},
	})
	_ = define(&Rule{
		ID: "iam-policy-pass-role-wildcard", Title: "IAM policies do not allow iam:PassRole on every role",
		Types: iamPolicyTypes, Severity: source.Warning, Set: Security,
		Rationale: "iam:PassRole on \"*\" lets the holder hand any role, administrator roles included, to a service it controls: a privilege escalation path.",
		Fix:       "Limit Resource to the ARNs of the roles that may be passed.",
		Bad:       []string{onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Allow, Action: 'iam:PassRole', Resource: '*'}]}"},
		Good:      []string{onRole + "policyName: p\npolicyDocument: {Statement: [{Effect: Allow, Action: 'iam:PassRole', Resource: 'arn:aws:iam::123456789012:role/app'}]}"},
		check: func(s *subject) {
			s.allowStatements(func(st field) {
				pass := anyString(stmt(st, "Action"), func(a string) bool { return strings.EqualFold(a, "iam:PassRole") || strings.EqualFold(a, "iam:Pass*") })
				if pass == yes && anyString(stmt(st, "Resource"), isStar) == yes {
					s.fail(stmt(st, "Resource"), "spec.%s allows iam:PassRole on every role", pathText(st.path))
				}
			})
		},
	})
	_ = define(&Rule{
		ID: "iam-no-inline-policy", Title: "IAM identities use managed policies rather than inline ones",
		Types: []string{"aws/iam/role", "aws/iam/user", "aws/iam/group", "aws/iam/policy", "aws/iam/rolePolicy", "aws/iam/userPolicy", "aws/iam/groupPolicy"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"IAM_NO_INLINE_POLICY_CHECK"},
		Rationale:   "Inline policies are copied into each identity, cannot be versioned or reused, and are easy to miss in a review.",
		Fix:         "Move the statements into an aws/iam/managedPolicy and attach it with managedPolicyArns (an aws/iam/policy resource is an inline policy too).",
		Bad:         []string{trust + "\npolicies: [{" + strings.ReplaceAll(scopedPolicy, "\n", ", ") + "}]"},
		Good:        []string{trust + "\nmanagedPolicyArns: ['arn:aws:iam::aws:policy/ReadOnlyAccess']"},
		check: func(s *subject) {
			switch s.res.Type {
			case "aws/iam/role", "aws/iam/user", "aws/iam/group":
				needUnset("policies")(s)
			default:
				s.fail(field{state: absent}, "%s is an inline policy", s.res.Type)
			}
		},
	})
	_ = define(&Rule{
		ID: "iam-user-no-policies", Title: "IAM users get their permissions through groups",
		Types: []string{"aws/iam/user"}, Severity: source.Information, Set: Security,
		Equivalents: []string{"IAM_USER_NO_POLICIES_CHECK"},
		Rationale:   "Permissions attached to users one by one drift apart; groups (or roles) keep them consistent and reviewable.",
		Fix:         "Attach the policies to a group and add the user to it.",
		Bad:         []string{"managedPolicyArns: ['arn:aws:iam::aws:policy/ReadOnlyAccess']"},
		Good:        []string{"groups: [readers]"},
		check:       all(needUnset("managedPolicyArns"), needUnset("policies")),
	})
	_ = define(&Rule{
		ID: "iam-user-group-membership", Title: "IAM users belong to a group",
		Types: []string{"aws/iam/user"}, Severity: source.Hint, Set: Security,
		Equivalents: []string{"IAM_USER_GROUP_MEMBERSHIP_CHECK"},
		Rationale:   "Group membership is how a user's access is granted and reviewed in one place.",
		Fix:         "Add groups to the user.",
		Bad:         []string{"{}"},
		Good:        []string{"groups: [readers]"},
		check:       needSet("groups"),
	})
	_ = define(&Rule{
		ID: "iam-role-trust-not-public", Title: "IAM roles cannot be assumed by everyone",
		Types: []string{"aws/iam/role"}, Severity: source.Error, Set: Security,
		Rationale: "A trust policy allowing Principal \"*\" without a condition lets any AWS account assume the role.",
		Fix:       "Name the accounts, services or federated providers that may assume the role, or add a condition (aws:PrincipalOrgID, sts:ExternalId).",
		Bad:       []string{"assumeRolePolicyDocument: {Statement: [{Effect: Allow, Principal: {AWS: '*'}, Action: 'sts:AssumeRole'}]}"},
		Good:      []string{trust},
		check:     resourcePolicyOpen("assumeRolePolicyDocument"),
	})
	_ = define(&Rule{
		ID: "iam-access-key-inactive-by-default", Title: "Long-lived IAM access keys are not created by blueprints",
		Types: []string{"aws/iam/accessKey"}, Severity: source.Information, Set: Security,
		Rationale:  "A blueprint-created access key is a long-lived credential that ends up in outputs or state; roles give short-lived ones.",
		Fix:        "Use a role (for compute) or IAM Identity Center (for people) instead; if a key is unavoidable, create it Inactive and rotate it.",
		Bad:        []string{"userName: ci", "userName: ci\nstatus: Active"},
		Good:       []string{"userName: ci\nstatus: Inactive"},
		check:      needIn("status", false, "Inactive"),
		hasQuickFx: true,
	})
)
