package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlanDeployConfig: plan and eval take blueprint variables from the
// deploy configuration found from the blueprint's folder up to the
// repository root, or named with --deploy-config; --var wins over it; a
// malformed file is reported at its own line and fails.
func TestPlanDeployConfig(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		"bluelink.deploy.jsonc":      `{"blueprintVariables": {"env": "staging"}, "providers": {"aws": {"region": "eu-west-2"}}}`,
		"bluelink.deploy.prod.jsonc": `{"blueprintVariables": {"env": "prod"}}`,
		"bluelink.deploy.bad.jsonc":  "{\n  \"blueprintVariables\": {\"env\": }\n}\n",
		"svc/queue.blueprint.yaml":   "version: 2025-11-02\nvariables:\n  env:\n    type: string\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.env}-orders\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bp := filepath.Join(root, "svc", "queue.blueprint.yaml")
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"plan", bp}, 0, `"staging-orders"`, ""},
		{[]string{"plan", bp, "--deploy-config", "bluelink.deploy.prod.jsonc"}, 0, `"prod-orders"`, ""},
		{[]string{"plan", bp, "--var", "env=dev"}, 0, `"dev-orders"`, ""},
		{[]string{"plan", bp, "--deploy-config", "bluelink.deploy.bad.jsonc"}, 2, "", filepath.Join(root, "bluelink.deploy.bad.jsonc") + ":2:33: error deploy-config-invalid: the deploy configuration does not parse"},
		{[]string{"plan", bp, "--deploy-config", "nowhere.jsonc"}, 2, "", "deploy config nowhere.jsonc: file does not exist"},
		{[]string{"eval", "--blueprint", bp, "${variables.env}"}, 0, "\"staging\"\n", ""},
	}
	for _, c := range cases {
		code, out, errs := runCmd(c.args...)
		if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errs, c.err) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, containing %q and %q", c.args, code, out, errs, c.code, c.out, c.err)
		}
	}
}
