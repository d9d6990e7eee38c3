package ide

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
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

func BenchmarkCompletionInSubstitution(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			res := generatedResult(b, n)
			// "${resources.rN.spec.|" near the end of the document.
			off := lastOffset(b, res.File.Content, "${resources.r", len("${resources.r"))
			for res.File.Content[off] != '.' {
				off++
			}
			off += len(".spec.")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if len(Completion(res, nil, off, Options{})) == 0 {
					b.Fatal("no items")
				}
			}
		})
	}
}

func BenchmarkCompletionNamespace(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			res := generatedResult(b, n)
			off := lastOffset(b, res.File.Content, "${variables.", len("${variables."))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if len(Completion(res, nil, off, Options{})) == 0 {
					b.Fatal("no items")
				}
			}
		})
	}
}

func BenchmarkHover(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			res := generatedResult(b, n)
			off := lastOffset(b, res.File.Content, "${resources.r", len("${resources.r"))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if Hover(res, off, Options{}) == nil {
					b.Fatal("no hover")
				}
			}
		})
	}
}

func BenchmarkDocumentSymbols(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			res := generatedResult(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if len(DocumentSymbols(res)) == 0 {
					b.Fatal("no symbols")
				}
			}
		})
	}
}

func BenchmarkSemanticTokens(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			res := generatedResult(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if len(SemanticTokens(res, nil)) == 0 {
					b.Fatal("no tokens")
				}
			}
		})
	}
}

// BenchmarkIndex is the one-off cost of a Result's index (paid by the
// first request after an edit).
func BenchmarkIndex(b *testing.B) {
	res := generatedResult(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		var x Index
		x.build(res)
	}
}
