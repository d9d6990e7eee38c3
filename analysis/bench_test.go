package analysis

import (
	"context"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

func benchParse(b *testing.B, n int) {
	data := gen.Blueprint(n, "yaml")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f := schema.Parse("bench.blueprint.yaml", data)
		if _, diags := schema.Load(f); len(f.Diagnostics)+len(diags) < 0 {
			b.Fatal()
		}
	}
}

func benchAnalyze(b *testing.B, n int) {
	data := gen.Blueprint(n, "yaml")
	BuiltinRegistry() // loaded once per process, not per keystroke
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f := schema.Parse("bench.blueprint.yaml", data)
		Analyze(context.Background(), f, Options{})
	}
}

// BenchmarkParseOnly* is the baseline: parsing plus the structural rules,
// which Analyze includes.
func BenchmarkParseOnly1000(b *testing.B) { benchParse(b, 1000) }
func BenchmarkParseOnly5000(b *testing.B) { benchParse(b, 5000) }
func BenchmarkAnalyze1000(b *testing.B)   { benchAnalyze(b, 1000) }
func BenchmarkAnalyze5000(b *testing.B)   { benchAnalyze(b, 5000) }
