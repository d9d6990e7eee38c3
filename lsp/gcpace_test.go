package lsp

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestHoldCollector: a hold turns the collector off under a limit, the
// last release restores the pacing and limit the process had, and so
// does the first collection while holds remain.
func TestHoldCollector(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	if r := holdCollector(coldOpenMin - 1); r != nil {
		t.Fatal("a small text held the collector")
	}
	pacing := func() (int, int64) {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p, debug.SetMemoryLimit(-1)
	}

	r1 := holdCollector(coldOpenMin)
	r2 := holdCollector(2 * coldOpenMin)
	if p, l := pacing(); p != -1 || l == math.MaxInt64 || l < 3*coldPerByte*coldOpenMin {
		t.Fatalf("held: GC percent %d, limit %d", p, l)
	}
	r1()
	r1() // idempotent
	if p, _ := pacing(); p != -1 {
		t.Fatalf("one of two holds released: GC percent %d, want -1", p)
	}
	r2()
	if p, l := pacing(); p != 100 || l != math.MaxInt64 {
		t.Fatalf("released: GC percent %d, limit %d; want 100 and no limit", p, l)
	}

	// A collection while held resumes the pacing.
	r3 := holdCollector(coldOpenMin)
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if p, l := pacing(); p == 100 && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a collection did not restore the pacing")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	r3()
	if p, l := pacing(); p != 100 || l != math.MaxInt64 {
		t.Fatalf("released after a collection: GC percent %d, limit %d", p, l)
	}

	// A collector already off is left alone.
	debug.SetGCPercent(-1)
	if r := holdCollector(coldOpenMin); r != nil {
		t.Fatal("held a collector that was off")
	}
	debug.SetGCPercent(100)
}

// TestPaceOpen: a large text open lowers the pacing to openPercent
// outside a hold, a hold started meanwhile ends there, and the last
// close gives the process its own pacing back; a process pacing lower
// already, or a small text, is left alone.
func TestPaceOpen(t *testing.T) {
	percent := debug.SetGCPercent(100)
	limit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	gc := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	if c := paceOpen(coldOpenMin - 1); c != nil {
		t.Fatal("a small text lowered the pacing")
	}

	c1 := paceOpen(coldOpenMin)
	if p := gc(); p != openPercent {
		t.Fatalf("a large text open: GC percent %d, want %d", p, openPercent)
	}
	r := holdCollector(coldOpenMin)
	c2 := paceOpen(coldOpenMin)
	if p := gc(); p != -1 {
		t.Fatalf("a second large text opened under a hold: GC percent %d, want -1", p)
	}
	r()
	if p, l := gc(), debug.SetMemoryLimit(-1); p != openPercent || l != math.MaxInt64 {
		t.Fatalf("hold released with large texts open: GC percent %d, limit %d; want %d and no limit", p, l, openPercent)
	}
	c1()
	c1() // idempotent
	if p := gc(); p != openPercent {
		t.Fatalf("one of two large texts closed: GC percent %d, want %d", p, openPercent)
	}
	c2()
	if p := gc(); p != 100 {
		t.Fatalf("every large text closed: GC percent %d, want 100", p)
	}

	debug.SetGCPercent(30)
	c3 := paceOpen(coldOpenMin)
	if p := gc(); p != 30 {
		t.Fatalf("a process pacing at 30: GC percent %d with a large text open", p)
	}
	c3()
	if p := gc(); p != 30 {
		t.Fatalf("a process pacing at 30: GC percent %d after the close", p)
	}
	debug.SetGCPercent(100)
}

// TestServerEndGivesPacingBack: a server that ends with a large text
// still open (exit without a close) gives the process its pacing back,
// and a second open of the same document replaces the first's note.
func TestServerEndGivesPacingBack(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a 1.2 MB blueprint")
	}
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(percent) })
	gc := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	h := newHarness(t, func(s *server) { s.opts.PaceCollector = true })
	h.initialize(benchInit)
	content := string(gen.Blueprint(2000, "yaml"))
	for range 2 {
		h.open("big.blueprint.yaml", content)
		h.WaitDiagnostics("big.blueprint.yaml", 1)
	}
	if p := gc(); p != openPercent {
		t.Fatalf("GC percent %d with a large text open, want %d", p, openPercent)
	}
	h.shutdown()
	if p := gc(); p != 100 {
		t.Fatalf("GC percent %d after the server ended, want 100", p)
	}
}
