package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

// The text synchronisation notifications run in order on the read loop
// (see dispatch.go); each updates the session and schedules diagnostics.

func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	snap := s.session.open(string(td.URI), td.Version, string(td.LanguageID), []byte(td.Text))
	s.diags.changed(snap)
	return nil
}

func (s *server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	snap, err := s.session.change(string(p.TextDocument.URI), p.TextDocument.Version, p.ContentChanges, s.enc)
	if err != nil {
		// The client's view of the text and ours have diverged; say so
		// loudly, since every position from now on may be wrong.
		s.log.Error("didChange rejected", "err", err)
		return err
	}
	s.diags.changed(snap)
	return nil
}

func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	if old := s.session.close(string(p.TextDocument.URI)); old != nil {
		s.diags.closed(old)
	}
	return nil
}

func (s *server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	return nil
}

// DidChangeWatchedFiles will reload providers and child blueprints when
// those loaders exist.
func (s *server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.log.Debug("watched files changed", "count", len(p.Changes))
	return nil
}
