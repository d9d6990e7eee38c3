package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestCheckOutputUnchanged compares `check --format json` of this tree's
// binary with a baseline binary (BLUEPRINT_LS_BASELINE, built from the
// commit before a change that must not change any output, issue 36):
// standard output, standard error and exit status, byte for byte, on the
// generated 1,000-, 5,000- and 20,000-resource blueprints (YAML, JSON and
// the blueprint language) and on every blueprint under testdata/.
// scripts/check-same-output.sh builds the baseline and runs it.
func TestCheckOutputUnchanged(t *testing.T) {
	base := os.Getenv("BLUEPRINT_LS_BASELINE")
	if base == "" {
		t.Skip("BLUEPRINT_LS_BASELINE names no baseline binary (scripts/check-same-output.sh)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "blueprint-ls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	gdir := filepath.Join(dir, "gen")
	if err := os.MkdirAll(gdir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The 20,000-resource blueprint is over the default document budget.
	if err := os.WriteFile(filepath.Join(gdir, configName), []byte("limits:\n  documentSize: 64MiB\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, n := range []int{1000, 5000, 20000} {
		for _, format := range []string{"yaml", "json", "bp"} {
			if n == 20000 && testing.Short() {
				continue
			}
			name := fmt.Sprintf("g%d.blueprint.%s", n, format)
			if format == "bp" {
				name = fmt.Sprintf("g%d.bp", n)
			}
			p := filepath.Join(gdir, name)
			if err := os.WriteFile(p, gen.Blueprint(n, format), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, p)
		}
	}
	err := filepath.WalkDir("../../testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && dialect.IsBlueprintName(d.Name()) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		want, wantErr, wantCode := runBin(t, base, f)
		got, gotErr, gotCode := runBin(t, bin, f)
		if !bytes.Equal(got, want) || !bytes.Equal(gotErr, wantErr) || gotCode != wantCode {
			t.Errorf("%s: output differs from the baseline's (exit %d, want %d; stdout %d bytes, want %d)\nstderr: %s\nwant:   %s",
				f, gotCode, wantCode, len(got), len(want), gotErr, wantErr)
		}
	}
	t.Logf("%d files checked by both binaries", len(files))
}

func runBin(t *testing.T, bin, file string) (stdout, stderr []byte, code int) {
	t.Helper()
	cmd := exec.Command(bin, "check", "--format", "json", file)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s: %v", bin, err)
		}
		code = ee.ExitCode()
	}
	// The binaries' names differ; nothing else may.
	return out.Bytes(), bytes.ReplaceAll(errb.Bytes(), []byte(bin), []byte("blueprint-ls")), code
}
