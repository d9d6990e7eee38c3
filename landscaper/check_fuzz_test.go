package landscaper

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// FuzzCheck: any text, checked as a Landscaper document beside real
// files, gives diagnostics inside the text and never panics; nor do the
// editor features (their ranges inside the text too) and render (within
// small budgets).
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
		file := syntax.Parse(filepath.Join(dir, "blueprint.yaml"), data)
		res := Check(file, Options{Dir: dir})
		inside := func(what string, r source.Range) {
			if r.Start < 0 || r.End > len(data) || r.Start > r.End {
				t.Fatalf("%s at %v outside the text of %d bytes", what, r, len(data))
			}
		}
		for _, d := range res.Diagnostics {
			inside(d.Code, d.Range)
		}
		for _, tk := range Tokens(file) {
			inside("token", tk.Range)
		}
		for _, off := range []int{0, len(data) / 3, len(data) / 2, len(data)} {
			for _, c := range Complete(file, off) {
				inside("completion "+c.Label, c.Replace)
			}
			if h := Hover(file, off); h != nil {
				inside("hover", h.Range)
			}
			Definition(file, off, dir)
		}
		Render(file, map[string]any{}, RenderOptions{Options: Options{Dir: dir}, Timeout: 50 * time.Millisecond, MaxOutput: 64 << 10})
	})
}
