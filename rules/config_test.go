package rules_test

import (
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/rules"
	"github.com/blueprint-ls/blueprint-ls/source"
)

func configure(t *testing.T, yaml string) (*rules.Config, []source.Diagnostic) {
	t.Helper()
	cfg, diags := project.Parse("/p/.blueprint-ls.yaml", []byte(yaml))
	if len(diags) > 0 {
		t.Fatalf("config diagnostics: %v", diags)
	}
	return rules.Configure(cfg.Rules)
}

const openBucket = "version: 2025-11-02\nresources:\n  logs:\n    type: aws/logs/logGroup\n    spec:\n      retentionInDays: 30\n  b:\n    type: aws/s3/bucket\n    spec:\n      accessControl: PublicReadWrite\n"

func ruleIDs(ds []source.Diagnostic) string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		if !seen[d.Code] {
			seen[d.Code] = true
			out = append(out, d.Code)
		}
	}
	return strings.Join(out, " ")
}

func TestConfigSetsEnableDisableParams(t *testing.T) {
	tests := []struct {
		name, config  string
		want, wantNot []string
	}{
		{"default: every rule", "", []string{"s3-bucket-lifecycle", "s3-bucket-public-write-acl", "s3-bucket-versioning"}, []string{"log-group-retention"}},
		{"security only", "rules:\n  sets: [security]\n", []string{"s3-bucket-public-write-acl"}, []string{"s3-bucket-lifecycle", "s3-bucket-versioning"}},
		{"cost only", "rules:\n  sets: cost\n", []string{"s3-bucket-lifecycle"}, []string{"s3-bucket-public-write-acl"}},
		{"none plus one", "rules:\n  sets: [none]\n  enable: [s3-bucket-versioning]\n", []string{"s3-bucket-versioning"}, []string{"s3-bucket-public-write-acl", "s3-bucket-lifecycle"}},
		{"disable by Guard name", "rules:\n  disable: [S3_BUCKET_NO_PUBLIC_RW_ACL]\n", []string{"s3-bucket-versioning"}, []string{"s3-bucket-public-write-acl"}},
		{"parameter", "rules:\n  params:\n    log-group-retention: {minDays: 365}\n", []string{"s3-bucket-versioning", "log-group-retention"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, diags := configure(t, tc.config+"\n")
			if len(diags) > 0 {
				t.Fatalf("rules config diagnostics: %v", diags)
			}
			found, _ := check(t, openBucket, eval.Inputs{}, cfg)
			got := " " + ruleIDs(found) + " "
			for _, w := range tc.want {
				if !strings.Contains(got, " "+w+" ") {
					t.Errorf("missing %s in %s", w, got)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, " "+w+" ") {
					t.Errorf("unexpected %s in %s", w, got)
				}
			}
		})
	}
}

func TestConfigMistakesPositioned(t *testing.T) {
	src := "rules:\n  enable: [s3-bucket-versionin]\n  params:\n    log-group-retention: {minDay: 14}\n    sg-restricted-common-ports: {ports: x}\n    nope: {a: 1}\n    log-group-encrypted: {a: 1}\n"
	cfg, diags := project.Parse("/p/.blueprint-ls.yaml", []byte(src))
	if len(diags) > 0 {
		t.Fatalf("config diagnostics: %v", diags)
	}
	_, ds := rules.Configure(cfg.Rules)
	var got []string
	for _, d := range ds {
		got = append(got, src[d.Range.Start:d.Range.End]+": "+d.Message)
	}
	want := []string{
		`s3-bucket-versionin: rules.enable: unknown rule "s3-bucket-versionin"`,
		`minDay: rules.params.log-group-retention: unknown parameter "minDay" (known: minDays)`,
		`nope: rules.params: unknown rule "nope"`,
		`a: rules.params.log-group-encrypted: unknown parameter "a" (it has none)`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMetadataSuppression(t *testing.T) {
	src := `version: 2025-11-02
resources:
  site:
    type: aws/s3/bucket
    metadata:
      custom:
        suppressedRules:
          - rule: s3-bucket-public-read-acl
            reason: a public website bucket
          - S3_BUCKET_VERSIONING_ENABLED
    spec:
      accessControl: PublicRead
`
	found, errs := check(t, src, eval.Inputs{}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := " " + ruleIDs(found) + " "
	for _, id := range []string{"s3-bucket-public-read-acl", "s3-bucket-versioning"} {
		if strings.Contains(got, " "+id+" ") {
			t.Errorf("%s reported despite the metadata suppression: %s", id, got)
		}
	}
	if !strings.Contains(got, " s3-bucket-logging ") {
		t.Errorf("other rules should still run: %s", got)
	}
}
