package lsp

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
)

// TestKeystrokeSharesText: typing into a large blueprint allocates a
// small fraction of its text per keystroke, in every format: the
// versions share the text by pieces (source.Text) and nothing on the
// way from the edit to its diagnostics joins the pieces into a copy of
// the whole (issue 32). Before, every keystroke allocated the text.
func TestKeystrokeSharesText(t *testing.T) {
	for _, c := range []struct{ format, name, needle, typed string }{
		{"yaml", "big.blueprint.yaml", "visibilityTimeout: 45", "x"},
		{"json", "big.blueprint.json", `"visibilityTimeout": 45`, "1"},
		{"bp", "big.bp", "visibilityTimeout = 45", ".5"},
	} {
		t.Run(c.format, func(t *testing.T) {
			content := string(gen.Blueprint(3000, c.format))
			h := newHarness(t)
			h.initialize(benchInit)
			h.open(c.name, content)
			h.WaitDiagnostics(c.name, 1)
			p := middle(t, content, c.needle, len(c.needle))
			const keystrokes = 20
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for i := range keystrokes {
				v := int32(i + 2)
				if i%2 == 0 {
					h.changeRange(c.name, v, rng(p.Line, p.Character, p.Line, p.Character), c.typed)
				} else {
					h.changeRange(c.name, v, rng(p.Line, p.Character, p.Line, p.Character+uint32(len(c.typed))), "")
				}
				h.WaitDiagnostics(c.name, v)
			}
			runtime.ReadMemStats(&after)
			per := (after.TotalAlloc - before.TotalAlloc) / keystrokes
			t.Log(fmt.Sprintf("%d bytes allocated per keystroke in a %d-byte text", per, len(content)))
			if per > uint64(len(content))/5 {
				t.Errorf("%d bytes allocated per keystroke in a %d-byte text: the text is copied", per, len(content))
			}
			h.shutdown()
		})
	}
}
