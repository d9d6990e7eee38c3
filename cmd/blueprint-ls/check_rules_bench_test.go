package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// BenchmarkCheckRules1000 checks the 1,000-resource generated blueprint
// without the rules and with every rule: the rules' share of check's
// time (the goal: at most 20% more). The ratio sub-benchmark runs the
// two alternately and reports the median CPU time (user+sys, every
// thread) of each and their ratio, all-cpu/none-cpu, which a busy
// machine disturbs less than the wall time.
//
//	go test ./cmd/blueprint-ls -run '^$' -bench CheckRules1000 -benchtime 20x -count 5
func BenchmarkCheckRules1000(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "app.blueprint.yaml")
	if err := os.WriteFile(path, gen.Blueprint(1000, "yaml"), 0o644); err != nil {
		b.Fatal(err)
	}
	check := func(b *testing.B, sets string) {
		if code := run([]string{"check", "--rules", sets, path}, io.Discard, io.Discard); code == exitUsage {
			b.Fatalf("exit %d", code)
		}
	}
	for _, sets := range []string{"none", "all"} {
		b.Run("rules="+sets, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				check(b, sets)
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		var none, all []time.Duration
		for b.Loop() {
			none = append(none, cpuTime(func() { check(b, "none") }))
			all = append(all, cpuTime(func() { check(b, "all") }))
		}
		n, a := median(none), median(all)
		b.ReportMetric(float64(n.Microseconds())/1000, "none-cpu-ms")
		b.ReportMetric(float64(a.Microseconds())/1000, "all-cpu-ms")
		b.ReportMetric(float64(a)/float64(n), "all/none")
	})
}

// cpuTime is the user and system CPU time the process spent in f.
func cpuTime(f func()) time.Duration {
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	f()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	return rusageCPU(after) - rusageCPU(before)
}

func rusageCPU(r syscall.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
