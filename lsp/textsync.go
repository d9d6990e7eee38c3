package lsp

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"strings"

	"go.lsp.dev/protocol"
)

// The text synchronisation notifications run in order on the read loop
// (see dispatch.go); each updates the session and schedules diagnostics.

func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.open(&p.TextDocument, []byte(p.TextDocument.Text))
	return nil
}

// open opens td with text (td.Text is not read): the preempter's
// decodeDidOpen gives the text as bytes of its own, decodeDidOpenOwned
// as a slice of the frame's own buffer, which nothing else reads.
func (s *server) open(td *protocol.TextDocumentItem, text []byte) {
	// The decoder's strings may share the message's bytes: a URI kept
	// as it is would keep the whole text of the open alive (issue 36).
	var release func()
	if s.opts.PaceCollector {
		release = holdCollector(len(text))
	}
	snap := s.session.open(strings.Clone(string(td.URI)), td.Version, strings.Clone(string(td.LanguageID)), text, release)
	if s.opts.PaceCollector {
		s.pacedOpen(snap.URI, len(text))
	}
	s.reportProviderProblems(s.session.takeProblems())
	s.diags.changed(snap)
	s.fileChanged(snap.Path)
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
	s.fileChanged(snap.Path)
	return nil
}

// freeAfterClose is the size of text from which closing a document
// returns the memory it took to the operating system at once.
const freeAfterClose = 256 << 10

func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	if old := s.session.close(string(p.TextDocument.URI)); old != nil {
		s.pacedClose(old.URI)
		s.diags.closed(old)
		s.tokens.drop(old.URI)
		s.fileChanged(old.Path) // its parents now read the disk
		if old.Text.Len() >= freeAfterClose {
			// Left to the collector, the pages a large document held
			// return to the system minutes later, if ever (issue 36).
			s.goSafe("free memory", debug.FreeOSMemory)
		}
	}
	return nil
}

func (s *server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	return nil
}

// DidChangeWatchedFiles drops changed files from the child loader and
// re-checks the open documents that include them; a change under a
// provider directory rebuilds the registries and re-checks everything,
// and so does a change to a project config (which may also change the
// provider directories).
func (s *server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	s.log.Debug("watched files changed", "count", len(p.Changes))
	var dirs []string
	for _, ws := range s.session.current().wss {
		dirs = append(dirs, ws.dirs...)
	}
	providers, configs := false, false
	for _, ch := range p.Changes {
		path := uriPath(string(ch.URI))
		if path == "" {
			continue
		}
		path = filepath.Clean(path)
		s.files.changed(path, ch.Type == protocol.FileChangeTypeDeleted)
		if isConfigFile(path) {
			configs = true
			continue
		}
		if underAny(path, dirs) {
			providers = true
			continue
		}
		if s.session.current().byPath(path) != nil {
			continue // the open buffer wins; its own edits re-check
		}
		s.fileChanged(path)
	}
	switch {
	case providers:
		if configs {
			s.session.configs.Invalidate()
		}
		fresh, errs := s.session.reloadWorkspace()
		s.reportProviderProblems(append(errs, s.session.takeProblems()...))
		s.diags.settingsChanged(fresh)
	case configs:
		fresh := s.session.reconfigure()
		s.reportProviderProblems(s.session.takeProblems())
		s.diags.settingsChanged(fresh)
	}
	return nil
}

// fileChanged drops path and every file including it from the child
// loader and re-checks the open documents among those includers.
func (s *server) fileChanged(path string) {
	if path == "" {
		return
	}
	path = filepath.Clean(path)
	ancestors := s.session.includes.ancestors(path)
	for _, ws := range s.session.current().wss {
		ws.loader.Invalidate(path)
		for _, a := range ancestors {
			ws.loader.Invalidate(a)
		}
	}
	ancestors = append(ancestors, landscaperDependents(s.session.current(), path)...)
	for _, snap := range s.session.recheck(ancestors) {
		s.diags.changed(snap)
	}
}

// underAny reports whether path is inside one of dirs.
func underAny(path string, dirs []string) bool {
	for _, d := range dirs {
		rel, err := filepath.Rel(d, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
