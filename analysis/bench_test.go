package analysis

import (
	"bytes"
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

// benchAnalyzeEdit simulates typing in the middle of a document: each
// iteration changes one scalar (a resource's visibilityTimeout) and then
// parses and analyses the whole text, as the server does per edit.
func benchAnalyzeEdit(b *testing.B, n int) {
	data := gen.Blueprint(n, "yaml")
	BuiltinRegistry()
	const field = "visibilityTimeout: 45"
	at := bytes.Index(data[len(data)/2:], []byte(field))
	if at < 0 {
		b.Fatalf("no %q in the generated blueprint", field)
	}
	at += len(data)/2 + len(field) - 1 // the scalar's last digit
	versions := make([][]byte, 2)
	for i := range versions {
		versions[i] = bytes.Clone(data)
		versions[i][at] = byte('6' + i)
	}
	want := len(Analyze(context.Background(), schema.Parse("bench.blueprint.yaml", data), Options{}).Diagnostics)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f := schema.Parse("bench.blueprint.yaml", versions[i%2])
		res := Analyze(context.Background(), f, Options{})
		if len(res.Diagnostics) != want {
			b.Fatalf("the edit changed the diagnostics: %d, want %d", len(res.Diagnostics), want)
		}
		i++
	}
}

func BenchmarkAnalyzeEdit1000(b *testing.B)  { benchAnalyzeEdit(b, 1000) }
func BenchmarkAnalyzeEdit5000(b *testing.B)  { benchAnalyzeEdit(b, 5000) }
func BenchmarkAnalyzeEdit20000(b *testing.B) { benchAnalyzeEdit(b, 20000) }
