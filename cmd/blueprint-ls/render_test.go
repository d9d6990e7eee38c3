package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// render prints a Landscaper blueprint's output for the import values,
// and says why not with its exit codes.
func TestRenderCommand(t *testing.T) {
	bp := filepath.Join("..", "..", "testdata", "landscaper", "export-parameters", "blueprint.yaml")
	imports := filepath.Join("..", "..", "testdata", "landscaper-render", "export-parameters.imports.yaml")
	withSchema := filepath.Join("..", "..", "testdata", "landscaper", "container-deployer", "blueprint.yaml")
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("configmap: {name: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	notMap := filepath.Join(dir, "list.yaml")
	if err := os.WriteFile(notMap, []byte("- a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	warned := filepath.Join(dir, "blueprint.yaml")
	if err := os.WriteFile(warned, []byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    deployItems:\n    - name: web\n      type: landscaper.gardener.cloud/kubernetes-manifest\n      config: {apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2, manifest: []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bluelink := filepath.Join("..", "..", "testdata", "examples", "valid", "functions.blueprint.yaml")
	tests := []struct {
		name        string
		args        []string
		code        int
		out, errOut string
	}{
		{"yaml", []string{"render", bp, "--imports", imports}, exitOK, "deployItems:\n  - config:", ""},
		{"json", []string{"render", "--format", "json", bp, "--imports", imports}, exitOK, "{\n  \"deployItems\": [", ""},
		{"deployer config warning", []string{"render", warned}, exitOK, "deployItems:\n  - config:", `blueprint-ls render: warning: deploy item "web": config: unknown field "manifest"; did you mean "manifests"?`},
		{"invalid values", []string{"render", withSchema, "--imports", bad}, exitProblems, "", `import "configmap": got number, want string (at /name)`},
		{"values not a mapping", []string{"render", bp, "--imports", notMap}, exitUsage, "", "the import values are a mapping"},
		{"missing imports file", []string{"render", bp, "--imports", filepath.Join(dir, "nope.yaml")}, exitUsage, "", "nope.yaml"},
		{"unknown format", []string{"render", bp, "--format", "xml"}, exitUsage, "", `unknown format "xml"`},
		{"not Landscaper", []string{"render", bluelink}, exitUsage, "", "is not a Landscaper blueprint"},
		{"no blueprint", []string{"render"}, exitUsage, "", "Usage: blueprint-ls render"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code || !strings.HasPrefix(stdout.String(), tt.out) || !strings.Contains(stderr.String(), tt.errOut) {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
		})
	}
}
