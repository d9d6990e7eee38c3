package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// TestSiteScalarsHoldSubstitution holds what checkSpecSubstitutions
// relies on to skip the site look-up: every site of a spec (of any
// kind but an export's field) is a string scalar holding "${", in the
// analysis of every testdata blueprint and of generated ones, whole and
// after an edit (the incremental analysis carries sites over).
func TestSiteScalarsHoldSubstitution(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/*/*.blueprint.*", "../testdata/*/*/*.blueprint.*", "../testdata/*/*/*/*.blueprint.*", "../testdata/*/*.bp", "../testdata/*/*/*.bp"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d testdata blueprints", len(files))
	}
	check := func(name string, res *Result) {
		t.Helper()
		for _, s := range res.Sites() {
			if s.Kind == SiteExportField {
				continue
			}
			if !s.Scalar.IsString() || !strings.Contains(s.Scalar.Value, "${") {
				t.Errorf("%s: site of kind %v at %v: scalar %q (tag %v) holds no ${", name, s.Kind, s.Scalar.Rng, s.Scalar.Value, s.Scalar.Tag)
			}
		}
	}
	ctx := context.Background()
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(path, Analyze(ctx, schema.Parse("file://"+path, data), Options{Path: path, Repair: true}))
	}
	for _, format := range []string{"yaml", "json", "bp"} {
		name := "gen.blueprint." + format
		if format == "bp" {
			name = "gen.bp"
		}
		data := gen.Blueprint(40, format)
		prev := Analyze(ctx, schema.Parse("file://"+name, data), Options{Path: name})
		check(name, prev)
		// An edit in the middle: the other resources' sites are carried over.
		at := strings.Index(string(data), "r20")
		if at < 0 {
			t.Fatalf("%s: no r20", name)
		}
		edited := append(append(append([]byte{}, data[:at]...), "q"...), data[at:]...)
		check(name+" edited", AnalyzeIncremental(ctx, prev, schema.Parse("file://"+name, edited), Options{Path: name}))
	}
}
