package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestCorpusCrashFree opens every file under the repository's testdata with
// the production analyzer, asks for folding ranges and symbols, and for a
// few files retypes the start of the text character by character.
func TestCorpusCrashFree(t *testing.T) {
	var files []string
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".jsonc")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true}}},"initializationOptions":{"debounceMs":0}}`)
	for i, path := range files {
		content, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(path[len("../"):])
		h.open(name, string(content))
		h.WaitDiagnostics(name, 1)
		id := protocol.TextDocumentIdentifier{URI: docURI(name)}
		var folds []protocol.FoldingRange
		if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocument: id}, &folds); err != nil {
			t.Errorf("%s: foldingRange: %v", name, err)
		}
		var syms protocol.DocumentSymbolResult
		if err := h.call(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: id}, &syms); err != nil {
			t.Errorf("%s: documentSymbol: %v", name, err)
		}
		if i < 3 {
			retype(t, h, name, string(content), 400)
		}
	}
	h.shutdown()
}

// retype empties the document and types its first n bytes back one
// character at a time, then checks the server's text.
func retype(t *testing.T, h *harness, name, content string, n int) {
	t.Helper()
	h.changeFull(name, 2, "")
	text := ""
	v := int32(3)
	for _, r := range content {
		if len(text) >= n {
			break
		}
		m := newTestMapper(text)
		p := m.pos(len(text))
		h.changeRange(name, v, protocol.Range{Start: p, End: p}, string(r))
		text += string(r)
		v++
		if v%50 == 0 {
			id := protocol.TextDocumentIdentifier{URI: docURI(name)}
			var folds []protocol.FoldingRange
			if err := h.call(protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocument: id}, &folds); err != nil && errCode(err) != protocol.CodeContentModified {
				t.Errorf("%s v%d: foldingRange: %v", name, v, err)
			}
		}
	}
	h.WaitDiagnostics(name, v-1)
	if got := string(h.srv.session.current().snapshot(string(docURI(name))).Content); got != text {
		t.Fatalf("%s: server text diverged after retyping", name)
	}
}
