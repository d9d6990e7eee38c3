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

// TestCheckDeployConfig: check reports a malformed deploy configuration
// the blueprints find as one diagnostic at its own line, once however
// many blueprints find it, and fails; a sound one adds nothing.
func TestCheckDeployConfig(t *testing.T) {
	bp := "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      delaySeconds: 5\n"
	files := map[string]string{
		".git/HEAD":                  "ref: refs/heads/main\n",
		"bad/bluelink.deploy.jsonc":  "{\n  \"blueprintVariables\": {\"env\": }\n}\n",
		"bad/a.blueprint.yaml":       bp,
		"bad/sub/b.blueprint.yaml":   bp,
		"good/bluelink.deploy.jsonc": `{"blueprintVariables": {"env": "x"}}`,
		"good/c.blueprint.yaml":      bp,
	}
	root, err := filepath.EvalSymlinks(writeFiles(t, files))
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCmd("check", "-color", "never", "-rules", "none", "-no-summary", filepath.Join(root, "bad"), filepath.Join(root, "good"))
	want := filepath.Join(root, "bad", "bluelink.deploy.jsonc") + ":2:33: error[deploy-config-invalid]: the deploy configuration does not parse"
	if code != 1 || strings.Count(out, "deploy-config-invalid") != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout:\n%s\nwant exit 1 and one line containing %q", code, out, want)
	}
}
