package lsp

import (
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// BenchmarkEditToDiagnostics measures one incremental edit to full
// diagnostics through the real server over net.Pipe, with no debounce.
// BenchmarkParseBaseline is the same document parsed directly, so the
// server's overhead shows as the ratio.
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		for _, format := range []string{"yaml", "json"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				content := string(gen.Blueprint(n, format))
				name := "bench.blueprint." + format
				h := newHarness(b)
				h.initialize(fastInit)
				h.open(name, content)
				h.WaitDiagnostics(name, 1)
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v := int32(i + 2)
					// Alternately insert and delete a space at the very end.
					m := newTestMapper(content)
					end := m.pos(len(content))
					if i%2 == 0 {
						h.changeRange(name, v, rng(end.Line, end.Character, end.Line, end.Character), " ")
						content += " "
					} else {
						start := m.pos(len(content) - 1)
						h.changeRange(name, v, rng(start.Line, start.Character, end.Line, end.Character), "")
						content = content[:len(content)-1]
					}
					h.WaitDiagnostics(name, v)
				}
				b.StopTimer()
				h.shutdown()
			})
		}
	}
}

func BenchmarkParseBaseline(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		for _, format := range []string{"yaml", "json"} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				content := gen.Blueprint(n, format)
				uri := "file:///bench.blueprint." + format
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					f := schema.Parse(uri, content)
					schema.Load(f)
				}
			})
		}
	}
}
