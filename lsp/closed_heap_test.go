package lsp

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// closedHeapSlack is what the live heap may grow by across the open, the
// edits and the close of TestClosedDocumentLeavesNoHeap's document,
// whose own live heap is about 15 MB (its two packed token arrays alone
// are 1.1 MB): the runtime's own tables, never a part of the document.
const closedHeapSlack = 256 << 10

// TestClosedDocumentLeavesNoHeap holds the server to issue 36's "closing
// a document gives its memory back": a generated blueprint of 2,000
// resources (1.2 MB) is opened, edited, coloured twice (the server keeps
// token arrays for deltas), asked for symbols, folding and a completion,
// then closed, and the live heap after forced collections must be what
// it was before it was opened, within closedHeapSlack. A snapshot, an
// analysis, a rules memo, a token array or an include record kept for
// the closed document fails it. A small document is opened and closed
// first, so that what any first document loads once per process (the
// registry's catalogs, schema tables) is in the "before". The collector
// hold of a large open (gcpace.go) must be over by then too, and the
// lowered pacing while it is open (openPercent) given back.
func TestClosedDocumentLeavesNoHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a 1.2 MB blueprint")
	}
	h := newHarness(t, func(s *server) { s.opts.PaceCollector = true })
	h.initialize(benchInit)
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1) // a negative limit reads it

	cycle(t, h, "warm.blueprint.yaml", 20)
	before := liveHeap()
	cycle(t, h, "big.blueprint.yaml", 2000)
	after := liveHeap()
	t.Logf("live heap before the open %.2f MB, after the close %.2f MB", float64(before)/1e6, float64(after)/1e6)
	if grew := int64(after) - int64(before); grew > closedHeapSlack {
		t.Errorf("live heap %.2f MB after the close, %.2f MB before the open: %.2f MB kept for a closed document (at most %.2f)",
			float64(after)/1e6, float64(before)/1e6, float64(grew)/1e6, float64(closedHeapSlack)/1e6)
	}
	if p := debug.SetGCPercent(-1); p != percent {
		t.Errorf("GC percent %d after the close, %d before: the collector hold was not released", p, percent)
		debug.SetGCPercent(percent)
	} else {
		debug.SetGCPercent(p)
	}
	if l := debug.SetMemoryLimit(-1); l != limit {
		t.Errorf("memory limit %d after the close, %d before: the collector hold was not released", l, limit)
	}
}

// cycle opens a generated blueprint of n resources, edits it, runs the
// requests that leave something per document on the server, and closes
// it, waiting until the session holds no snapshot.
func cycle(t *testing.T, h *harness, name string, n int) {
	t.Helper()
	content := string(gen.Blueprint(n, "yaml"))
	large := len(content) >= coldOpenMin
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	p := middle(t, content, "visibilityTimeout: 45", len("visibilityTimeout: 45"))
	content = ""
	for v := int32(2); v <= 5; v++ {
		if v%2 == 0 {
			h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character), "x")
		} else {
			h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character+1), "")
		}
		h.WaitDiagnostics(name, v)
	}
	// Open and analysed, a large text paces the collector at openPercent.
	if p := debug.SetGCPercent(-1); large && p != openPercent {
		t.Errorf("GC percent %d with %s open, want %d", p, name, openPercent)
		debug.SetGCPercent(p)
	} else {
		debug.SetGCPercent(p)
	}
	td := map[string]any{"uri": string(docURI(name))}
	whole := map[string]any{"textDocument": td}
	for _, m := range []string{
		protocol.MethodTextDocumentSemanticTokensFull,
		protocol.MethodTextDocumentSemanticTokensFull,
		protocol.MethodTextDocumentDocumentSymbol,
		protocol.MethodTextDocumentFoldingRange,
	} {
		if err := h.call(m, whole, nil); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": td, "position": p}, nil); err != nil {
		t.Fatalf("completion: %v", err)
	}
	h.close(name)
	h.waitFor(fmt.Sprintf("%s closed", name), func() bool { return len(h.srv.session.current().snaps) == 0 })
	// The client's record of what it was sent is the harness's, not the
	// server's.
	h.mu.Lock()
	h.pubs = map[string][]protocol.PublishDiagnosticsParams{}
	h.logs, h.srvLogs = nil, nil
	h.mu.Unlock()
}

// liveHeap is the heap's live bytes after collections (cleanups, such as
// ide's index of a Result, run after the collection that finds their
// object unreachable; the next one frees what they let go).
func liveHeap() uint64 {
	// Background work of the last request (a publish after the close)
	// settles first.
	time.Sleep(50 * time.Millisecond)
	for range 4 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
