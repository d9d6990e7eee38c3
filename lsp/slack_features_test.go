package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestSlackInvisibleToClient edits one blueprint incrementally (random
// didChanges as TestSlackBookkeeping makes them, diagnostics awaited
// between them so that the server knows the parse of the text it edits
// and pads it) and, every few versions, opens the client's text as a
// fresh document and asks both every feature that takes a position or a
// range, at every padded key line's end, line ends, positions past them
// and random ones: the answers must be the same but for the URI. A
// second server with padding off gets the same edits; its diagnostics
// must be the padded server's at every version.
func TestSlackInvisibleToClient(t *testing.T) {
	starts := slackStarts(t)
	for i, start := range append(starts[:4:4], starts[5], starts[6]) { // YAML, JSON, JSONC
		t.Run(start.uri[len("file:///ws/"):], func(t *testing.T) {
			slackInvisible(t, start.client, int64(5+i), path.Ext(start.uri))
		})
	}
}

// slackInvisible is TestSlackInvisibleToClient on one text (UTF-16
// positions, as the harness negotiates), named with extension ext.
func slackInvisible(t *testing.T, text []byte, seed int64, ext string) {
	steps, every := 28, 3
	if testing.Short() {
		steps = 12
	}
	h := newHarness(t)
	plain := newHarness(t, func(s *server) { s.session.noSlack = true })
	for _, x := range []*harness{h, plain} {
		x.initialize(`{"capabilities":{"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true}}},"initializationOptions":{"debounceMs":0}}`)
	}
	name := "padded.blueprint" + ext
	d := newSlackDoc(string(docURI(name)), string(text), source.UTF16)
	for _, x := range []*harness{h, plain} {
		x.open(name, string(d.client))
		x.WaitDiagnostics(name, 1)
	}
	rng := rand.New(rand.NewSource(seed))
	padded, compared := 0, 0
	for step, v := 0, int32(2); step < steps; step, v = step+1, v+1 {
		changes, next, _ := d.choose(rng)
		d.client = next
		if !unusual(d.uri, next) {
			d.clean = next
		}
		var got, want []protocol.Diagnostic
		for _, x := range []*harness{h, plain} {
			x.notify(protocol.MethodTextDocumentDidChange, &protocol.DidChangeTextDocumentParams{
				TextDocument: protocol.VersionedTextDocumentIdentifier{
					TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: docURI(name)}, Version: v},
				ContentChanges: changes,
			})
		}
		got, want = h.WaitDiagnostics(name, v), plain.WaitDiagnostics(name, v)
		if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
			snap := h.srv.session.current().snapshot(d.uri)
			t.Fatalf("step %d: diagnostics with padding\n%s\nwithout\n%s\nchanges %s\nserver %q\nslack %v", step, g, w, jsonOf(t, changes), snap.Content(), source.SlackOf(snap.File().Mapper.Slack()))
		}
		snap := h.srv.session.current().snapshot(d.uri)
		if c, _ := parsedClient(snap); string(c) != string(d.client) {
			t.Fatalf("step %d: the server's text without padding is not the client's", step)
		}
		if len(source.SlackOf(snap.File().Mapper.Slack())) > 0 {
			padded++
		}
		if step%every != every-1 || parseBroken(d.uri, d.client) {
			continue
		}
		compared++
		fresh := fmt.Sprintf("fresh%d.blueprint%s", step, ext)
		h.open(fresh, string(d.client))
		h.WaitDiagnostics(fresh, 1)
		compareFeatures(t, h, name, fresh, d.client, snap, rng)
		h.close(fresh)
	}
	endRoundTrip(t, h, plain, steps, padded, compared)
}

