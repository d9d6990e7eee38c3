package landscaper

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/landscaper-render")

// TestRenderGolden renders corpus blueprints with the import values
// beside their golden output: deploy items, a Spiff import execution,
// inline and file subinstallations, export executions, what is unknown.
func TestRenderGolden(t *testing.T) {
	inputs, _ := filepath.Glob("../testdata/landscaper-render/*.imports.yaml")
	if len(inputs) < 5 {
		t.Fatalf("found %d render cases, want at least 5", len(inputs))
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".imports.yaml")
		t.Run(name, func(t *testing.T) {
			bp, _ := filepath.Abs(filepath.Join("../testdata/landscaper", name, "blueprint.yaml"))
			data, err := os.ReadFile(bp)
			if err != nil {
				t.Fatal(err)
			}
			vdata, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			values, _ := Value(syntax.Parse(in, vdata).Root).(map[string]any)
			out, _, problems := Render(syntax.Parse(bp, data), values, RenderOptions{Options: Options{Dir: filepath.Dir(bp)}})
			if len(problems) > 0 || out == nil {
				t.Fatalf("problems: %v", problems)
			}
			got, err := out.YAML()
			if err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, strings.TrimSuffix(in, ".imports.yaml")+".golden.yaml", string(got), *update)
		})
	}
}
