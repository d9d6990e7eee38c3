package lsp

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// BenchmarkRetainedHeap is issue 36's memory per document: the live heap
// (after a forced collection) with a generated 5,000-resource blueprint
// opened and analysed (opened-MB), then edited ten times (open-MB; the
// harness's own copies of the text included), and after it is closed
// (closed-MB); tokens-MB is what two semantic token requests add, the
// arrays kept for deltas. With
// RETAINED_HEAP_PROFILE set, a heap profile is written there while the
// document is open (tokens included), to the same name with .opened
// before the edits, with .edited before the token requests and with .closed after it is closed (go tool
// pprof -sample_index=inuse_space).
//
//	go test ./lsp -run '^$' -bench RetainedHeap -benchtime 1x -count 3
func BenchmarkRetainedHeap(b *testing.B) {
	live := func() float64 {
		// Cleanups (ide's index of a Result) run after the collection
		// that finds their object unreachable; the next one frees what
		// they let go.
		for range 3 {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	for range b.N {
		before := live()
		h, name, content := benchDoc(b, 5000, "yaml")
		opened := live()
		writeHeapProfile(b, ".opened")
		p := middle(b, content, "visibilityTimeout: 45", len("visibilityTimeout: 45"))
		for v := int32(2); v < 12; v++ {
			if v%2 == 0 {
				h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character), "x")
			} else {
				h.changeRange(name, v, rng(p.Line, p.Character, p.Line, p.Character+1), "")
			}
			h.WaitDiagnostics(name, v)
		}
		open := live()
		writeHeapProfile(b, ".edited")
		// An editor colours the document: the server keeps the last
		// two token arrays for deltas (semantic_delta.go).
		td := map[string]any{"textDocument": map[string]any{"uri": string(docURI(name))}}
		for range 2 {
			if err := h.call(protocol.MethodTextDocumentSemanticTokensFull, td, nil); err != nil {
				b.Fatal(err)
			}
		}
		tokens := live()
		writeHeapProfile(b, "")
		h.close(name)
		h.waitFor("the document closed", func() bool { return len(h.srv.session.current().snaps) == 0 })
		closed := live()
		writeHeapProfile(b, ".closed")
		h.shutdown()
		h.forget()
		b.ReportMetric(opened-before, "opened-MB")
		b.ReportMetric(open-before, "open-MB")
		b.ReportMetric(tokens-open, "tokens-MB")
		b.ReportMetric(closed-before, "closed-MB")
		b.ReportMetric(float64(len(content))/(1<<20), "text-MB")
	}
}

// writeHeapProfile writes a heap profile to $RETAINED_HEAP_PROFILE with
// suffix, when that is set.
func writeHeapProfile(b *testing.B, suffix string) {
	path := os.Getenv("RETAINED_HEAP_PROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path + suffix)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		b.Fatal(err)
	}
}