// compareFeatures asks the padded document name and the fresh one
// (the same client text) every feature and fails on the first answer
// that differs but for the URI.
func compareFeatures(t *testing.T, h *harness, name, fresh string, text []byte, snap *Snapshot, rng *rand.Rand) {
	t.Helper()
	cm := source.NewMapper(text)
	doc := func(n string) map[string]any { return map[string]any{"uri": docURI(n)} }
	ask := func(method string, params func(n string) map[string]any) {
		t.Helper()
		g, gerr := rawCall(h, method, params(name))
		w, werr := rawCall(h, method, params(fresh))
		w = strings.ReplaceAll(w, fresh, name)
		if g != w || gerr != werr {
			t.Fatalf("%s %s:\npadded %s %s\nfresh  %s %s\ntext %q", method, jsonOf(t, params(name)), g, gerr, w, werr, text)
		}
	}

	// Positions: each padded key line's end and past it, the lines
	// around it, some line ends (and past), random ones.
	var ps []protocol.Position
	for _, s := range source.SlackOf(snap.File().Mapper.Slack()) {
		p := toPosition(snap.Mapper(), s.At, source.UTF16)
		ps = append(ps, p, protocol.Position{Line: p.Line, Character: p.Character + 7},
			protocol.Position{Line: p.Line, Character: max(p.Character, 1) - 1})
		for _, l := range []uint32{p.Line - 1, p.Line + 1} {
			e := toPosition(cm, lineEnd(cm, int(l)), source.UTF16)
			ps = append(ps, e, protocol.Position{Line: e.Line, Character: e.Character + 3})
		}
	}
	for range 10 {
		e := toPosition(cm, lineEnd(cm, rng.Intn(cm.LineCount())), source.UTF16)
		ps = append(ps, e, protocol.Position{Line: e.Line, Character: e.Character + 1 + uint32(rng.Intn(40))})
	}
	for range 16 {
		ps = append(ps, toPosition(cm, rng.Intn(len(text)+1), source.UTF16))
	}
	for _, p := range ps {
		at := func(n string) map[string]any { return map[string]any{"textDocument": doc(n), "position": p} }
		for _, m := range []string{protocol.MethodTextDocumentHover, protocol.MethodTextDocumentCompletion,
			protocol.MethodTextDocumentSignatureHelp, protocol.MethodTextDocumentDefinition,
			protocol.MethodTextDocumentDocumentHighlight, protocol.MethodTextDocumentPrepareRename} {
			ask(m, at)
		}
		ask(protocol.MethodTextDocumentReferences, func(n string) map[string]any {
			return map[string]any{"textDocument": doc(n), "position": p, "context": map[string]any{"includeDeclaration": true}}
		})
		ask(protocol.MethodTextDocumentRename, func(n string) map[string]any {
			return map[string]any{"textDocument": doc(n), "position": p, "newName": "renamedThing"}
		})
	}
	// Every line's end and a place past it: hover and selection ranges
	// (the others, slower, at the places above).
	var ends []protocol.Position
	for l := range cm.LineCount() {
		e := toPosition(cm, lineEnd(cm, l), source.UTF16)
		ends = append(ends, e, protocol.Position{Line: e.Line, Character: e.Character + 5})
	}
	for _, p := range ends {
		at := func(n string) map[string]any { return map[string]any{"textDocument": doc(n), "position": p} }
		ask(protocol.MethodTextDocumentHover, at)
	}
	ask(protocol.MethodTextDocumentSelectionRange, func(n string) map[string]any {
		return map[string]any{"textDocument": doc(n), "positions": append(ends, ps...)}
	})

	whole := protocol.Range{End: protocol.Position{Line: uint32(cm.LineCount())}}
	for _, m := range []string{protocol.MethodTextDocumentFoldingRange, protocol.MethodTextDocumentDocumentLink,
		protocol.MethodTextDocumentCodeLens, protocol.MethodTextDocumentDocumentSymbol} {
		ask(m, func(n string) map[string]any { return map[string]any{"textDocument": doc(n)} })
	}
	ask(protocol.MethodTextDocumentInlayHint, func(n string) map[string]any {
		return map[string]any{"textDocument": doc(n), "range": whole}
	})
	// Pull diagnostics (without the resultId each document numbers),
	// and each document's own workspace symbols.
	var gd, wd json.RawMessage
	if err := h.call(protocol.MethodTextDocumentDiagnostic, map[string]any{"textDocument": doc(name)}, &gd); err != nil {
		t.Fatal(err)
	}
	if err := h.call(protocol.MethodTextDocumentDiagnostic, map[string]any{"textDocument": doc(fresh)}, &wd); err != nil {
		t.Fatal(err)
	}
	if g, w := string(withoutResultID(t, gd)), strings.ReplaceAll(string(withoutResultID(t, wd)), fresh, name); g != w {
		t.Fatalf("textDocument/diagnostic:\npadded %.800s\nfresh  %.800s", g, w)
	}
	var syms []map[string]any
	if err := h.call(protocol.MethodWorkspaceSymbol, map[string]any{"query": ""}, &syms); err != nil {
		t.Fatal(err)
	}
	var gs, ws []string
	for _, sym := range syms {
		js := jsonOf(t, sym)
		switch {
		case strings.Contains(js, string(docURI(name))):
			gs = append(gs, js)
		case strings.Contains(js, string(docURI(fresh))):
			ws = append(ws, strings.ReplaceAll(js, fresh, name))
		}
	}
	slices.Sort(gs)
	slices.Sort(ws)
	if !slices.Equal(gs, ws) {
		t.Fatalf("workspace/symbol:\npadded %.800s\nfresh  %.800s", strings.Join(gs, "\n"), strings.Join(ws, "\n"))
	}
	// The commands: the plan preview and the reference lens's list.
	ask(protocol.MethodWorkspaceExecuteCommand, func(n string) map[string]any {
		return map[string]any{"command": commandPlan, "arguments": []any{map[string]any{"uri": docURI(n)}}}
	})
	for _, p := range ps[:min(len(ps), 6)] {
		ask(protocol.MethodWorkspaceExecuteCommand, func(n string) map[string]any {
			return map[string]any{"command": commandShowReferences, "arguments": []any{docURI(n), p}}
		})
	}
	// Completion items resolved, at the first places above.
	for _, p := range ps[:min(len(ps), 6)] {
		var gl, wl protocol.CompletionList
		if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": doc(name), "position": p}, &gl); err != nil {
			t.Fatal(err)
		}
		if err := h.call(protocol.MethodTextDocumentCompletion, map[string]any{"textDocument": doc(fresh), "position": p}, &wl); err != nil {
			t.Fatal(err)
		}
		for i := range min(len(gl.Items), len(wl.Items), 3) {
			g, gerr := rawCall(h, protocol.MethodCompletionItemResolve, gl.Items[i])
			w, werr := rawCall(h, protocol.MethodCompletionItemResolve, wl.Items[i])
			if w = strings.ReplaceAll(w, fresh, name); g != w || gerr != werr {
				t.Fatalf("completionItem/resolve of %s at %v:\npadded %s %s\nfresh  %s %s", gl.Items[i].Label, p, g, gerr, w, werr)
			}
		}
	}
	var diags []protocol.Diagnostic
	for _, pub := range h.publishes(name) {
		diags = pub.Diagnostics // the last
	}
	ranges := []protocol.Range{whole}
	for _, dg := range diags {
		ranges = append(ranges, dg.Range)
	}
	for _, r := range ranges {
		ask(protocol.MethodTextDocumentCodeAction, func(n string) map[string]any {
			var ds []protocol.Diagnostic
			for _, dg := range diags {
				if dg.Range == r {
					ds = append(ds, dg)
				}
			}
			if ds == nil {
				ds = []protocol.Diagnostic{}
			}
			return map[string]any{"textDocument": doc(n), "range": r, "context": map[string]any{"diagnostics": ds}}
		})
	}

	// Semantic tokens (without the resultId each document numbers).
	for _, r := range append([]*protocol.Range{nil}, rangesAround(snap, cm)...) {
		var g, w json.RawMessage
		method, params := protocol.MethodTextDocumentSemanticTokensFull, func(n string) map[string]any { return map[string]any{"textDocument": doc(n)} }
		if r != nil {
			method = protocol.MethodTextDocumentSemanticTokensRange
			params = func(n string) map[string]any { return map[string]any{"textDocument": doc(n), "range": *r} }
		}
		if err := h.call(method, params(name), &g); err != nil {
			t.Fatal(err)
		}
		if err := h.call(method, params(fresh), &w); err != nil {
			t.Fatal(err)
		}
		if string(withoutResultID(t, g)) != string(withoutResultID(t, w)) {
			t.Fatalf("%s %v:\npadded %.800s\nfresh  %.800s", method, r, g, w)
		}
	}

	// Formatting: the same edits, none past a line's real end.
	opts := map[string]any{"tabSize": 2, "insertSpaces": true}
	format := []struct {
		method string
		params func(n string) map[string]any
	}{{protocol.MethodTextDocumentFormatting, func(n string) map[string]any {
		return map[string]any{"textDocument": doc(n), "options": opts}
	}}}
	for _, r := range rangesAround(snap, cm) {
		format = append(format, struct {
			method string
			params func(n string) map[string]any
		}{protocol.MethodTextDocumentRangeFormatting, func(n string) map[string]any {
			return map[string]any{"textDocument": doc(n), "range": *r, "options": opts}
		}})
	}
	for _, f := range format {
		ask(f.method, f.params)
		var edits []protocol.TextEdit
		if err := h.call(f.method, f.params(name), &edits); err != nil {
			t.Fatal(err)
		}
		for _, e := range edits {
			for _, p := range []protocol.Position{e.Range.Start, e.Range.End} {
				if end := toPosition(cm, lineEnd(cm, int(p.Line)), source.UTF16); int(p.Line) < cm.LineCount() && p.Character > end.Character {
					t.Fatalf("%s: edit %v reaches past the end of line %d (%d)", f.method, e.Range, p.Line, end.Character)
				}
			}
		}
	}
}

