package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestInlayEvaluationScope checks that a snapshot builds one evaluation
// for all its hint requests, that a range request evaluates only the
// sites in its range, and that a document without a folder reads no files.
func TestInlayEvaluationScope(t *testing.T) {
	h := newHarness(t)
	h.initialize(fastInit)
	u := "untitled:Untitled-1"
	h.open(u, "version: 2023-04-20\nvalues:\n  a:\n    type: string\n    value: ${to_upper(\"x\")}\n  b:\n    type: string\n    value: ${utf8(file(\"/etc/hostname\"))}\n  c:\n    type: string\n    value: ${values.a}-c\n")
	h.WaitDiagnostics(u, 1)
	hints := func(r protocol.Range) []protocol.InlayHint {
		var out []protocol.InlayHint
		if err := h.call(protocol.MethodTextDocumentInlayHint, map[string]any{"textDocument": map[string]any{"uri": u}, "range": r}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := hints(rng(10, 0, 11, 0)); len(got) != 1 || got[0].Label != protocol.String(" = X-c") {
		t.Fatalf("hints on line 10 = %+v, want one \" = X-c\"", got)
	}
	snap := h.srv.session.current().snapshot(u)
	ev := snap.eval
	if ev == nil || len(ev.hints) != 1 {
		t.Fatalf("after a one-line request the evaluation holds %v, want one site", ev)
	}
	got := hints(rng(0, 0, 11, 0))
	if snap.eval != ev || len(ev.hints) != 3 {
		t.Errorf("the second request did not share the evaluation (%d sites)", len(ev.hints))
	}
	if len(got) != 2 || got[0].Label != protocol.String(" = X") || got[1].Label != protocol.String(" = X-c") {
		t.Errorf("hints = %+v, want X and X-c (no file read without a folder)", got)
	}
	h.shutdown()
}
