package convert_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/bplang"
	"github.com/blueprint-ls/blueprint-ls/convert"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/plantest"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// blueprints lists the YAML and JSON Bluelink blueprints under the
// repository's testdata that parse (the Landscaper corpora are another
// dialect, whatever a name-less scan of some of their files says, and
// the Guard registry's cases are CloudFormation templates).
func blueprints(t *testing.T) []string {
	var out []string
	err := filepath.WalkDir("../testdata", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), "landscaper") || d.Name() == "guard-registry" {
				return filepath.SkipDir // another dialect; CloudFormation test cases
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json", ".jsonc":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if k, _ := dialect.Detect(p, "", data); k != dialect.Bluelink {
			return nil
		}
		if schema.Parse(p, data).HasSyntaxErrors() {
			return nil
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTrip: every YAML and JSON blueprint under testdata converts to
// the blueprint language and back with the same analysis result and plan,
// and the .bp form itself analyses and plans the same. A document the
// language cannot say is an error, never a changed meaning.
func TestRoundTrip(t *testing.T) {
	paths := blueprints(t)
	if len(paths) < 50 {
		t.Fatalf("only %d blueprints found", len(paths))
	}
	converted := 0
	var refused []string
	for _, path := range paths {
		t.Run(strings.TrimPrefix(path, "../testdata/"), func(t *testing.T) {
			data, _ := os.ReadFile(path)
			f := schema.Parse(path, data)
			bp, err := convert.To(f, syntax.BP)
			if err != nil {
				refused = append(refused, path+": "+err.Error())
				return
			}
			bpPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".rt.bp"
			g := bplang.Parse(bpPath, bp)
			if g.HasSyntaxErrors() {
				t.Fatalf("the .bp form does not parse: %v\n%s", g.Diagnostics, bp)
			}
			back, err := convert.To(g, f.Format)
			if err != nil {
				t.Fatalf("back to %v: %v", f.Format, err)
			}
			want := plantest.Meaning(t, path, data)
			if got := plantest.Meaning(t, bpPath, bp); got != want {
				t.Errorf("the .bp form means something else:\n%s\n--- bp:\n%s\n--- want:\n%s", got, bp, want)
			}
			if got := plantest.Meaning(t, path, back); got != want {
				t.Errorf("the round trip means something else:\n%s\n--- back:\n%s\n--- want:\n%s", got, back, want)
			}
			converted++
		})
	}
	t.Logf("%d of %d blueprints converted both ways", converted, len(paths))
	// Only these two say what the language has no form for, on purpose
	// (the second: a substitution that does not parse).
	want := []string{
		`../testdata/examples/invalid/structure.blueprint.yaml: the top-level key "resourcez" is no blueprint section: the blueprint language has no statement for it`,
		`../testdata/examples/invalid/substitutions.blueprint.yaml: 18:19: unterminated substitution: expected '}' to close the '${' at offset 325: the blueprint language writes a substitution as an expression, which must parse; fix it first`,
	}
	if !slices.Equal(refused, want) {
		t.Errorf("refused:\n%s\nwant:\n%s", strings.Join(refused, "\n"), strings.Join(want, "\n"))
	}
}

// TestLanguageToYAML: every official example converts to YAML that
// analyses the same.
func TestLanguageToYAML(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bp/*.bp")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, _ := os.ReadFile(path)
			y, err := convert.To(bplang.Parse(path, data), syntax.YAML)
			if err != nil {
				t.Fatal(err)
			}
			yPath := strings.TrimSuffix(path, ".bp") + ".yaml"
			if schema.Parse(yPath, y).HasSyntaxErrors() {
				t.Fatalf("YAML does not parse:\n%s", y)
			}
			if got, want := plantest.Meaning(t, yPath, y), plantest.Meaning(t, path, data); got != want {
				t.Errorf("YAML means something else:\n%s\n--- yaml:\n%s\n--- want:\n%s", got, y, want)
			}
		})
	}
}