// rawCall returns a request's result as JSON, or its error's message.
func rawCall(h *harness, method string, params any) (string, string) {
	var raw json.RawMessage
	if err := h.call(method, params, &raw); err != nil {
		return "", err.Error()
	}
	return string(raw), ""
}

// lineEnd returns the offset where line's content ends in m's text.
func lineEnd(m *source.Mapper, line int) int {
	if line+1 >= m.LineCount() {
		return len(m.Content())
	}
	end := m.LineStart(line + 1)
	for end > m.LineStart(line) && (m.Content()[end-1] == '\n' || m.Content()[end-1] == '\r') {
		end--
	}
	return end
}

// rangesAround returns, for each padded key line, the range from the
// line before it to the line after it, ending past the line's end.
func rangesAround(snap *Snapshot, cm *source.Mapper) []*protocol.Range {
	var out []*protocol.Range
	for _, s := range source.SlackOf(snap.File().Mapper.Slack()) {
		p := toPosition(snap.Mapper(), s.At, source.UTF16)
		r := protocol.Range{Start: protocol.Position{Line: max(p.Line, 1) - 1},
			End: protocol.Position{Line: min(p.Line+1, uint32(cm.LineCount()-1)), Character: 200}}
		out = append(out, &r)
	}
	return slices.Clip(out)
}

