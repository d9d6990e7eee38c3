package lsp

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/schema"
)

// fakeClock replaces the debounce timer: it records every timer armed and
// fires one only when the test says so, so no test depends on wall time.
type fakeClock struct {
	mu     sync.Mutex
	timers []*fakeTimer
	armed  chan time.Duration
}

type fakeTimer struct {
	clock   *fakeClock
	f       func()
	stopped bool
}

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

func withFakeClock(c *fakeClock) harnessOption {
	return func(s *server) {
		s.diags.after = func(d time.Duration, f func()) stopper {
			c.mu.Lock()
			t := &fakeTimer{clock: c, f: f}
			c.timers = append(c.timers, t)
			c.mu.Unlock()
			c.armed <- d
			return t
		}
	}
}

func newFakeClock() *fakeClock { return &fakeClock{armed: make(chan time.Duration, 64)} }

// waitArmed returns the delay of the next timer armed.
func (c *fakeClock) waitArmed(t *testing.T) time.Duration {
	t.Helper()
	select {
	case d := <-c.armed:
		return d
	case <-time.After(waitTimeout):
		t.Fatal("no debounce timer was armed")
		return 0
	}
}

// fire runs every armed timer that was not stopped.
func (c *fakeClock) fire() {
	c.mu.Lock()
	var due []func()
	for _, t := range c.timers {
		if !t.stopped {
			t.stopped = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func (c *fakeClock) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// TestPushWithoutDebounce: with the default settings a push client gets
// the full diagnostics of every edit while the fake clock never fires,
// so no timer stands between the edit and the publish.
func TestPushWithoutDebounce(t *testing.T) {
	clock := newFakeClock()
	h := newHarness(t, withAnalyzer(markerAnalyzer{}), withFakeClock(clock))
	h.initialize(`{"capabilities":{}}`)
	h.open("a.yaml", "a: ERR\n")
	if got := h.WaitDiagnostics("a.yaml", 1); len(got) != 1 {
		t.Fatalf("version 1: %d diagnostics, want 1", len(got))
	}
	h.changeFull("a.yaml", 2, "a: ERR\nb: ERR\n")
	got := h.WaitDiagnostics("a.yaml", 2)
	if len(got) != 2 || got[1].Range != rng(1, 3, 1, 6) {
		t.Fatalf("version 2: %+v, want ERR at 1:3-1:6 as the second", got)
	}
	if n := clock.count(); n != 0 {
		t.Errorf("%d debounce timers armed, want none by default", n)
	}
	h.shutdown()
}

// gateAnalyzer is markerAnalyzer whose full phase finishes only for
// texts containing "GO"; any other text waits until its version is
// superseded, so a burst of edits is certain to overlap stale work.
type gateAnalyzer struct {
	markerAnalyzer
	started, cancelled atomic.Int32
}

func (g *gateAnalyzer) Analyze(ctx context.Context, f *schema.File, env Env) *Analysis {
	if !strings.Contains(string(f.Content()), "GO") {
		g.started.Add(1)
		<-ctx.Done()
		g.cancelled.Add(1)
	}
	return g.markerAnalyzer.Analyze(ctx, f, env)
}

// TestBurstPublishesOnlyTheLastVersion: edits 2..9 start analyses that
// the next edit cancels; only version 10 is published.
func TestBurstPublishesOnlyTheLastVersion(t *testing.T) {
	g := &gateAnalyzer{}
	h := newHarness(t, withAnalyzer(g))
	h.initialize(`{"capabilities":{}}`)
	h.open("b.yaml", "GO\n")
	h.WaitDiagnostics("b.yaml", 1)
	before := len(h.publishes("b.yaml"))
	for v := int32(2); v < 10; v++ {
		h.changeFull("b.yaml", v, strings.Repeat("ERR\n", int(v)))
	}
	h.changeFull("b.yaml", 10, "GO ERR ERR\n")
	if got := h.WaitDiagnostics("b.yaml", 10); len(got) != 2 {
		t.Fatalf("version 10: %d diagnostics, want 2", len(got))
	}
	pubs := h.publishes("b.yaml")[before:]
	if len(pubs) != 1 {
		t.Fatalf("%d publishes after the burst, want 1: %+v", len(pubs), pubs)
	}
	if v, _ := pubs[0].Version.Get(); v != 10 {
		t.Errorf("published version %d, want 10", v)
	}
	h.shutdown()
	if s, c := g.started.Load(), g.cancelled.Load(); c != s {
		t.Errorf("%d stale analyses started, %d cancelled", s, c)
	}
}

// TestDebounceSettingDelays: debounceMs > 0 arms a timer of that length
// and the full phase waits for it.
func TestDebounceSettingDelays(t *testing.T) {
	clock := newFakeClock()
	h := newHarness(t, withAnalyzer(markerAnalyzer{}), withFakeClock(clock))
	h.initialize(`{"capabilities":{},"initializationOptions":{"debounceMs":200}}`)
	h.open("c.yaml", "ERR\n")
	for v := int32(1); v <= 2; v++ {
		if v == 2 {
			h.changeFull("c.yaml", 2, "ERR ERR\n")
		}
		if d := clock.waitArmed(t); d != 200*time.Millisecond {
			t.Fatalf("version %d: timer of %v, want 200ms", v, d)
		}
		// The full phase runs only from the timer, which has not fired.
		for _, p := range h.publishes("c.yaml") {
			if pv, _ := p.Version.Get(); pv == v {
				t.Fatalf("version %d published before the debounce fired", v)
			}
		}
		clock.fire()
		if got := h.WaitDiagnostics("c.yaml", v); len(got) != int(v) {
			t.Fatalf("version %d: %d diagnostics, want %d", v, len(got), v)
		}
	}
	h.shutdown()
}

// countingAnalyzer counts full phases.
type countingAnalyzer struct {
	markerAnalyzer
	n atomic.Int32
}

func (c *countingAnalyzer) Analyze(ctx context.Context, f *schema.File, env Env) *Analysis {
	c.n.Add(1)
	return c.markerAnalyzer.Analyze(ctx, f, env)
}

// TestPullAnswersFromTheEditsAnalysis: a pulling client's edit starts the
// analysis and the pull reads that same one (one Analyze per version).
func TestPullAnswersFromTheEditsAnalysis(t *testing.T) {
	c := &countingAnalyzer{}
	h := newHarness(t, withAnalyzer(c))
	h.initialize(`{"capabilities":{"textDocument":{"diagnostic":{}}}}`)
	h.open("d.yaml", "ERR ERR\n")
	for i := 0; i < 2; i++ {
		var rep protocol.DocumentDiagnosticReport
		err := h.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: docURI("d.yaml")}}, &rep)
		if full, ok := rep.(*protocol.RelatedFullDocumentDiagnosticReport); err != nil || !ok || len(full.Items) != 2 {
			t.Fatalf("pull %d: %v %#v", i, err, rep)
		}
	}
	if n := c.n.Load(); n != 1 {
		t.Errorf("Analyze ran %d times for one version, want 1", n)
	}
	h.shutdown()
}
