package syntax

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// addSeeds adds the golden inputs and a small generated blueprint to f.
func addSeeds(f *testing.F, ext ...string) {
	for _, e := range ext {
		paths, _ := filepath.Glob("testdata/parse/*" + e)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
}

func FuzzParseYAML(f *testing.F) {
	addSeeds(f, ".yaml")
	f.Add(gen.Blueprint(3, "yaml"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFile(t, ParseYAML(b))
	})
}

func FuzzParseJSON(f *testing.F) {
	addSeeds(f, ".json", ".jsonc")
	f.Add(gen.Blueprint(3, "json"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkFile(t, ParseJSON(b, false))
		checkFile(t, ParseJSON(b, true))
	})
}
