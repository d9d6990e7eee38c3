package ide

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// generated analyses a generated blueprint of n resources once per size.
var generated = map[int]*analysis.Result{}

func generatedResult(b *testing.B, n int) *analysis.Result {
	b.Helper()
	if r, ok := generated[n]; ok {
		return r
	}
	data := gen.Blueprint(n, "yaml")
	f := schema.Parse("gen.yaml", data)
	r := analysis.Analyze(context.Background(), f, analysis.Options{})
	generated[n] = r
	return r
}

// lastOffset is the offset just after the last occurrence of sub plus
// delta.
func lastOffset(b *testing.B, content []byte, sub string, delta int) int {
	i := bytes.LastIndex(content, []byte(sub))
	if i < 0 {
		b.Fatalf("%q not found", sub)
	}
	return i + delta
}

// benchGenerated benchmarks a request against the generated blueprints of
// 1,000 and 5,000 resources. setup prepares the request for one Result;
// the request reports false when it comes back empty, which fails with
// empty.
func benchGenerated(b *testing.B, empty string, setup func(b *testing.B, res *analysis.Result) (request func() bool)) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			request := setup(b, generatedResult(b, n))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if !request() {
					b.Fatal(empty)
				}
			}
		})
	}
}

func BenchmarkCompletionInSubstitution(b *testing.B) {
	benchGenerated(b, "no items", func(b *testing.B, res *analysis.Result) func() bool {
		// "${resources.rN.spec.|" near the end of the document.
		off := lastOffset(b, res.File.Content(), "${resources.r", len("${resources.r"))
		for res.File.Content()[off] != '.' {
			off++
		}
		off += len(".spec.")
		return func() bool { return len(Completion(res, nil, off, Options{})) > 0 }
	})
}

func BenchmarkCompletionNamespace(b *testing.B) {
	benchGenerated(b, "no items", func(b *testing.B, res *analysis.Result) func() bool {
		off := lastOffset(b, res.File.Content(), "${variables.", len("${variables."))
		return func() bool { return len(Completion(res, nil, off, Options{})) > 0 }
	})
}

func BenchmarkHover(b *testing.B) {
	benchGenerated(b, "no hover", func(b *testing.B, res *analysis.Result) func() bool {
		off := lastOffset(b, res.File.Content(), "${resources.r", len("${resources.r"))
		return func() bool { return Hover(res, off, Options{}) != nil }
	})
}

func BenchmarkDocumentSymbols(b *testing.B) {
	benchGenerated(b, "no symbols", func(_ *testing.B, res *analysis.Result) func() bool {
		return func() bool { return len(DocumentSymbols(res)) > 0 }
	})
}

func BenchmarkSemanticTokens(b *testing.B) {
	benchGenerated(b, "no tokens", func(_ *testing.B, res *analysis.Result) func() bool {
		return func() bool { return len(SemanticTokens(res, nil)) > 0 }
	})
}

// BenchmarkIndex is the one-off cost of a Result's tables over the whole
// document (paid by the first request after an edit that needs one:
// document links, label and data source field completion; what is at a
// place, and what names a symbol, needs none).
func BenchmarkIndex(b *testing.B) {
	res := generatedResult(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		var t docTables
		t.build(res)
	}
}

// BenchmarkCompletionResourceType is completion after `type: aws/`: every
// type of the built-in catalog, listed from its index (no schema is
// opened). lsp's benchmark of the same name adds the protocol.
func BenchmarkCompletionResourceType(b *testing.B) {
	content := []byte("version: 2025-11-02\nresources:\n  fn:\n    type: aws/\n")
	r := analysis.Analyze(context.Background(), schema.Parse("types.yaml", content), analysis.Options{})
	off := bytes.Index(content, []byte("aws/")) + len("aws/")
	b.ReportAllocs()
	for b.Loop() {
		if n := len(Completion(r, nil, off, Options{})); n < 1500 {
			b.Fatalf("%d items", n)
		}
	}
}

// BenchmarkExtractToValueBP is "Extract to value" on the last resource of
// a generated .bp document of 1,000 and 5,000 resources: the offer is
// checked by parsing the document it would make, so it grows with the
// document.
func BenchmarkExtractToValueBP(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			data := gen.Blueprint(n, "bp")
			res := analysis.Analyze(context.Background(), schema.Parse("gen.bp", data), analysis.Options{})
			at := lastOffset(b, data, "${variables.memory}", 2)
			rng := source.R(at, at+len("variables.memory"))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, ok := extractToValue(res, rng, Options{}); !ok {
					b.Fatal("not offered")
				}
			}
		})
	}
}
