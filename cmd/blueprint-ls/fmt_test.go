package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	messyYAML = "version: 2023-04-20\nresources:\n    q:\n        type: aws/sqs/queue   \n        spec:\n            name: ${ trim(variables.x) }\n"
	tidyYAML  = "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      name: ${trim(variables.x)}\n"
	messyJSON = `{"version":"2023-04-20", // v
"resources":{}}`
	tidyJSON = "{\n  \"version\": \"2023-04-20\", // v\n  \"resources\": {}\n}\n"
)

func TestFmtPrint(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": messyYAML})
	code, out, errs := runArgs("fmt", filepath.Join(dir, "a.blueprint.yaml"))
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if diff := cmp.Diff(tidyYAML, out); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.blueprint.yaml")); string(b) != messyYAML {
		t.Error("printing modified the file")
	}
}

func TestFmtCheckAndWrite(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.blueprint.yaml":              messyYAML,
		"tidy/blueprint.yaml":           tidyYAML,
		"sub/b.blueprint.jsonc":         messyJSON,
		"node_modules/x.blueprint.yaml": messyYAML,
		"notes.yaml":                    messyYAML,
	})
	code, out, errs := runArgs("fmt", "--check", dir)
	if code != exitProblems {
		t.Fatalf("--check: exit %d, want 1 (stderr %q)", code, errs)
	}
	want := filepath.Join(dir, "a.blueprint.yaml") + "\n" + filepath.Join(dir, "sub", "b.blueprint.jsonc") + "\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("--check listing (-want +got):\n%s", diff)
	}

	if code, out, errs := runArgs("fmt", "-w", dir); code != exitOK || out != "" || errs != "" {
		t.Fatalf("-w: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	for name, want := range map[string]string{
		"a.blueprint.yaml":              tidyYAML,
		"tidy/blueprint.yaml":           tidyYAML,
		"sub/b.blueprint.jsonc":         tidyJSON,
		"node_modules/x.blueprint.yaml": messyYAML,
		"notes.yaml":                    messyYAML,
	} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(b)); diff != "" {
			t.Errorf("%s after -w (-want +got):\n%s", name, diff)
		}
	}
	if code, out, _ := runArgs("fmt", "--check", dir); code != exitOK || out != "" {
		t.Errorf("--check after -w: exit %d, stdout %q", code, out)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.blueprint.yaml": "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8   \ni: 9"})
	p := filepath.Join(dir, "a.blueprint.yaml")
	code, out, errs := runArgs("fmt", "--diff", p)
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := "--- " + p + "\n+++ " + p + "\n" +
		"@@ -5,5 +5,5 @@\n e: 5\n f: 6\n g: 7\n-h: 8   \n-i: 9\n\\ No newline at end of file\n+h: 8\n+i: 9\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("diff (-want +got):\n%s", diff)
	}
}

func TestFmtErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"bad.blueprint.yaml": "a: 1\nb: [1, 2\n",
		"ok.blueprint.yaml":  messyYAML,
	})
	code, out, errs := runArgs("fmt", "--check", dir)
	if code != exitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.HasPrefix(errs, filepath.Join(dir, "bad.blueprint.yaml")+":") || !strings.Contains(errs, "not formatted") {
		t.Errorf("stderr %q does not name the file and position", errs)
	}
	if !strings.Contains(out, "ok.blueprint.yaml") {
		t.Errorf("the good file was not checked: %q", out)
	}
	if code, _, errs := runArgs("fmt", filepath.Join(dir, "missing.yaml")); code != exitUsage || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := runArgs("fmt"); code != exitUsage {
		t.Errorf("no paths: exit %d, want 2", code)
	}
	if code, _, _ := runArgs("fmt", "--indent", "0", dir); code != exitUsage {
		t.Errorf("--indent 0: exit %d, want 2", code)
	}
}
