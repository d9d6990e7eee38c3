package lsp

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// symbolName keeps names non-empty: clients reject empty symbol names.
func symbolName(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func toDocumentSymbols(m *source.Mapper, syms []ide.DocumentSymbol, enc source.Encoding) protocol.DocumentSymbolSlice {
	c := symbolPlaces{starts: m.Cursor(), ends: m.Cursor(), enc: enc}
	return c.convert(syms)
}

// symbolPlaces converts an outline's ranges with two cursors over the
// line table: the starts and names rise in the order the outline lists
// symbols, the ends in the order their children are done. A large
// blueprint's outline has tens of thousands of ranges.
type symbolPlaces struct {
	starts, ends *source.LineCursor
	enc          source.Encoding
}

func (c *symbolPlaces) at(cur *source.LineCursor, off int) protocol.Position {
	line, col := cur.LineCol(off, c.enc)
	return protocol.Position{Line: uint32(line - 1), Character: uint32(col - 1)}
}

func (c *symbolPlaces) convert(syms []ide.DocumentSymbol) protocol.DocumentSymbolSlice {
	out := make(protocol.DocumentSymbolSlice, 0, len(syms))
	for _, s := range syms {
		ds := protocol.DocumentSymbol{
			Name:           symbolName(s.Name),
			Kind:           symbolKindsIDE[s.Kind],
			Range:          protocol.Range{Start: c.at(c.starts, s.Range.Start)},
			SelectionRange: protocol.Range{Start: c.at(c.starts, s.SelectionRange.Start), End: c.at(c.starts, s.SelectionRange.End)},
		}
		if s.Detail != "" {
			d := s.Detail
			ds.Detail = &d
		}
		if len(s.Children) > 0 {
			ds.Children = c.convert(s.Children)
		}
		ds.Range.End = c.at(c.ends, s.Range.End)
		out = append(out, ds)
	}
	return out
}

// toSymbolInformation flattens symbols for clients without hierarchical
// document symbol support.
func toSymbolInformation(m *source.Mapper, docURI string, syms []ide.DocumentSymbol, enc source.Encoding) protocol.SymbolInformationSlice {
	out := protocol.SymbolInformationSlice{}
	var walk func(syms []ide.DocumentSymbol, container string)
	walk = func(syms []ide.DocumentSymbol, container string) {
		for _, s := range syms {
			si := protocol.SymbolInformation{
				BaseSymbolInformation: protocol.BaseSymbolInformation{Name: symbolName(s.Name), Kind: symbolKindsIDE[s.Kind]},
				Location:              protocol.Location{URI: uri.URI(docURI), Range: toRange(m, s.Range, enc)},
			}
			if container != "" {
				c := container
				si.ContainerName = &c
			}
			out = append(out, si)
			walk(s.Children, s.Name)
		}
	}
	walk(syms, "")
	return out
}
