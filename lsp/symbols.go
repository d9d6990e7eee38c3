package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/ide"
)

// DocumentSymbol returns ide's outline of the document: a blueprint's
// semantic one when its current text parses, otherwise the syntax tree's
// (so it keeps working while the text is being typed); a Cloud Assembly
// manifest gets its droplets.
func (s *server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	d := snap.Dialect()
	var res *analysis.Result
	if d.Blueprint {
		res = readable(snap)
	}
	syms := ide.Outline(d, snap.File(), res)
	if !s.caps.hierarchicalSymbols {
		return toSymbolInformation(snap.Mapper(), snap.ClientURI, syms, s.enc), nil
	}
	return toDocumentSymbols(snap.Mapper(), syms, s.enc), nil
}
