package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The presentation features describe the whole document. While the text
// does not parse they read the last good Result, limited to the part of
// the document before the first change (where both texts agree), so
// nothing is drawn in the wrong place.

// viewResult returns the Result a presentation feature reads and the
// offset up to which its ranges are valid in the current text.
func viewResult(snap *Snapshot) (res *analysis.Result, limit int) {
	res, stale := snap.Result()
	if res == nil || res.File == nil {
		return nil, 0
	}
	if stale {
		return res, staleLimit(res, snap)
	}
	return res, res.File.Text.Len()
}

func (s *server) SemanticTokensRange(ctx context.Context, p *protocol.SemanticTokensRangeParams) (*protocol.SemanticTokens, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	r, err := fromRange(snap.Mapper(), p.Range, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	if vd, ok := snap.kind().(viewDoc); ok {
		var in []ide.SemanticToken
		for _, t := range vd.tokens(snap) {
			if t.Range.Start < r.End && t.Range.End > r.Start {
				in = append(in, t)
			}
		}
		return toSemanticTokens(snap.Mapper(), in, snap.Text.Len(), s.enc), nil
	}
	res, limit := viewResult(snap)
	if res == nil {
		return &protocol.SemanticTokens{Data: []uint32{}}, nil
	}
	if r, err = fromRange(res.File.Mapper, p.Range, s.enc); err != nil {
		return nil, invalidParams(err)
	}
	return toSemanticTokens(res.File.Mapper, ide.SemanticTokens(res, &r), limit, s.enc), nil
}

// semanticLegend is the token legend advertised in initialize: ide's
// tables, in ide's order, so its indexes and bits travel unchanged.
func (s *server) semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{TokenTypes: ide.TokenTypes, TokenModifiers: ide.TokenModifiers}
}

func (s *server) SelectionRange(ctx context.Context, p *protocol.SelectionRangeParams) ([]protocol.SelectionRange, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	offs := make([]int, len(p.Positions))
	for i, pos := range p.Positions {
		if offs[i], err = fromPosition(snap.Mapper(), pos, s.enc); err != nil {
			return nil, invalidParams(err)
		}
	}
	res := current(snap)
	var chains [][]source.Range
	if res != nil {
		chains = ide.SelectionRanges(res, offs)
	}
	return toSelectionRanges(snap.Mapper(), offs, chains, s.enc), nil
}

func (s *server) InlayHint(ctx context.Context, p *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if !snap.Settings.InlayHintsEnabled() {
		return []protocol.InlayHint{}, nil
	}
	r, err := fromRange(snap.Mapper(), p.Range, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	res, limit := viewResult(snap)
	if res == nil {
		return []protocol.InlayHint{}, nil
	}
	if r, err = fromRange(res.File.Mapper, p.Range, s.enc); err != nil {
		return nil, invalidParams(err)
	}
	r.End = min(r.End, limit)
	if r.End < r.Start {
		return []protocol.InlayHint{}, nil
	}
	return toInlayHints(res.File.Mapper, ide.InlayHints(res, r, snap.evaluator(res)), s.enc), nil
}

func (s *server) DocumentLink(ctx context.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	res, limit := viewResult(snap)
	if res == nil {
		return []protocol.DocumentLink{}, nil
	}
	return toDocumentLinks(res.File.Mapper, ide.DocumentLinks(res), limit, s.enc), nil
}

func (s *server) CodeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if vd, ok := snap.kind().(viewDoc); ok {
		return toCodeLenses(snap.Mapper(), snap.ClientURI, vd.codeLenses(snap), s.enc), nil
	}
	res := current(snap)
	if res == nil {
		return []protocol.CodeLens{}, nil
	}
	return toCodeLenses(snap.Mapper(), snap.ClientURI, ide.CodeLenses(res), s.enc), nil
}

func (s *server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	results, outlines := s.workspaceResults(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return s.toWorkspaceSymbols(ide.WorkspaceSymbols(results, p.Query, outlines...)), nil
}
