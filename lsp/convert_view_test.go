package lsp

import (
	"context"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/internal/gen"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// TestSemanticTokensCursorSame holds toSemanticTokens, which converts
// the tokens' offsets with a cursor over the line table, to converting
// each offset on its own, in every encoding, on generated blueprints in
// the three formats, a text with multi-byte characters, and the same
// texts with padding on their lines (the parse's coordinates).
func TestSemanticTokensCursorSame(t *testing.T) {
	docs := map[string][]byte{
		"g.blueprint.yaml": gen.Blueprint(30, "yaml"),
		"g.blueprint.json": gen.Blueprint(30, "json"),
		"g.bp":             gen.Blueprint(30, "bp"),
		"u.blueprint.yaml": []byte("version: 2025-11-02\nvariables:\n  é:\n    type: string\n    description: \"𝄞 ${variables.é} ü\"\nvalues:\n  v:\n    type: string\n    value: \"ä${variables.é}\"\n"),
	}
	for name, content := range docs {
		res := analysis.Analyze(context.Background(), schema.Parse(name, content), analysis.Options{})
		toks := ide.SemanticTokens(res, nil)
		if len(toks) == 0 {
			t.Fatalf("%s: no tokens", name)
		}
		mappers := []*source.Mapper{res.File.Mapper}
		pm, moved := paddedEveryFifthLine(content)
		ptoks := slices.Clone(toks)
		for k := range ptoks {
			ptoks[k].Range = moved(ptoks[k].Range)
		}
		for _, enc := range []source.Encoding{source.UTF8, source.UTF16, source.UTF32} {
			for i, m := range append(mappers, pm) {
				in := toks
				if i == 1 {
					in = ptoks
				}
				got := toSemanticTokens(m, in, len(m.Content()), enc).Data
				want := oneByOne(m, in, len(m.Content()), enc)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %v mapper %d: cursor and one by one differ", name, enc, i)
				}
			}
		}
	}
}

// paddedEveryFifthLine returns the mapper of content with padding (three
// spaces listed as slack) at the end of every fifth line, as the parse's
// coordinates have, and what moves a range of content into it.
func paddedEveryFifthLine(content []byte) (*source.Mapper, func(source.Range) source.Range) {
	var padded []byte
	var slack source.SlackSlice
	shift := map[int]int{}
	lines := 0
	for i, c := range content {
		if c == '\n' && lines%5 == 0 {
			slack = append(slack, source.Slack{At: len(padded), Len: 3})
			padded = append(padded, "   "...)
		}
		shift[i] = len(padded) - i
		padded = append(padded, c)
		if c == '\n' {
			lines++
		}
	}
	shift[len(content)] = len(padded) - len(content)
	moved := func(r source.Range) source.Range {
		return source.R(r.Start+shift[r.Start], r.End+shift[max(r.End-1, 0)])
	}
	return source.NewMapper(padded).WithSlack(slack), moved
}

// oneByOne is toSemanticTokens converting every offset on its own.
func oneByOne(m *source.Mapper, toks []ide.SemanticToken, limit int, enc source.Encoding) []uint32 {
	return encodeTokens(toks, limit, func(off int) (int, int) {
		p := m.OffsetPosition(off, enc)
		return p.Line, p.Character
	})
}

