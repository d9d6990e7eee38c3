package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
)

// incrementalEdits are what TestEditsMatchFreshOpen types: text that keeps
// the YAML well-formed (most of the time) and changes what the analysis
// sees, so that spliced versions carry new diagnostics and tokens.
var incrementalEdits = []string{"x", "9", " ", "${values.prefix}", "${variables.env}", "\n      extra: 1",
	"${resources.r1.spec.", "}", "${len(", "'", "#"}

// TestEditsMatchFreshOpen types random edits inside the resources of a
// generated blueprint, each as an incremental didChange, and after every
// edit checks that the diagnostics, document symbols and semantic tokens
// the server gives are those of the same text opened fresh, and that the
// syntax phase spliced the edited resource into the previous version's
// tree for most of the edits.
func TestEditsMatchFreshOpen(t *testing.T) {
	// The same 40 edits in -short: fewer would not be a fair sample of
	// how many splice (12 spliced 4, failing the ratio below).
	const steps = 40
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	const name = "edited.blueprint.yaml"
	content := string(gen.Blueprint(12, "yaml"))
	h.open(name, content)
	h.WaitDiagnostics(name, 1)
	rng := rand.New(rand.NewSource(7))
	first := strings.Index(content, "\n  r0:\n")
	spliced, compared := 0, 0
	v := int32(1)
	prevRoot := h.srv.session.current().snapshot(string(docURI(name))).File().Root
	for step := 0; step < steps; step++ {
		at, del, ins := randomEditBetween(rng, first+1, strings.Index(content, "\nexports:"), incrementalEdits)
		m := newTestMapper(content)
		from, to := m.pos(at), m.pos(at+del)
		v++
		h.changeRange(name, v, rng2(from, to), ins)
		before := content
		content = content[:at] + ins + content[at+del:]
		got := h.WaitDiagnostics(name, v)

		root := h.srv.session.current().snapshot(string(docURI(name))).File().Root
		if shares(prevRoot, root) {
			spliced++
		}
		prevRoot = root

		broken := sameAsFresh(t, h, name, fmt.Sprintf("fresh%d.blueprint.yaml", step), content, got)
		if !broken {
			compared++
			continue
		}
		// Undo a breaking edit, so that the next one starts from clean text.
		v++
		content = h.undo(name, v, content, before, at, del, ins)
		prevRoot = h.srv.session.current().snapshot(string(docURI(name))).File().Root
	}
	t.Logf("%d edits, %d spliced, %d compared in full", steps, spliced, compared)
	if spliced*2 < steps || compared*2 < steps {
		t.Errorf("only %d of %d edits were spliced and %d compared in full", spliced, steps, compared)
	}
	h.shutdown()
}

// shares reports whether two versions' trees share their first
// top-level entry: a splice keeps the nodes before the edit.
func shares(a, b schema.Node) bool {
	ma, ok1 := a.(*schema.Mapping)
	mb, ok2 := b.(*schema.Mapping)
	return ok1 && ok2 && len(ma.Entries) > 0 && len(mb.Entries) > 0 && ma.Entries[0] == mb.Entries[0]
}

func rng2(from, to protocol.Position) protocol.Range { return protocol.Range{Start: from, End: to} }

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// withoutResultID drops the resultId of a semantic tokens answer (each
// document numbers its own).
func withoutResultID(t *testing.T, raw json.RawMessage) json.RawMessage {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "resultId")
	return json.RawMessage(jsonOf(t, m))
}

// sameAsFresh opens text as a new document named fresh and fails unless
// the diagnostics, document symbols and semantic tokens of name (whose
// diagnostics are got) are the fresh document's. It reports whether the
// text has syntax errors: then only diagnostics are compared, as the
// edited document's features answer from its last good version, which a
// fresh document has not got.
func sameAsFresh(t *testing.T, h *harness, name, fresh, text string, got []protocol.Diagnostic) bool {
	t.Helper()
	diff, broken := differsFromFresh(t, h, h, name, fresh, text, got)
	if diff != "" {
		t.Fatalf("%s: after the edit, %s", fresh, diff)
	}
	return broken
}

// randomEditBetween picks an edit of the bytes [from, to): where it
// starts, how many bytes it deletes (1 to 3, a third of the time) and
// which of pieces it types.
func randomEditBetween(rng *rand.Rand, from, to int, pieces []string) (at, del int, ins string) {
	at = from + rng.Intn(to-from)
	if rng.Intn(3) == 0 {
		del = min(1+rng.Intn(3), to-at)
	}
	return at, del, pieces[rng.Intn(len(pieces))]
}

// undo sends, as version v of name, the change that takes content back
// to before, whose bytes [at, at+del) an edit replaced with ins; it
// waits for its diagnostics and returns before.
func (h *harness) undo(name string, v int32, content, before string, at, del int, ins string) string {
	h.t.Helper()
	m := newTestMapper(content)
	h.changeRange(name, v, rng2(m.pos(at), m.pos(at+len(ins))), before[at:at+del])
	h.WaitDiagnostics(name, v)
	return before
}
