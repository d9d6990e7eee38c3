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

// editVersions returns two versions of a generated blueprint of n
// resources that differ in one scalar in the middle (a resource's
// visibilityTimeout), and the diagnostics count both give.
func editVersions(b *testing.B, n int) (versions [][]byte, want int) {
	data := gen.Blueprint(n, "yaml")
	BuiltinRegistry()
	const field = "visibilityTimeout: 45"
	at := bytes.Index(data[len(data)/2:], []byte(field))
	if at < 0 {
		b.Fatalf("no %q in the generated blueprint", field)
	}
	at += len(data)/2 + len(field) - 1 // the scalar's last digit
	versions = make([][]byte, 2)
	for i := range versions {
		versions[i] = bytes.Clone(data)
		versions[i][at] = byte('6' + i)
	}
	want = len(Analyze(context.Background(), schema.Parse("bench.blueprint.yaml", data), Options{}).Diagnostics)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	return versions, want
}

// benchAnalyzeEdit simulates typing in the middle of a document: each
// iteration changes one scalar and then parses and analyses the whole
// text, as the server does per edit.
func benchAnalyzeEdit(b *testing.B, n int) {
	versions, want := editVersions(b, n)
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

// benchAnalysisOfEdit is benchAnalyzeEdit without the parse: the two
// versions are parsed once, and each iteration analyses one of them. It
// is the figure per-unit reuse (issue 21) is to stop growing with the
// document.
func benchAnalysisOfEdit(b *testing.B, n int) {
	versions, want := editVersions(b, n)
	files := []*schema.File{schema.Parse("bench.blueprint.yaml", versions[0]), schema.Parse("bench.blueprint.yaml", versions[1])}
	i := 0
	for b.Loop() {
		res := Analyze(context.Background(), files[i%2], Options{})
		if len(res.Diagnostics) != want {
			b.Fatalf("the edit changed the diagnostics: %d, want %d", len(res.Diagnostics), want)
		}
		i++
	}
}

func BenchmarkAnalyzeEdit100(b *testing.B)      { benchAnalyzeEdit(b, 100) }
func BenchmarkAnalyzeEdit1000(b *testing.B)     { benchAnalyzeEdit(b, 1000) }
func BenchmarkAnalyzeEdit5000(b *testing.B)     { benchAnalyzeEdit(b, 5000) }
func BenchmarkAnalyzeEdit20000(b *testing.B)    { benchAnalyzeEdit(b, 20000) }
func BenchmarkAnalysisOfEdit1000(b *testing.B)  { benchAnalysisOfEdit(b, 1000) }
func BenchmarkAnalysisOfEdit5000(b *testing.B)  { benchAnalysisOfEdit(b, 5000) }
func BenchmarkAnalysisOfEdit20000(b *testing.B) { benchAnalysisOfEdit(b, 20000) }
