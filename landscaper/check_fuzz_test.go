package landscaper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// FuzzCheck: any text, checked as a Landscaper document beside real
// files, gives diagnostics inside the text and never panics.
func FuzzCheck(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/landscaper/*/*.yaml")
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(head + "imports:\n- name: a\n  imports: [{name: a}]\nsubinstallations:\n- file: ../x\n"))
	f.Add([]byte(head + "imports:\n- name: a\n  schema: {$ref: 'local://t'}\ndeployExecutions:\n- name: d\n  type: GoTemplate\n  template: |\n    a: {{ .imports.a | toYml }}\nexportExecutions:\n- name: e\n  type: Spiff\n  template:\n    exports: {x: (( imports.b ))}\n"))
	f.Add([]byte(`{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "InstallationTemplate", "blueprint": {"ref": 1}}`))
	// Not f.TempDir: with -fuzz the workers stall on it (seen here: no
	// executions after the seed corpus).
	dir, err := os.MkdirTemp("", "landscaper-fuzz")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(dir) })
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res := Check(syntax.Parse(filepath.Join(dir, "blueprint.yaml"), data), Options{Dir: dir})
		for _, d := range res.Diagnostics {
			if d.Range.Start < 0 || d.Range.End > len(data) || d.Range.Start > d.Range.End {
				t.Fatalf("%s at %v outside the text of %d bytes", d.Code, d.Range, len(data))
			}
		}
	})
}
