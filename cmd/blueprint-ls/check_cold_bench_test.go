package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// BenchmarkCheckGenerated is `check --format json` of one generated
// blueprint (the cold path of issue 36: read, detect, parse, analyse,
// rules, output), in process. The 20,000-resource file is over the
// default 8 MiB document budget, so the folder's config raises it.
//
//	go test ./cmd/blueprint-ls -run '^$' -bench CheckGenerated -count 5
func BenchmarkCheckGenerated(b *testing.B) {
	for _, format := range []string{"yaml", "json", "bp"} {
		for _, n := range []int{1000, 5000, 20000} {
			if n == 20000 && format != "yaml" {
				continue
			}
			b.Run(fmt.Sprintf("%s/%d", format, n), func(b *testing.B) {
				dir := b.TempDir()
				if err := os.WriteFile(filepath.Join(dir, configName), []byte("limits:\n  documentSize: 64MiB\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				name := "bench.blueprint." + format
				if format == "bp" {
					name = "bench.bp"
				}
				path := filepath.Join(dir, name)
				content := gen.Blueprint(n, format)
				if err := os.WriteFile(path, content, 0o644); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(content)))
				b.ReportAllocs()
				var cpu []time.Duration
				for b.Loop() {
					cpu = append(cpu, cpuTime(func() {
						if code := run([]string{"check", "--format", "json", path}, io.Discard, io.Discard); code == exitUsage {
							b.Fatalf("exit %d", code)
						}
					}))
				}
				// The process's CPU per check (median): what a loaded
				// machine distorts less than the wall time.
				b.ReportMetric(float64(median(cpu).Microseconds())/1000, "cpu-ms")
			})
		}
	}
}
