package landscaper

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// BenchmarkCheckCorpus checks every blueprint of testdata/landscaper
// once per iteration (schemas compiled, templates parsed).
func BenchmarkCheckCorpus(b *testing.B) {
	paths, _ := filepath.Glob("../testdata/landscaper/*/blueprint.yaml")
	type doc struct {
		dir  string
		data []byte
	}
	var docs []doc
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		abs, _ := filepath.Abs(p)
		docs = append(docs, doc{filepath.Dir(abs), data})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			Check(syntax.Parse(filepath.Join(d.dir, "blueprint.yaml"), d.data), Options{Dir: d.dir})
		}
	}
}
