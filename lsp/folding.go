package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/ide"
)

// FoldingRanges returns ide's folds of the syntax tree (every dialect),
// cut to the client's limit.
func (s *server) FoldingRanges(ctx context.Context, p *protocol.FoldingRangeParams) ([]protocol.FoldingRange, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	folds := toFoldingRanges(ide.Folds(snap.File(), snap.Mapper()))
	if lim := s.caps.foldingRangeLimit; lim > 0 && len(folds) > lim {
		folds = folds[:lim]
	}
	return folds, nil
}

func toFoldingRanges(folds []ide.Fold) []protocol.FoldingRange {
	out := make([]protocol.FoldingRange, 0, len(folds))
	for _, f := range folds {
		out = append(out, protocol.FoldingRange{StartLine: uint32(f.StartLine), EndLine: uint32(f.EndLine), Kind: protocol.FoldingRangeKind(f.Kind)})
	}
	return out
}
