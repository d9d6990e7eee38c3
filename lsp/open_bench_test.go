package lsp

import (
	"fmt"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// BenchmarkOpenToDiagnostics is issue 36's cold path in the server: from
// didOpen of a generated blueprint to its full diagnostics (rules
// included), protocol included, one fresh server per operation.
//
//	go test ./lsp -run '^$' -bench OpenToDiagnostics -count 5
func BenchmarkOpenToDiagnostics(b *testing.B) {
	for _, format := range []string{"yaml", "json", "bp"} {
		for _, n := range []int{1000, 5000} {
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				content := string(gen.Blueprint(n, format))
				name := "bench.blueprint." + format
				if format == "bp" {
					name = "bench.bp"
				}
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				var lat latencies
				for b.Loop() {
					b.StopTimer()
					h := newHarness(b)
					h.initialize(benchInit)
					b.StartTimer()
					lat.time(func() {
						h.open(name, content)
						h.WaitDiagnostics(name, 1)
					})
					b.StopTimer()
					h.shutdown()
					h.forget()
					b.StartTimer()
				}
				lat.report(b)
			})
		}
	}
}
