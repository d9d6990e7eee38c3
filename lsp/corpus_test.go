package lsp

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/txtar"
)

// corpusDoc is one document of the crash-free corpus.
type corpusDoc struct {
	uri  string
	text string
}

// corpus gathers the repository's testdata blueprints (as real files, so
// their includes load) and the blueprints inside the analysis and lsp
// scenario archives (under a URI of their own).
func corpus(t *testing.T) []corpusDoc {
	var docs []corpusDoc
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isBlueprintName(path) {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		content, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		docs = append(docs, corpusDoc{string(uri.File(abs)), string(content)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	archives, _ := filepath.Glob("../analysis/testdata/cases/*.txtar")
	more, _ := filepath.Glob("testdata/*.txtar")
	for _, a := range append(archives, more...) {
		ar, err := txtar.ParseFile(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !isBlueprintName(f.Name) {
				continue
			}
			docs = append(docs, corpusDoc{fmt.Sprintf("file:///corpus/%s/%s", filepath.Base(a), f.Name), string(f.Data)})
		}
	}
	if len(docs) < 20 {
		t.Fatalf("corpus too small: %d documents", len(docs))
	}
	return docs
}

// TestCorpusCrashFree opens every corpus document with the production
// analyzer and asks for every feature at many offsets. No request may
// fail except with the answers a client must expect (a rename that is
// refused, ContentModified); for the first few documents it also retypes
// the start of the text character by character.
func TestCorpusCrashFree(t *testing.T) {
	docs := corpus(t)
	h := newHarness(t)
	h.initialize(`{"capabilities":{"textDocument":{"documentSymbol":{"hierarchicalDocumentSymbolSupport":true},"completion":{"completionItem":{"snippetSupport":true}}}},"initializationOptions":{"debounceMs":0}}`)
	requests := 0
	for i, doc := range docs {
		h.open(doc.uri, doc.text)
		h.WaitDiagnostics(doc.uri, 1)
		requests += requestEverything(t, h, doc, 1)
		if i < 3 {
			retype(t, h, doc.uri, doc.text, 400)
		}
		h.close(doc.uri)
	}
	t.Logf("%d documents, %d requests", len(docs), requests)
	h.shutdown()
}

// allowed reports whether err is an answer a client must expect.
func allowed(method string, err error) bool {
	switch errCode(err) {
	case protocol.CodeContentModified:
		return true
	case jsonrpc2.Code(protocol.LSPErrorCodesRequestFailed):
		return method == protocol.MethodTextDocumentRename || method == protocol.MethodTextDocumentPrepareRename
	}
	return false
}

// requestEverything sends every document request once and every position
// request at about 30 offsets spread over the text (rune boundaries).
func requestEverything(t *testing.T, h *harness, doc corpusDoc, version int32) int {
	t.Helper()
	n := 0
	call := func(method string, params any) {
		n++
		var raw any
		if err := h.call(method, params, &raw); err != nil && !allowed(method, err) {
			t.Errorf("%s v%d: %s: %v", doc.uri, version, method, err)
		}
	}
	td := map[string]any{"uri": doc.uri}
	m := newTestMapper(doc.text)
	whole := protocol.Range{Start: pos(0, 0), End: m.pos(len(doc.text))}
	for _, method := range []string{
		protocol.MethodTextDocumentFoldingRange, protocol.MethodTextDocumentDocumentSymbol,
		protocol.MethodTextDocumentSemanticTokensFull, protocol.MethodTextDocumentDocumentLink,
		protocol.MethodTextDocumentCodeLens, protocol.MethodTextDocumentDiagnostic,
	} {
		call(method, map[string]any{"textDocument": td})
	}
	call(protocol.MethodTextDocumentSemanticTokensRange, map[string]any{"textDocument": td, "range": whole})
	call(protocol.MethodTextDocumentInlayHint, map[string]any{"textDocument": td, "range": whole})
	call(protocol.MethodTextDocumentFormatting, map[string]any{"textDocument": td, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	call(protocol.MethodWorkspaceExecuteCommand, map[string]any{"command": commandPlan, "arguments": []any{map[string]any{"uri": doc.uri}}})
	call(protocol.MethodWorkspaceSymbol, map[string]any{"query": "a"})
	step := max(1, len(doc.text)/30)
	var positions []protocol.Position
	for off := 0; off <= len(doc.text); off += step {
		positions = append(positions, m.pos(m.snap(off)))
	}
	for i, p := range positions {
		at := map[string]any{"textDocument": td, "position": p}
		for _, method := range []string{
			protocol.MethodTextDocumentCompletion, protocol.MethodTextDocumentHover,
			protocol.MethodTextDocumentSignatureHelp, protocol.MethodTextDocumentDefinition,
			protocol.MethodTextDocumentDocumentHighlight, protocol.MethodTextDocumentPrepareRename,
		} {
			call(method, at)
		}
		call(protocol.MethodTextDocumentReferences, map[string]any{"textDocument": td, "position": p, "context": map[string]any{"includeDeclaration": true}})
		call(protocol.MethodTextDocumentRename, map[string]any{"textDocument": td, "position": p, "newName": "renamed"})
		end := positions[min(i+1, len(positions)-1)]
		r := protocol.Range{Start: p, End: end}
		call(protocol.MethodTextDocumentCodeAction, map[string]any{"textDocument": td, "range": r, "context": map[string]any{"diagnostics": []any{}}})
		call(protocol.MethodTextDocumentRangeFormatting, map[string]any{"textDocument": td, "range": r, "options": map[string]any{"tabSize": 2, "insertSpaces": true}})
	}
	call(protocol.MethodTextDocumentSelectionRange, map[string]any{"textDocument": td, "positions": positions})
	return n
}

// retype empties the document and types its first n bytes back one
// character at a time, asking for completion, hover and semantic tokens
// along the way (the text is broken most of the time), then checks the
// server's text.
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
		if v%25 == 0 {
			td := map[string]any{"uri": name}
			at := map[string]any{"textDocument": td, "position": newTestMapper(text).pos(len(text))}
			for _, c := range []struct {
				method string
				params any
			}{
				{protocol.MethodTextDocumentFoldingRange, map[string]any{"textDocument": td}},
				{protocol.MethodTextDocumentSemanticTokensFull, map[string]any{"textDocument": td}},
				{protocol.MethodTextDocumentCompletion, at},
				{protocol.MethodTextDocumentHover, at},
				{protocol.MethodTextDocumentSignatureHelp, at},
			} {
				if err := h.call(c.method, c.params, nil); err != nil && !allowed(c.method, err) {
					t.Errorf("%s v%d: %s: %v", name, v, c.method, err)
				}
			}
		}
	}
	h.WaitDiagnostics(name, v-1)
	snap := h.srv.session.current().snapshot(name)
	if got, _ := parsedClient(snap); string(got) != text {
		t.Fatalf("%s: server text (without its padding) diverged after retyping", name)
	}
}