// TestSlackKeyLineEdits pads two definitions, then makes one edit
// that changes what a padded key line means or holds (a section turned
// into a block scalar whose content the key lines become, a comment, an
// anchor, a tag, a block scalar or a flow mapping opened on the key
// line, a key renamed) and compares every feature with a fresh open of
// the client's text. "resources: |" once left the padding in the
// scalar: the diagnostic quoted "a:" and 64 spaces.
func TestSlackKeyLineEdits(t *testing.T) {
	const start = "version: 2023-04-20\nresources:\n  a:\n    type: aws/s3/bucket\n    spec:\n      bucketName: x\n  b:\n    type: aws/sqs/queue\n    spec:\n      queueName: q\n"
	tests := []struct {
		name   string
		after  string // the edit types at the end of the line holding it
		ins    string
		padded int // runs of padding after it
	}{
		{"section made a block scalar", "resources:", " |", 0},
		{"section made a folded scalar", "resources:", " >-", 0},
		// A key line no longer open loses its padding; a text whose
		// parse has a diagnostic (an anchor, a tag, a syntax error) has
		// none.
		{"comment after a key", "  b:", " # the queue", 1},
		{"anchor on a key", "  b:", " &queue", 0},
		{"tag on a key", "  b:", " !!map", 0},
		{"block scalar on a key line", "  b:", " |", 1},
		{"flow mapping opened", "  b:", " {", 0},
		{"quote opened", "  b:", ` "q`, 0},
		{"key renamed", "  b", "x", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
			const name = "keyline.blueprint.yaml"
			text := start
			h.open(name, text)
			h.WaitDiagnostics(name, 1)
			v := int32(1)
			edit := func(at int, ins string) {
				m := newTestMapper(text)
				v++
				h.changeRange(name, v, rng2(m.pos(at), m.pos(at)), ins)
				text = text[:at] + ins + text[at:]
				h.WaitDiagnostics(name, v)
			}
			for _, w := range []string{": x", ": q"} {
				edit(strings.Index(text, w)+3, "y")
			}
			if snap := h.srv.session.current().snapshot(string(docURI(name))); len(source.SlackOf(snap.File().Mapper.Slack())) != 2 {
				t.Fatalf("padding %v, want a's and b's", source.SlackOf(snap.File().Mapper.Slack()))
			}
			edit(strings.Index(text, tt.after)+len(tt.after), tt.ins)
			got := h.publishes(name)
			h.open("fresh.blueprint.yaml", text)
			want := h.WaitDiagnostics("fresh.blueprint.yaml", 1)
			if g, w := jsonOf(t, got[len(got)-1].Diagnostics), strings.ReplaceAll(jsonOf(t, want), "fresh.blueprint.yaml", name); g != w {
				t.Fatalf("diagnostics\n%s\nwant\n%s", g, w)
			}
			snap := h.srv.session.current().snapshot(string(docURI(name)))
			if len(source.SlackOf(snap.File().Mapper.Slack())) != tt.padded {
				t.Errorf("padding %v, want %d runs", source.SlackOf(snap.File().Mapper.Slack()), tt.padded)
			}
			compareFeatures(t, h, name, "fresh.blueprint.yaml", []byte(text), snap, rand.New(rand.NewSource(1)))
			h.shutdown()
		})
	}
}

// endRoundTrip ends a padded round trip: it says how many of its steps
// were padded and compared in full, fails when padding was in effect in
// fewer than a third of them (a version that does not parse is not
// padded) or nothing was compared, and shuts down the
// padding server h and the plain one.
func endRoundTrip(t *testing.T, h, plain *harness, steps, padded, compared int) {
	t.Helper()
	t.Logf("%d versions, %d padded, %d compared in full", steps, padded, compared)
	if padded*3 < steps || compared == 0 {
		t.Errorf("only %d of %d versions were padded, %d compared", padded, steps, compared)
	}
	h.shutdown()
	plain.shutdown()
}
