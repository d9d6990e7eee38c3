package ide

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestLanguageEverywhere: every feature at every offset of each official
// blueprint-language example (and a generated one), the text whole and
// cut at the offset as if being typed: no panic, every range inside the
// text, completion replacing a range around the cursor on its line (up
// to the cursor when the text ends there).
func TestLanguageEverywhere(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bp/*.bp")
	docs := map[string][]byte{"generated.bp": gen.Blueprint(4, "bp")}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[filepath.Base(p)] = b
	}
	if len(docs) != 55 {
		t.Fatalf("%d documents", len(docs))
	}
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			res := analyze(t, name, string(src))
			n := len(src)
			inside := func(what string, r source.Range) {
				if r.Start < 0 || r.Start > r.End || r.End > n {
					t.Fatalf("%s range %v outside the text (%d bytes)", what, r, n)
				}
			}
			SemanticTokens(res, nil)
			DocumentSymbols(res)
			CodeLenses(res)
			DocumentLinks(res)
			InlayHints(res, source.R(0, n), LiteralEvaluator(res))
			for off := 0; off <= n; off++ {
				for _, it := range Completion(res, src, off, Options{}) {
					inside("completion", it.ReplaceRange)
					if r := it.ReplaceRange; r.Start > off || r.End < off || bytes.ContainsAny(src[off:r.End], "\r\n") {
						t.Fatalf("completion %q at %d replaces %v", it.Label, off, it.ReplaceRange)
					}
				}
				for _, it := range Completion(res, src[:off], off, Options{}) {
					if it.ReplaceRange.End != off {
						t.Fatalf("completion %q at the end of %q replaces %v", it.Label, src[:off], it.ReplaceRange)
					}
				}
				if h := Hover(res, off, Options{}); h != nil {
					inside("hover", h.Range)
				}
				for _, l := range Definition(res, off) {
					inside("definition", l.Range)
				}
				SignatureHelp(res, source.NewText(src), off, Options{})
				SignatureHelp(res, source.NewText(src[:off]), off, Options{})
				References(res, off, true, nil)
				if r, _, ok := PrepareRename(res, off); ok {
					inside("rename", r)
				}
				CodeActions(res, source.R(off, off), res.Diagnostics, Options{CreateFiles: true})
			}
		})
	}
}
