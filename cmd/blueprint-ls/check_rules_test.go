package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const rulesBlueprint = `version: 2025-11-02
variables:
  versioning:
    type: string
    default: Suspended
resources:
  site:
    type: aws/s3/bucket
    spec:
      accessControl: PublicReadWrite
      versioningConfiguration:
        status: ${variables.versioning}
`

// TestCheckRulesEveryFormat: a rule's finding appears in every output
// format with the rule id as its code; SARIF links the rule's page.
func TestCheckRulesEveryFormat(t *testing.T) {
	dir := writeFiles(t, map[string]string{"app.blueprint.yaml": rulesBlueprint})
	path := filepath.Join(dir, "app.blueprint.yaml")
	for _, format := range checkFormats {
		t.Run(format, func(t *testing.T) {
			code, out, errs := runArgs("check", "--rules", "all", "--no-summary", "--show-hints", "--format", format, path)
			if code != exitProblems {
				t.Fatalf("exit %d (s3-bucket-public-write-acl is an error), want 1\n%s%s", code, out, errs)
			}
			for _, id := range []string{"s3-bucket-public-write-acl", "s3-bucket-versioning"} {
				if !strings.Contains(out, id) {
					t.Errorf("%s output lacks %s:\n%s", format, id, out)
				}
			}
			if format == "sarif" && !strings.Contains(out, `"helpUri": "https://github.com/blueprint-ls/blueprint-ls/blob/main/docs/rules.md#s3-bucket-public-write-acl"`) {
				t.Errorf("SARIF helpUri is not the rule's page:\n%s", out)
			}
		})
	}
	if code, out, _ := runArgs("check", "--no-summary", "--rules", "none", path); code != exitOK || out != "" {
		t.Errorf("--rules none: exit %d, output %q", code, out)
	}
}

// TestCheckRulesInputs: the setting from the variable's default is
// reported at the ${..}; --var overriding it is not.
func TestCheckRulesInputs(t *testing.T) {
	dir := writeFiles(t, map[string]string{"app.blueprint.yaml": rulesBlueprint})
	path := filepath.Join(dir, "app.blueprint.yaml")
	_, out, _ := runArgs("check", "--rules", "reliability", "--no-summary", path)
	if want := "app.blueprint.yaml:12:17: information[s3-bucket-versioning]: site: spec.versioningConfiguration.status is \"Suspended\""; !strings.Contains(out, want) {
		t.Errorf("default: want %q in\n%s", want, out)
	}
	if strings.Contains(out, "s3-bucket-public-write-acl") {
		t.Errorf("--rules reliability ran a security rule:\n%s", out)
	}
	_, out, _ = runArgs("check", "--rules", "reliability", "--no-summary", "--var", "versioning=Enabled", path)
	if strings.Contains(out, "s3-bucket-versioning") {
		t.Errorf("--var versioning=Enabled still reported:\n%s", out)
	}
	vars := writeFiles(t, map[string]string{"vars.json": `{"versioning": "Enabled"}`})
	_, out, _ = runArgs("check", "--rules", "reliability", "--no-summary", "--vars", filepath.Join(vars, "vars.json"), path)
	if strings.Contains(out, "s3-bucket-versioning") {
		t.Errorf("--vars file with Enabled still reported:\n%s", out)
	}
}

