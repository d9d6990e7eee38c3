package landscaper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// TestCorpus: the Landscaper project's own blueprints (a representative
// copy in testdata/landscaper) are Landscaper documents with no errors.
// Their only warnings are the older jsonSchema field and executions
// without a name; every subinstallation file they reference is read.
func TestCorpus(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/landscaper/*/blueprint.yaml")
	if len(paths) < 12 {
		t.Fatalf("found %d corpus blueprints, want at least 12", len(paths))
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if k, _ := dialect.Detect(p, "", data); k != dialect.Landscaper {
			t.Errorf("%s: detected as %v", p, k)
			continue
		}
		abs, _ := filepath.Abs(p)
		res := Check(syntax.Parse(p, data), Options{Dir: filepath.Dir(abs)})
		for _, d := range res.Diagnostics {
			switch {
			case d.Severity == source.Error:
				t.Errorf("%s: %s %s at %v", p, d.Code, d.Message, d.Range)
			case d.Code != codeLegacyField.ID && d.Code != codeMissingField.ID && d.Code != codeRefUnresolved.ID:
				t.Errorf("%s: unexpected %s %s", p, d.Code, d.Message)
			}
		}
	}
}

// TestLenientSeverities: the older field name and a nameless execution
// are warnings, not errors.
func TestLenientSeverities(t *testing.T) {
	doc := head + "jsonSchema: x\ndeployExecutions:\n- type: GoTemplate\n  template: x\n"
	res := Check(syntax.Parse("blueprint.yaml", []byte(doc)), Options{})
	if len(res.Diagnostics) != 2 {
		t.Fatalf("got %v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.Severity != source.Warning {
			t.Errorf("%s is %v, want a warning", d.Code, d.Severity)
		}
	}
	if s := res.Diagnostics[0].Suggestions; len(s) != 1 || s[0].Edits[0].NewText != "jsonSchemaVersion" {
		t.Errorf("no rename fix for jsonSchema: %+v", s)
	}
}

// TestScanDir checks every Landscaper document named blueprint.yaml under
// $LANDSCAPER_CORPUS (a checkout of gardener/landscaper; skipped without
// it) and logs every diagnostic and the count of blueprints with no errors:
// scripts/landscaper-corpus.sh runs it.
func TestScanDir(t *testing.T) {
	root := os.Getenv("LANDSCAPER_CORPUS")
	if root == "" {
		t.Skip("LANDSCAPER_CORPUS not set")
	}
	total, clean := 0, 0
	for _, top := range []string{"docs", "examples", "test/integration"} {
		filepath.WalkDir(filepath.Join(root, top), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !dialect.IsBlueprintName(d.Name()) {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			if k, _ := dialect.Detect(p, "", data); k != dialect.Landscaper {
				t.Logf("%s: not Landscaper (%v)", p, k)
				return nil
			}
			total++
			res := Check(syntax.Parse(p, data), Options{Dir: filepath.Dir(p)})
			errs := 0
			f := syntax.Parse(p, data)
			for _, d := range res.Diagnostics {
				pos := f.Mapper.OffsetPosition(d.Range.Start, source.UTF32)
				t.Logf("%s:%d:%d: %s %s: %s", p, pos.Line+1, pos.Character+1, d.Severity, d.Code, d.Message)
				if d.Severity == source.Error {
					errs++
				}
			}
			if errs == 0 {
				clean++
			}
			return nil
		})
	}
	// The count, not a failure: some public blueprints are genuinely
	// wrong (outdated examples, invalid YAML in proposals).
	t.Logf("%d Landscaper blueprints, %d with no errors", total, clean)
}
