package lsp

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// symbolName keeps names non-empty: clients reject empty symbol names.
func symbolName(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func toDocumentSymbols(m *source.Mapper, syms []symbol, enc source.Encoding) protocol.DocumentSymbolSlice {
	out := make(protocol.DocumentSymbolSlice, 0, len(syms))
	for _, s := range syms {
		ds := protocol.DocumentSymbol{
			Name:           symbolName(s.name),
			Kind:           s.kind,
			Range:          toRange(m, s.rng, enc),
			SelectionRange: toRange(m, s.sel, enc),
		}
		if s.detail != "" {
			d := s.detail
			ds.Detail = &d
		}
		if len(s.children) > 0 {
			ds.Children = toDocumentSymbols(m, s.children, enc)
		}
		out = append(out, ds)
	}
	return out
}

// toSymbolInformation flattens symbols for clients without hierarchical
// document symbol support.
func toSymbolInformation(m *source.Mapper, docURI string, syms []symbol, enc source.Encoding) protocol.SymbolInformationSlice {
	out := protocol.SymbolInformationSlice{}
	var walk func(syms []symbol, container string)
	walk = func(syms []symbol, container string) {
		for _, s := range syms {
			si := protocol.SymbolInformation{
				BaseSymbolInformation: protocol.BaseSymbolInformation{Name: symbolName(s.name), Kind: s.kind},
				Location:              protocol.Location{URI: uri.URI(docURI), Range: toRange(m, s.rng, enc)},
			}
			if container != "" {
				c := container
				si.ContainerName = &c
			}
			out = append(out, si)
			walk(s.children, s.name)
		}
	}
	walk(syms, "")
	return out
}