// TestCodeLensesCursorSame holds toCodeLenses, which converts the lenses'
// offsets with a cursor and writes their positions directly, to
// converting each offset on its own and marshalling each argument, in
// every encoding, on generated blueprints and a text with multi-byte
// characters.
func TestCodeLensesCursorSame(t *testing.T) {
	docs := map[string][]byte{
		"g.blueprint.yaml": gen.Blueprint(30, "yaml"),
		"g.bp":             gen.Blueprint(30, "bp"),
		"u.blueprint.yaml": []byte("version: 2025-11-02\nvariables:\n  é:\n    type: string\n    description: \"𝄞 ${variables.é} ü\"\nvalues:\n  \"𝄞v\":\n    type: string\n    value: \"ä${variables.é}\"\n"),
	}
	const clientURI = "file:///tmp/a%20b/g.blueprint.yaml"
	for name, content := range docs {
		res := analysis.Analyze(context.Background(), schema.Parse(name, content), analysis.Options{})
		lenses := ide.CodeLenses(res)
		if len(lenses) < 3 {
			t.Fatalf("%s: %d lenses", name, len(lenses))
		}
		m := res.File.Mapper
		for _, enc := range []source.Encoding{source.UTF8, source.UTF16, source.UTF32} {
			got, err := protocol.Marshal(toCodeLenses(m, clientURI, lenses, enc))
			if err != nil {
				t.Fatal(err)
			}
			var want []protocol.CodeLens
			for _, l := range lenses {
				cmd := protocol.Command{Title: l.Title, Command: l.Command}
				if l.Command == ide.CommandPlan {
					arg, _ := protocol.Marshal(map[string]string{"uri": clientURI})
					cmd.Arguments = []protocol.LSPAny{arg}
				} else {
					u, _ := protocol.Marshal(clientURI)
					p, _ := protocol.Marshal(toPosition(m, l.Range.Start, enc))
					cmd.Arguments = []protocol.LSPAny{u, p}
				}
				want = append(want, protocol.CodeLens{Range: toRange(m, l.Range, enc), Command: cmd})
			}
			wb, err := protocol.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(wb) {
				t.Fatalf("%s %v: cursor and one by one differ\n%s\nwant\n%s", name, enc, got, wb)
			}
		}
	}
}

// TestDocumentSymbolsCursorSame holds toDocumentSymbols, which converts
// the outline's ranges with cursors over the line table, to converting
// each range on its own (toRange), in every encoding, on the texts
// TestSemanticTokensCursorSame converts, and the same texts with padding
// on their lines.
func TestDocumentSymbolsCursorSame(t *testing.T) {
	docs := map[string][]byte{
		"g.blueprint.yaml": gen.Blueprint(30, "yaml"),
		"g.blueprint.json": gen.Blueprint(30, "json"),
		"g.bp":             gen.Blueprint(30, "bp"),
		"u.blueprint.yaml": []byte("version: 2025-11-02\nvariables:\n  é:\n    type: string\n    description: \"𝄞 ${variables.é} ü\"\nvalues:\n  v:\n    type: string\n    value: \"ä${variables.é}\"\nresources:\n  q:\n    type: aws/sqs/queue\n    spec:\n      queueName: \"ü${values.v}\"\n"),
	}
	for name, content := range docs {
		f := schema.Parse(name, content)
		res := analysis.Analyze(context.Background(), f, analysis.Options{})
		syms := ide.Outline(dialect.Of(dialect.Bluelink), f, res)
		if len(syms) == 0 {
			t.Fatalf("%s: no symbols", name)
		}
		pm, moved := paddedEveryFifthLine(content)
		psyms := movedSymbols(syms, moved)
		for _, enc := range []source.Encoding{source.UTF8, source.UTF16, source.UTF32} {
			for i, m := range []*source.Mapper{f.Mapper, pm} {
				in := syms
				if i == 1 {
					in = psyms
				}
				got := toDocumentSymbols(m, in, enc)
				want := symbolsOneByOne(m, in, enc)
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Fatalf("%s %v mapper %d: cursor and one by one differ:\n%s", name, enc, i, diff)
				}
			}
		}
	}
}

func movedSymbols(syms []ide.DocumentSymbol, moved func(source.Range) source.Range) []ide.DocumentSymbol {
	out := slices.Clone(syms)
	for i := range out {
		out[i].Range, out[i].SelectionRange = moved(out[i].Range), moved(out[i].SelectionRange)
		out[i].Children = movedSymbols(out[i].Children, moved)
	}
	return out
}

// symbolsOneByOne is toDocumentSymbols converting every range on its own.
func symbolsOneByOne(m *source.Mapper, syms []ide.DocumentSymbol, enc source.Encoding) protocol.DocumentSymbolSlice {
	out := make(protocol.DocumentSymbolSlice, 0, len(syms))
	for _, s := range syms {
		ds := protocol.DocumentSymbol{
			Name:           symbolName(s.Name),
			Kind:           symbolKindsIDE[s.Kind],
			Range:          toRange(m, s.Range, enc),
			SelectionRange: toRange(m, s.SelectionRange, enc),
		}
		if s.Detail != "" {
			d := s.Detail
			ds.Detail = &d
		}
		if len(s.Children) > 0 {
			ds.Children = symbolsOneByOne(m, s.Children, enc)
		}
		out = append(out, ds)
	}
	return out
}
