package lsp

import (
	"context"
	"errors"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/format"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Formatting formats the whole document with package format. A document
// that does not parse is left alone (no edits): its syntax error is
// already shown, and an error popup on every format-on-save would only
// repeat it.
func (s *server) Formatting(ctx context.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if !snap.Dialect().Formatted {
		return []protocol.TextEdit{}, nil // not ours: a workflow keeps its own style
	}
	// The client's text: the edits are computed on it and converted
	// with its mapper.
	content, m := snap.Content(), snap.Lines()
	edits, err := format.Format(snap.URI, content, formatOptions(p.Options))
	return s.formatResult(snap, m, edits, err)
}

// RangeFormatting formats the lines the range touches.
func (s *server) RangeFormatting(ctx context.Context, p *protocol.DocumentRangeFormattingParams) ([]protocol.TextEdit, error) {
	snap, err := s.snapshot(ctx, string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if !snap.Dialect().Formatted {
		return []protocol.TextEdit{}, nil
	}
	content, m := snap.Content(), snap.Lines()
	r, err := fromRange(m, p.Range, s.enc)
	if err != nil {
		return nil, invalidParams(err)
	}
	edits, err := format.FormatRange(snap.URI, content, r, formatOptions(p.Options))
	return s.formatResult(snap, m, edits, err)
}

func (s *server) formatResult(snap *Snapshot, m *source.Mapper, edits []sourceEdits, err error) ([]protocol.TextEdit, error) {
	var syn *format.SyntaxError
	if errors.As(err, &syn) {
		s.log.Debug("not formatting a document with syntax errors", "uri", snap.URI)
		return []protocol.TextEdit{}, nil
	}
	if err != nil {
		return nil, err
	}
	return toTextEdits(m, edits, s.enc), nil
}