// TestCheckRulesConfig: the config's rules: section chooses sets,
// disables and tunes rules; severity and inline suppressions with a
// reason apply to rule ids like to any code; a mistake is refused at its
// place.
func TestCheckRulesConfig(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		".blueprint-ls.yaml": "rules:\n  sets: [security, cost]\n  disable: [s3-bucket-logging]\n  params:\n    log-group-retention: {minDays: 30}\nseverity:\n  s3-bucket-public-write-acl: warning\n",
		"app.blueprint.yaml": rulesBlueprint + `  logs:
    type: aws/logs/logGroup
    spec:
      retentionInDays: 14
  quiet:
    type: aws/s3/bucket
    spec:
      accessControl: PublicRead # blueprint-ls:ignore s3-bucket-public-read-acl a public website
`,
	})
	code, out, errs := runArgs("check", "--no-summary", "--format", "json", filepath.Join(dir, "app.blueprint.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d (the public write ACL is lowered to a warning), want 0\n%s%s", code, out, errs)
	}
	var rep struct {
		Files []struct {
			Diagnostics []struct {
				Code, Severity string
				Range          struct{ Start struct{ Line int } }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	count := map[string]int{}
	for _, f := range rep.Files {
		for _, d := range f.Diagnostics {
			got[d.Code] = d.Severity
			count[d.Code]++
		}
	}
	if count["s3-bucket-public-read-acl"] != 1 {
		t.Errorf("s3-bucket-public-read-acl: want site's finding only (quiet's is suppressed with a reason), got %d", count["s3-bucket-public-read-acl"])
	}
	if got["s3-bucket-public-write-acl"] != "warning" {
		t.Errorf("severity override not applied: %v", got)
	}
	if got["log-group-retention"] != "information" {
		t.Errorf("log-group-retention (14 < 30 days) missing: %v", got)
	}
	for _, id := range []string{"s3-bucket-versioning", "s3-bucket-logging", "suppress-unused", "suppress-unknown-code"} {
		if _, ok := got[id]; ok {
			t.Errorf("%s reported (reliability set off, disabled, or suppressed with a reason): %v", id, got)
		}
	}

	bad := writeFiles(t, map[string]string{
		".blueprint-ls.yaml": "rules:\n  params:\n    log-group-retention: {minDay: 30}\n",
		"app.blueprint.yaml": rulesBlueprint,
	})
	code, _, errs = runArgs("check", filepath.Join(bad, "app.blueprint.yaml"))
	if code != exitUsage || !strings.Contains(errs, ".blueprint-ls.yaml:3:27: rules.params.log-group-retention: unknown parameter \"minDay\"") {
		t.Errorf("bad parameter: exit %d, stderr %q", code, errs)
	}
}

func TestRulesCommand(t *testing.T) {
	code, out, _ := runArgs("rules", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var list []struct {
		ID            string
		Equivalents   []string
		Documentation string
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	withEq := 0
	for _, r := range list {
		if len(r.Equivalents) > 0 {
			withEq++
		}
		if !strings.HasSuffix(r.Documentation, "docs/rules.md#"+r.ID) {
			t.Errorf("%s: documentation %s", r.ID, r.Documentation)
		}
	}
	if len(list) < 120 || withEq < 100 {
		t.Errorf("%d rules, %d with equivalents; want at least 120 and 100", len(list), withEq)
	}
	if code, out, _ := runArgs("rules"); code != exitOK || !strings.Contains(out, "sg-no-ssh-from-internet") || !strings.Contains(out, "INCOMING_SSH_DISABLED") {
		t.Errorf("text listing: exit %d\n%s", code, out)
	}
}

// TestCheckPolicies: the example policies of testdata/policies report at
// the fields they name, with the policy rule as related information; a
// broken policy file is reported on itself, at its line.
func TestCheckPolicies(t *testing.T) {
	code, out, errs := runArgs("check", "--no-summary", filepath.Join("..", "..", "testdata", "policies", "app.blueprint.yaml"))
	if code != exitProblems {
		t.Fatalf("exit %d, want 1 (a deny is an error)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"app.blueprint.yaml:8:5: warning[policy-warn]: queue orders has no dead-letter queue (spec.redrivePolicy) (policy policies.queues.warn)",
		"queues.rego:6:1: the policy rule data.policies.queues.warn",
		"app.blueprint.yaml:13:7: error[policy-deny]: audit has no owner label (policy policies.owner.deny)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	dir := writeFiles(t, map[string]string{
		".blueprint-ls.yaml": "rules:\n  policies: policies\n",
		"policies/bad.rego":  "package p.bad\n\ndeny contains msg if {\n  msg := http.send({\"method\": \"get\", \"url\": \"https://example.com\"})\n}\n",
		"policies/good.rego": "package p.good\n\nwarn contains {\"msg\": \"no owner\", \"resource\": \"q\", \"path\": \"spec.queueName\"} if { true }\n",
		"app.blueprint.yaml": "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n      sqsManagedSseEnabled: true\n",
	})
	code, out, errs = runArgs("check", "--no-summary", "--rules", "none", filepath.Join(dir, "app.blueprint.yaml"))
	if code != exitProblems {
		t.Fatalf("exit %d, want 1 (the broken policy is an error)\n%s%s", code, out, errs)
	}
	for _, want := range []string{
		"app.blueprint.yaml:6:18: warning[policy-warn]: no owner (policy p.good.warn)",
		filepath.Join("policies", "bad.rego") + ":4:10: error[policy-invalid]:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
