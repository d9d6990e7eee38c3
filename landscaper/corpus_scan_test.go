package landscaper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

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
