package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// bpEditsTyped are what TestBPPaddedEditsMatchFreshOpen types into a .bp
// document: text that keeps it well-formed most of the time and changes
// what the analysis sees.
var bpEditsTyped = []string{"x", "9", " ", "${values.prefix}", "${variables.env}", "\n        extra = 1", ".5",
	"\"", "#", "}", "{", "\n"}

// serverText returns the server's copy of a document and its padding.
func serverText(h *harness, name string) (*Snapshot, []source.Slack) {
	snap := h.srv.session.current().snapshot(string(docURI(name)))
	return snap, snap.Mapper.Slack()
}

// sameAsFresh opens text as a new document and fails unless the
// diagnostics, document symbols and semantic tokens of name (whose
// diagnostics are got) are the fresh document's; it reports whether the
// text had syntax errors (then only diagnostics are compared: features
// answer from the last good version).
func sameAsFresh(t *testing.T, h *harness, name, fresh, text string, got []protocol.Diagnostic) bool {
	t.Helper()
	h.open(fresh, text)
	want := h.WaitDiagnostics(fresh, 1)
	defer h.close(fresh)
	same := func(w string) string { return strings.ReplaceAll(w, fresh, name) }
	if g, w := jsonOf(t, got), same(jsonOf(t, want)); g != w {
		t.Fatalf("diagnostics after the edit\n%s\nwant (fresh open)\n%s", g, w)
	}
	if h.srv.session.current().snapshot(string(docURI(fresh))).File().HasSyntaxErrors() {
		return true
	}
	for _, method := range []string{protocol.MethodTextDocumentDocumentSymbol, protocol.MethodTextDocumentSemanticTokensFull} {
		var g, w json.RawMessage
		if err := h.call(method, map[string]any{"textDocument": map[string]any{"uri": docURI(name)}}, &g); err != nil {
			t.Fatal(err)
		}
		if err := h.call(method, map[string]any{"textDocument": map[string]any{"uri": docURI(fresh)}}, &w); err != nil {
			t.Fatal(err)
		}
		if method == protocol.MethodTextDocumentSemanticTokensFull {
			g, w = withoutResultID(t, g), withoutResultID(t, w)
		}
		if string(g) != same(string(w)) {
			t.Fatalf("%s after the edit differs from a fresh open\n%.600s\n%.600s", method, g, w)
		}
	}
	return false
}

// TestBPPaddedEditsMatchFreshOpen types random edits into the resources
// of a .bp blueprint, each an incremental didChange, and checks after
// every edit that the server's text without its padding is the client's,
// and that diagnostics, document symbols and semantic tokens are those
// of the client's text opened fresh; most versions must be padded and
// most padded edits spliced without moving the text after them.
func TestBPPaddedEditsMatchFreshOpen(t *testing.T) {
	steps := 40
	if testing.Short() {
		steps = 12
	}
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	const name = "edited.bp"
	content := string(gen.Blueprint(12, "bp"))
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	rng := rand.New(rand.NewSource(11))
	first := strings.Index(content, "\nresource r0:")
	padded, moving, still, v := 0, 0, 0, int32(1)
	for step := 0; step < steps; step++ {
		end := strings.Index(content, "\nexport ")
		at := first + 1 + rng.Intn(end-first-1)
		del := 0
		if rng.Intn(3) == 0 {
			del = min(1+rng.Intn(3), end-at)
		}
		ins := bpEditsTyped[rng.Intn(len(bpEditsTyped))]
		m := newTestMapper(content)
		from, to := m.pos(at), m.pos(at+del)
		at, del = m.offset(from), m.offset(to)-m.offset(from)
		prev, _ := serverText(h, name)
		prevFile := prev.File()
		v++
		h.changeRange(name, v, rng2(from, to), ins)
		before := content
		content = content[:at] + ins + content[at+del:]
		got := h.WaitDiagnostics(name, v)

		snap, slack := serverText(h, name)
		if client, _ := unpadded(snap.Content, snap.Mapper); string(client) != content {
			t.Fatalf("step %d: the server's text without its padding is not the client's", step)
		}
		if len(slack) > 0 {
			padded++
		}
		broken := sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", step), content, got)
		if !broken && len(ins) != del {
			// An edit that changes the client's length, on clean text.
			moving++
			if sp, ok := snap.File().Spliced(prevFile); ok && sp.Delta == 0 {
				still++
			}
		}
		if !broken {
			continue
		}
		// Undo a breaking edit, so that the next one starts from clean text.
		v++
		m = newTestMapper(content)
		h.changeRange(name, v, rng2(m.pos(at), m.pos(at+len(ins))), before[at:at+del])
		content = before
		h.WaitDiagnostics(name, v)
	}
	t.Logf("%d edits: %d padded; of %d clean ones that change the length, %d kept the text after them", steps, padded, moving, still)
	if padded*2 < steps || still*2 < moving {
		t.Errorf("%d of %d versions were padded; %d of %d length changes kept the text after them", padded, steps, still, moving)
	}
	h.shutdown()
}

