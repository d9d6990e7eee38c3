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

// A Landscaper blueprint.yaml found by discovery is checked as one (no
// spec-missing-version), its execution file read beside it, while the
// Bluelink blueprint in the same tree is checked as before; an
// installation template named explicitly is checked too.
func TestCheckLandscaper(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ls/blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\nimports:\n- name: ns\n  type: data\n  schema: {type: string}\n" +
			"deployExecutions:\n- name: default\n  type: GoTemplat\n  file: /deploy.yaml\n",
		"ls/deploy.yaml":     "deployItems: []\n",
		"ls/sub.yaml":        "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: InstallationTemplate\nname: s\nblueprint:\n  ref: cd://resources/s\n",
		"app/blueprint.yaml": "version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: ${variables.nope}\n",
	})
	code, out, errs := runArgs("check", "--color", "never", dir)
	wantLS := filepath.Join(dir, "ls", "blueprint.yaml") + ":9:9: error[landscaper-execution-type]: unknown execution type \"GoTemplat\": GoTemplate or Spiff; did you mean \"GoTemplate\"?"
	wantApp := filepath.Join(dir, "app", "blueprint.yaml") + ":6:30: error[ref-unknown-variable]"
	if code != exitProblems || !strings.Contains(out, wantLS) || !strings.Contains(out, wantApp) || strings.Contains(out, "spec-") {
		t.Errorf("check: exit %d\nstdout %s\nstderr %s\nwant exit 1 with %q and %q", code, out, errs, wantLS, wantApp)
	}
	code, out, errs = runArgs("check", "--color", "never", filepath.Join(dir, "ls", "sub.yaml"))
	if code != exitOK || !strings.Contains(out, "landscaper-ref-unresolved") && out != "" {
		t.Errorf("check sub.yaml: exit %d, stdout %q, stderr %q; want exit 0", code, out, errs)
	}
}
