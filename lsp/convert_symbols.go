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
			ds.Children = toDocumentSymbols(m, s.Children, enc)
		}
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