// TestBPTypingKeepsTextAfter types into one resource of a .bp document
// key by key and checks the padding the server keeps: the resource's
// first line is padded on the first edit, every edit after it leaves the
// text after the resource where it was (a splice with delta 0), and
// what the client sees is the client's text.
func TestBPTypingKeepsTextAfter(t *testing.T) {
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	const name = "typed.bp"
	content := string(gen.Blueprint(6, "bp"))
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	head := strings.Index(content, "resource r3: ")
	keyLine := head + strings.IndexByte(content[head:], '\n')
	at := head + strings.Index(content[head:], "visibilityTimeout = 45") + len("visibilityTimeout = 4")
	v := int32(1)
	// Type "45" into 45, delete it, type and delete a space at the
	// end of the first line (where the padding starts), and add a line.
	edits := []struct {
		at, del int
		text    string
	}{{at, 0, "4"}, {at + 1, 0, "5"}, {at + 1, 1, ""}, {at, 1, ""}, {keyLine, 0, " "}, {keyLine, 1, ""},
		{at + 1, 0, "\n        memorySize = 256"}}
	r4 := -1 // where r4 starts in the server's text
	for i, e := range edits {
		m := newTestMapper(content)
		prev, _ := serverText(h, name)
		prevFile := prev.File()
		v++
		h.changeRange(name, v, rng2(m.pos(e.at), m.pos(e.at+e.del)), e.text)
		content = content[:e.at] + e.text + content[e.at+e.del:]
		if e.at <= keyLine {
			keyLine += len(e.text) - e.del
		}
		got := h.WaitDiagnostics(name, v)
		snap, slack := serverText(h, name)
		// One run, ending r3's first line: nothing before it is padded.
		if len(slack) != 1 || slack[0].At != keyLine || slack[0].Len == 0 || snap.Content[slack[0].At+slack[0].Len] != '\n' {
			t.Fatalf("edit %d: padding %v, want one run at the end of r3's first line (%d)", i, slack, keyLine)
		}
		if client, _ := unpadded(snap.Content, snap.Mapper); string(client) != content {
			t.Fatalf("edit %d: the server's text without its padding is not the client's", i)
		}
		off := strings.Index(string(snap.Content), "resource r4: ")
		if i > 0 {
			// Typing where the padding starts may leave the text as it was.
			if sp, ok := snap.File().Spliced(prevFile); (!ok || sp.Delta != 0) && string(snap.Content) != string(prev.Content) {
				t.Errorf("edit %d: Spliced = %+v, %v; want the text after r3 kept", i, sp, ok)
			}
			if off != r4 {
				t.Errorf("edit %d: r4 starts at %d, want %d", i, off, r4)
			}
		}
		r4 = off
		sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.bp", i), content, got)
	}
	h.shutdown()
}
