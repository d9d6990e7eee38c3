package lsp

import (
	"fmt"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// BenchmarkOpenToDiagnostics is issue 36's cold path in the server: from
// didOpen of a generated blueprint to its full diagnostics (rules
// included), protocol included, one fresh server per operation, which
// paces the collector as `serve` does (Options.PaceCollector); cpu-ms
// is the process's CPU time from the open to the diagnostics.
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
				var lat, cpu latencies
				for b.Loop() {
					b.StopTimer()
					h := newHarness(b, func(s *server) { s.opts.PaceCollector = true })
					h.initialize(benchInit)
					b.StartTimer()
					before := processCPU()
					lat.time(func() {
						h.open(name, content)
						h.WaitDiagnostics(name, 1)
					})
					cpu = append(cpu, processCPU()-before)
					b.StopTimer()
					h.shutdown()
					h.forget()
					b.StartTimer()
				}
				lat.report(b)
				cpu.reportMedian(b, "cpu-ms")
			})
		}
	}
}

// processCPU is the CPU time (user and system, every thread) the test
// process has used so far: the open's CPU, not only its wall time, is
// what the loaded machine does not distort.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportMedian reports the median of l in milliseconds as unit.
func (l latencies) reportMedian(b *testing.B, unit string) {
	if len(l) == 0 {
		return
	}
	s := slices.Clone(l)
	slices.Sort(s)
	b.ReportMetric(float64(s[(len(s)-1)/2].Microseconds())/1000, unit)
}
