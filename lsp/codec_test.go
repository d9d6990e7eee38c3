package lsp

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/eval"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"go.lsp.dev/protocol"
)

// TestMarshalStructSliceSame: the codec's element-by-element encoding of
// a slice of structs (marshalStructSlice) gives the bytes protocol.Marshal
// gives, on what the server answers for every corpus document (its
// diagnostics with the editor's rules on, outline, folds, lenses, hints,
// links, highlights, references, formatting edits) and on values built
// to hold what is rare in answers: control characters, invalid UTF-8,
// HTML characters, related information, tags, data, empty and nil
// slices.
func TestMarshalStructSliceSame(t *testing.T) {
	var checked int
	same := func(name string, v any) {
		t.Helper()
		want, err := protocol.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, ok, err := marshalStructSlice([]byte("x"), v)
		if !ok || err != nil {
			t.Fatalf("%s: not encoded (%v, %v)", name, ok, err)
		}
		if !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("%s:\n got %s\nwant %s", name, got, want)
		}
		checked++
	}
	same("nil", []protocol.Diagnostic(nil))
	same("empty", []protocol.FoldingRange{})
	same("rare", []protocol.Diagnostic{
		{Message: protocol.String("a\x01\x1f\"\\é\u2028<>&\xff\t\n"), Code: protocol.String("c\x7f"), Severity: 1,
			Source: protocol.NewOptional("s"), Data: []byte(`{"a": 1 , "b":"\u003c"}`), Tags: protocol.NewDiagnosticTags(1, 2),
			CodeDescription:    protocol.CodeDescription{Href: "https://example.com/a?b=<c>"},
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{Message: "m", Location: protocol.Location{URI: "file:///a%20b"}}}},
		{Code: protocol.Integer(-3)},
		{},
	})
	if _, ok, _ := marshalStructSlice(nil, []protocol.DocumentSymbol{}); !ok {
		t.Fatal("a slice of structs is not taken")
	}
	if _, ok, _ := marshalStructSlice(nil, []any{1}); ok {
		t.Fatal("a slice of interfaces is taken")
	}
	if _, ok, _ := marshalStructSlice(nil, protocol.Diagnostic{}); ok {
		t.Fatal("a struct is taken")
	}

	defaultRulesOff = false
	t.Cleanup(func() { defaultRulesOff = true })
	docs := differentialCorpus(t)
	docs["rules.blueprint.yaml"] = rulesDoc
	h := newHarness(t)
	h.initialize(`{"initializationOptions":{"debounceMs":0}}`)
	for name, content := range docs {
		h.open(name, content)
		same(name+" diagnostics", h.WaitDiagnostics(name, 1))
		doc := protocol.TextDocumentIdentifier{URI: docURI(name)}
		ask := func(method string, params any, result any) {
			t.Helper()
			if err := h.call(method, params, result); err == nil {
				same(name+" "+method, derefSlice(result))
			}
		}
		var symbols []protocol.DocumentSymbol
		ask(protocol.MethodTextDocumentDocumentSymbol, protocol.DocumentSymbolParams{TextDocument: doc}, &symbols)
		var folds []protocol.FoldingRange
		ask(protocol.MethodTextDocumentFoldingRange, protocol.FoldingRangeParams{TextDocument: doc}, &folds)
		var lenses []protocol.CodeLens
		ask(protocol.MethodTextDocumentCodeLens, protocol.CodeLensParams{TextDocument: doc}, &lenses)
		var links []protocol.DocumentLink
		ask(protocol.MethodTextDocumentDocumentLink, protocol.DocumentLinkParams{TextDocument: doc}, &links)
		lines := uint32(strings.Count(content, "\n") + 1)
		var hints []protocol.InlayHint
		ask(protocol.MethodTextDocumentInlayHint, protocol.InlayHintParams{TextDocument: doc, Range: rng(0, 0, lines, 0)}, &hints)
		var edits []protocol.TextEdit
		ask(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: doc, Options: protocol.FormattingOptions{TabSize: 2, InsertSpaces: true}}, &edits)
		m := newTestMapper(content)
		for _, at := range []int{len(content) / 3, len(content) / 2, 2 * len(content) / 3} {
			p := m.pos(m.snap(at))
			var highlights []protocol.DocumentHighlight
			ask(protocol.MethodTextDocumentDocumentHighlight, protocol.DocumentHighlightParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: p}}, &highlights)
			var refs []protocol.Location
			ask(protocol.MethodTextDocumentReferences, protocol.ReferenceParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: doc, Position: p}, Context: protocol.ReferenceContext{IncludeDeclaration: true}}, &refs)
		}
	}
	if checked < 10*len(docs) {
		t.Fatalf("only %d answers compared for %d documents", checked, len(docs))
	}
}

// derefSlice returns the slice a pointer to a slice points to.
func derefSlice(p any) any {
	switch p := p.(type) {
	case *[]protocol.DocumentSymbol:
		return *p
	case *[]protocol.FoldingRange:
		return *p
	case *[]protocol.CodeLens:
		return *p
	case *[]protocol.DocumentLink:
		return *p
	case *[]protocol.InlayHint:
		return *p
	case *[]protocol.TextEdit:
		return *p
	case *[]protocol.DocumentHighlight:
		return *p
	case *[]protocol.Location:
		return *p
	}
	panic(fmt.Sprintf("derefSlice: %T", p))
}

// TestToDiagnosticsCursorSame: converting a document's diagnostics with
// one line cursor (toDiagnostics) places every range, related place and
// suggested edit where the mapper places each alone, in every encoding,
// with the findings of every rule and in any order (the cursor searches
// back as well as forward).
func TestToDiagnosticsCursorSame(t *testing.T) {
	docs := differentialCorpus(t)
	docs["rules.blueprint.yaml"] = rulesDoc
	docs["unicode.blueprint.yaml"] = strings.ReplaceAll(rulesDoc, "queueName:", "queueName: 'é😀' #") + "\n# ünï\n"
	rng := rand.New(rand.NewSource(1))
	n := 0
	for name, content := range docs {
		path := "/tmp/" + name
		res := analysis.Analyze(context.Background(), schema.Parse(path, []byte(content)), analysis.Options{Path: path})
		ds := slices.Clone(res.Diagnostics)
		if res.Blueprint != nil && !res.File.HasSyntaxErrors() {
			ds = append(ds, (&ruleMemo{}).update(context.Background(), res, []byte(content), ruleKey{}, nil, eval.Inputs{}, nil)...)
		}
		shuffled := slices.Clone(ds)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		m := source.NewMapper([]byte(content))
		for _, enc := range []source.Encoding{source.UTF8, source.UTF16, source.UTF32} {
			for _, list := range [][]source.Diagnostic{ds, shuffled} {
				got := toDiagnostics(m, name, list, enc, nil, nil)
				each := func(off int) protocol.Position { return toPosition(m, off, enc) }
				for i, d := range list {
					want := toDiagnostic(m, each, name, d, d.Severity, enc, nil)
					a, _ := protocol.Marshal(&got[i])
					b, _ := protocol.Marshal(&want)
					if !bytes.Equal(a, b) {
						t.Fatalf("%s, %v: diagnostic %d:\n got %s\nwant %s", name, enc, i, a, b)
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d diagnostics compared", n)
	}
}
