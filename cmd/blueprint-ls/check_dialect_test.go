package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A file named explicitly that is not a blueprint is refused with exit 2
// and a sentence saying so, not parsed into "unknown field" noise; a
// blueprint with a plain name is checked in full.
func TestCheckNotABlueprint(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ci.yaml":       "name: CI\non:\n  push: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
		"deploy.yaml":   "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n",
		"compose.yaml":  "version: \"3.8\"\nservices:\n  web:\n    image: nginx\n",
		"manifest.json": `{"schema": "cloud-assembly/1.0", "droplets": {}}`,
		"infra.yaml":    "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n",
	})
	for name, want := range map[string]string{
		"ci.yaml":       "ci.yaml: not a blueprint: its top level has no blueprint section and no blueprint version\n",
		"deploy.yaml":   "deploy.yaml: not a blueprint: its top level has no blueprint section and no blueprint version\n",
		"compose.yaml":  "compose.yaml: not a blueprint: its top level has no blueprint section and no blueprint version\n",
		"manifest.json": "manifest.json: not a blueprint: it is a Cloud Assembly manifest\n",
	} {
		p := filepath.Join(dir, name)
		code, out, errs := runArgs("check", "--color", "never", p)
		if code != exitUsage || out != "" || !strings.Contains(errs, "\nblueprint-ls check: "+filepath.Join(dir, want)) && !strings.HasPrefix(errs, "blueprint-ls check: "+filepath.Join(dir, want)) {
			t.Errorf("check %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", name, code, out, errs, want)
		}
	}
	p := filepath.Join(dir, "infra.yaml")
	code, out, errs := runArgs("check", "--color", "never", p)
	if want := p + ":6:30: error[ref-unknown-variable]: unknown variable \"nope\""; code != exitProblems || !strings.HasPrefix(out, want) {
		t.Errorf("check infra.yaml: exit %d, stdout %q, stderr %q; want exit 1 and %q", code, out, errs, want)
	}
}
