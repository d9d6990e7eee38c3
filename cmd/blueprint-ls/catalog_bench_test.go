package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// buildBinary builds blueprint-ls into a temporary folder: the budgets
// below are about the real process, its start-up and its memory.
func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "blueprint-ls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// BenchmarkCheckOneResourceProcess runs the built binary on a
// one-resource blueprint, as a pre-commit hook does: the whole catalog is
// built in, but only the one type's schema is opened. It reports the wall
// time (p50, p95) and the largest peak RSS of the runs. Budget: under
// 50 ms and 40 MB.
//
//	go test ./cmd/blueprint-ls -run '^$' -bench CheckOneResourceProcess -benchtime 20x
func BenchmarkCheckOneResourceProcess(b *testing.B) {
	bin := buildBinary(b)
	file := filepath.Join(b.TempDir(), "fn.blueprint.yaml")
	src := "version: 2025-11-02\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      runtime: nodejs20.x\n      handler: index.handler\n      role: arn:aws:iam::123456789012:role/x\n      code:\n        zipFile: exports.handler = async () => 1\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	var walls []time.Duration
	var peakKB int64
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(bin, "check", "--no-summary", file)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		walls = append(walls, time.Since(start))
		if err != nil {
			b.Fatalf("check: %v\n%s", err, out)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peakKB = max(peakKB, ru.Maxrss) // kilobytes on Linux
		}
	}
	b.StopTimer()
	slices.Sort(walls)
	at := func(p float64) float64 { return float64(walls[int(p*float64(len(walls)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
}

// BenchmarkServerIdleRSS starts the built binary as a language server,
// initializes it and opens a one-resource blueprint, then reads its
// resident set size once it is idle, half a second after the
// diagnostics (idle-RSS-MB; budget: the built-in catalog adds at most
// 10 MB to it), and the anonymous part of it (idle-anon-MB: what the
// process itself holds, beside the pages of its binary).
// BLUEPRINT_LS_BIN runs a binary built elsewhere.
//
//	go test ./cmd/blueprint-ls -run '^$' -bench ServerIdleRSS -benchtime 3x
func BenchmarkServerIdleRSS(b *testing.B) {
	bin := os.Getenv("BLUEPRINT_LS_BIN")
	if bin == "" {
		bin = buildBinary(b)
	}
	var worst, anon float64
	for range b.N {
		idle, a := serverIdleRSS(b, bin)
		worst, anon = max(worst, idle), max(anon, a)
	}
	b.ReportMetric(worst, "idle-RSS-MB")
	b.ReportMetric(anon, "idle-anon-MB")
}

func serverIdleRSS(b *testing.B, bin string) (idle, anon float64) {
	p := startServer(b, bin)
	defer p.stop()
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"debounceMs":0}}}`)
	p.readUntil(`"id":1`)
	p.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	p.send(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/fn.blueprint.yaml","languageId":"yaml","version":1,"text":"version: 2025-11-02\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: orders\n"}}}`)
	p.readUntil(`publishDiagnostics`)
	time.Sleep(500 * time.Millisecond) // let the debounced work settle
	return p.statusMB("VmRSS"), p.statusMB("RssAnon")
}
