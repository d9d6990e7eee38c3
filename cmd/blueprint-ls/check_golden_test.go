package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/testutil"
)

// golden compares got with dir/name (testdata/golden), or rewrites it with
// -update.
func golden(t *testing.T, dir, name, got string) {
	t.Helper()
	testutil.Golden(t, filepath.Join(dir, name), got, *update)
}

// TestCheckGolden runs every output format over the invalid examples from
// the repository root, as CI would.
func TestCheckGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join("..", ".."))
	wd, _ := os.Getwd()
	tests := []struct {
		name string
		args []string
	}{
		{"text.golden", nil},
		{"text-hints.golden", []string{"--show-hints"}},
		{"text-color.golden", []string{"--color", "always"}},
		{"text-max-problems.golden", []string{"--color", "always", "--max-problems", "3"}},
		{"json.golden", []string{"--format", "json"}},
		{"sarif.golden", []string{"--format", "sarif"}},
		{"github.golden", []string{"--format", "github"}},
		{"junit.golden", []string{"--format", "junit"}},
		{"junit-warning.golden", []string{"--format", "junit", "--severity-threshold", "warning", "testdata/examples/invalid/structure.blueprint.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"check"}, tt.args...)
			if !strings.HasSuffix(args[len(args)-1], ".yaml") {
				args = append(args, "testdata/examples/invalid")
			}
			code, out, errs := runArgs(args...)
			if code != exitProblems {
				t.Errorf("exit %d, want 1 (stderr %s)", code, errs)
			}
			out = strings.ReplaceAll(out, fileURI(wd), "file:///$WD")
			golden(t, dir, tt.name, out)
		})
	}
}

// TestCheckThresholds records the exit status of every format and
// threshold on files whose worst problem is an error, a warning,
// information, a hint, or nothing.
func TestCheckThresholds(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"error/blueprint.yaml":       "resources: {}\n",
		"warning/blueprint.yaml":     goodYAML + "extra: 1\n",
		"information/blueprint.yaml": goodYAML + "extra: 1\n",
		"information/" + configName:  "severity:\n  spec-unknown-field: information\n",
		"hint/blueprint.yaml":        goodYAML + "variables:\n  unused:\n    type: string\n",
		"clean/blueprint.yaml":       goodYAML,
	})
	golddir, err := filepath.Abs(filepath.Join("testdata", "golden"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %-8s %-12s %s\n", "worst", "format", "threshold", "exit")
	for _, worst := range []string{"error", "warning", "information", "hint", "clean"} {
		for _, format := range checkFormats {
			for _, th := range []string{"error", "warning", "information", "hint"} {
				code, _, errs := runArgs("check", "--format", format, "--severity-threshold", th, filepath.Join(dir, worst))
				if code == exitUsage {
					t.Errorf("%s %s %s: usage error: %s", worst, format, th, errs)
				}
				fmt.Fprintf(&b, "%-12s %-8s %-12s %d\n", worst, format, th, code)
			}
		}
	}
	t.Chdir(filepath.Join("..", ".."))
	for _, format := range checkFormats {
		for _, th := range []string{"error", "warning", "information", "hint"} {
			code, _, _ := runArgs("check", "--format", format, "--severity-threshold", th, "testdata/examples/invalid")
			fmt.Fprintf(&b, "%-12s %-8s %-12s %d\n", "examples", format, th, code)
		}
	}
	golden(t, golddir, "exit-codes.golden", b.String())
}
