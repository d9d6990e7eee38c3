package testutil

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"
)

// budgetEnv names, in a child run by WithinBudget, the test it runs.
const budgetEnv = "BLUEPRINT_LS_BUDGET_CHILD"

// heapMetric is the memory the heap's live and unswept objects hold.
const heapMetric = "/memory/classes/heap/objects:bytes"

// Budget is what a piece of work may spend: wall time and heap.
type Budget struct {
	Time time.Duration
	Heap uint64 // bytes
}

// Spent is what a piece of work spent: its wall time and the largest heap
// seen while it ran.
type Spent struct {
	Time time.Duration
	Heap uint64
}

// WithinBudget runs fn in a child process, the test binary run again for
// this test alone, and fails t when fn takes longer than b.Time or the
// child's heap passes b.Heap while fn runs. Work that would exhaust
// memory or never end is stopped in the child (by a watchdog that
// samples the heap every millisecond, and a kill at twice the time
// budget), never in the process running the tests. It returns what fn
// spent, for the test to log (in the child, a zero Spent).
func WithinBudget(t testing.TB, b Budget, fn func(t testing.TB)) Spent {
	t.Helper()
	if os.Getenv(budgetEnv) == t.Name() {
		runChild(t, b, fn)
		return Spent{}
	}
	var parts []string
	for _, p := range strings.Split(t.Name(), "/") {
		parts = append(parts, "^"+regexp.QuoteMeta(p)+"$")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*b.Time+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+strings.Join(parts, "/"), "-test.count=1", "-test.v=true")
	cmd.Env = append(os.Environ(), budgetEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the work did not end within %v (budget %v); killed", 2*b.Time+30*time.Second, b.Time)
	}
	spent, ok := parseSpent(string(out))
	if err != nil || !ok {
		t.Fatalf("the child run failed (%v):\n%s", err, out)
	}
	if spent.Time > b.Time {
		t.Errorf("the work took %v, budget %v", spent.Time, b.Time)
	}
	if spent.Heap > b.Heap {
		t.Errorf("the work's heap reached %d bytes, budget %d", spent.Heap, b.Heap)
	}
	return spent
}

// runChild runs fn under the watchdog and prints what it spent.
func runChild(t testing.TB, b Budget, fn func(t testing.TB)) {
	sample := []metrics.Sample{{Name: heapMetric}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	done := make(chan struct{})
	peak := make(chan uint64, 1)
	go func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var top uint64
		for {
			select {
			case <-done:
				peak <- top
				return
			case <-tick.C:
			}
			h := read()
			if h > base {
				h -= base
			} else {
				h = 0
			}
			top = max(top, h)
			if h > b.Heap {
				fmt.Printf("\nbudget-exceeded: heap %d bytes, budget %d\n", h, b.Heap)
				os.Exit(3)
			}
		}
	}()
	start := time.Now()
	fn(t)
	elapsed := time.Since(start)
	close(done)
	h := <-peak
	fmt.Printf("\nbudget-spent: %d %d\n", elapsed.Nanoseconds(), h)
}

// parseSpent reads the child's budget-spent line.
func parseSpent(out string) (Spent, bool) {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "budget-spent:" {
			ns, err1 := strconv.ParseInt(f[1], 10, 64)
			h, err2 := strconv.ParseUint(f[2], 10, 64)
			if err1 == nil && err2 == nil {
				return Spent{Time: time.Duration(ns), Heap: h}, true
			}
		}
	}
	return Spent{}, false
}
