package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// BenchmarkCheckRules1000 checks the 1,000-resource generated blueprint
// without the rules and with every rule: the rules' share of check's
// time (the goal: at most 20% more).
//
//	go test ./cmd/blueprint-ls -run '^$' -bench CheckRules1000 -benchtime 20x -count 5
func BenchmarkCheckRules1000(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "app.blueprint.yaml")
	if err := os.WriteFile(path, gen.Blueprint(1000, "yaml"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, sets := range []string{"none", "all"} {
		b.Run("rules="+sets, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if code := run([]string{"check", "--rules", sets, path}, io.Discard, io.Discard); code == exitUsage {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
