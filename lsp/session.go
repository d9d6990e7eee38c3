package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/source"
)

// session holds the open documents and the settings. All mutation happens
// in its methods, under mu, and publishes a fresh immutable view; readers
// (requests, the diagnostics pipeline) load a view and never lock.
type session struct {
	ctx      context.Context // parent of every snapshot's context
	analyzer Analyzer
	log      *slog.Logger

	mu   sync.Mutex
	seq  uint64
	view atomic.Pointer[view]
}

// view is the state of the session at one instant.
type view struct {
	snaps    map[string]*Snapshot // by canonical URI
	settings *Settings
}

func newSession(ctx context.Context, a Analyzer, log *slog.Logger) *session {
	s := &session{ctx: ctx, analyzer: a, log: log}
	s.view.Store(&view{snaps: map[string]*Snapshot{}, settings: &Settings{}})
	return s
}

// current returns the present view.
func (s *session) current() *view { return s.view.Load() }

// snapshot returns the current snapshot of uri (canonicalised), or nil.
func (v *view) snapshot(uri string) *Snapshot { return v.snaps[canonicalURI(uri)] }

// isCurrent reports whether snap is still the document's latest snapshot.
func (s *session) isCurrent(snap *Snapshot) bool {
	return s.current().snaps[snap.URI] == snap
}

// publish installs a new view built from the old by edit; callers hold mu.
func (s *session) publish(edit func(snaps map[string]*Snapshot, settings **Settings)) {
	old := s.view.Load()
	snaps := make(map[string]*Snapshot, len(old.snaps)+1)
	for k, v := range old.snaps {
		snaps[k] = v
	}
	settings := old.settings
	edit(snaps, &settings)
	s.view.Store(&view{snaps: snaps, settings: settings})
}

func (s *session) newSnapshot(uri, clientURI string, version int32, lang string, content []byte, settings *Settings) *Snapshot {
	s.seq++
	return newSnapshot(s.ctx, s.analyzer, s.log, uri, clientURI, version, lang, content, settings, s.seq)
}

// open adds (or replaces) a document.
func (s *session) open(clientURI string, version int32, lang string, text []byte) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	uri := canonicalURI(clientURI)
	var snap *Snapshot
	s.publish(func(snaps map[string]*Snapshot, settings **Settings) {
		if old := snaps[uri]; old != nil {
			old.cancel()
		}
		snap = s.newSnapshot(uri, clientURI, version, lang, text, *settings)
		snaps[uri] = snap
	})
	return snap
}

// change applies content changes, in order, to the document's text. A
// change to a document that is not open is an error, as is a range that
// does not fit the text; in both cases nothing changes.
func (s *session) change(clientURI string, version int32, changes []protocol.TextDocumentContentChangeEvent, enc source.Encoding) (*Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	uri := canonicalURI(clientURI)
	old := s.current().snaps[uri]
	if old == nil {
		return nil, fmt.Errorf("didChange for %s, which is not open", clientURI)
	}
	text, err := applyChanges(old.Content, old.Mapper, changes, enc)
	if err != nil {
		return nil, fmt.Errorf("didChange for %s version %d: %w", clientURI, version, err)
	}
	var snap *Snapshot
	s.publish(func(snaps map[string]*Snapshot, settings **Settings) {
		old.cancel()
		snap = s.newSnapshot(uri, old.ClientURI, version, old.LanguageID, text, *settings)
		snaps[uri] = snap
	})
	return snap, nil
}

// close forgets a document and returns its last snapshot (nil if it was
// not open).
func (s *session) close(clientURI string) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	uri := canonicalURI(clientURI)
	var old *Snapshot
	s.publish(func(snaps map[string]*Snapshot, _ **Settings) {
		old = snaps[uri]
		if old != nil {
			old.cancel()
			delete(snaps, uri)
		}
	})
	return old
}

// setSettings replaces the settings; every open document gets a new
// snapshot (same text and version) analysed under them, which are
// returned.
func (s *session) setSettings(next *Settings) []*Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fresh []*Snapshot
	s.publish(func(snaps map[string]*Snapshot, settings **Settings) {
		*settings = next
		for uri, old := range snaps {
			old.cancel()
			snap := s.newSnapshot(uri, old.ClientURI, old.Version, old.LanguageID, old.Content, next)
			snaps[uri] = snap
			fresh = append(fresh, snap)
		}
	})
	return fresh
}

// applyChanges applies LSP content changes to text. Each change's range is
// interpreted against the text as left by the previous change.
func applyChanges(text []byte, m *source.Mapper, changes []protocol.TextDocumentContentChangeEvent, enc source.Encoding) ([]byte, error) {
	for i, ch := range changes {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = []byte(c.Text)
		case *protocol.TextDocumentContentChangePartial:
			if m == nil {
				m = source.NewMapper(text)
			}
			r, err := fromRange(m, c.Range, enc)
			if err != nil {
				return nil, fmt.Errorf("change %d: %w", i, err)
			}
			next := make([]byte, 0, len(text)-r.Len()+len(c.Text))
			next = append(next, text[:r.Start]...)
			next = append(next, c.Text...)
			next = append(next, text[r.End:]...)
			text = next
		default:
			return nil, fmt.Errorf("change %d: unsupported change %T", i, ch)
		}
		m = nil // the mapper described the text before this change
	}
	return text, nil
}
