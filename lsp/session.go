package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
)

// session holds the open documents and the settings. All mutation happens
// in its methods, under mu, and publishes a fresh immutable view; readers
// (requests, the diagnostics pipeline) load a view and never lock.
type session struct {
	ctx      context.Context // parent of every snapshot's context
	analyzer Analyzer
	log      *slog.Logger

	// includes is the reverse include index, fed by every completed
	// full phase.
	includes *includeIndex
	// configs finds each document's .blueprint-ls.yaml (on disk),
	// cached per directory until a watched config file changes.
	configs *project.Finder
	// noSlack turns padding off (padding.go): tests compare with it.
	noSlack bool

	mu   sync.Mutex
	seq  uint64
	view atomic.Pointer[view]
	// folders are the client's workspace folders, the project root of a
	// file with neither a config nor a repository above it.
	folders []string
	// problems are provider directories of project configs that failed
	// to load since the server last took them (takeProblems).
	problems []error
	// plugins are the Bluelink plugins the settings turned on.
	plugins pluginState
}

// view is the state of the session at one instant.
type view struct {
	snaps    map[string]*Snapshot // by canonical URI
	settings *Settings
	// ws is the workspace of the settings' provider directories alone.
	ws *workspace
	// wss holds every workspace in use by provider list (ws included):
	// a project config's providers join the settings' (project.go).
	// Never modified once the view is published.
	wss map[string]*workspace
}

// setFolders records the workspace folders (initialize).
func (s *session) setFolders(folders []string) {
	s.mu.Lock()
	s.folders = slices.Clone(folders)
	s.mu.Unlock()
}

func newSession(ctx context.Context, a Analyzer, log *slog.Logger) *session {
	s := &session{ctx: ctx, analyzer: a, log: log, includes: newIncludeIndex(), configs: project.NewFinder()}
	ws, _ := s.newWorkspace(nil, safefs.Limits{})
	s.view.Store(&view{snaps: map[string]*Snapshot{}, settings: &Settings{}, ws: ws, wss: map[string]*workspace{ws.key(): ws}})
	return s
}

// byPath returns the open document with file path path, or nil.
func (v *view) byPath(path string) *Snapshot {
	for _, snap := range v.snaps {
		if snap.Path == path {
			return snap
		}
	}
	return nil
}

// analysed runs after every full phase that completed under a live
// context; a cancelled one may have left partial children in the loader,
// which are dropped.
func (s *session) analysed(snap *Snapshot, a *Analysis) {
	if a.Result == nil {
		return
	}
	if snap.superseded() {
		if snap.ws != nil {
			forEachChild(a.Result, func(c *analysis.Child) { snap.ws.loader.Invalidate(c.Path) })
		}
		return
	}
	s.includes.record(a.Result)
}

// forEachChild calls f for every child Result reachable from res.
func forEachChild(res *analysis.Result, f func(*analysis.Child)) {
	seen := map[*analysis.Result]bool{}
	var walk func(r *analysis.Result)
	walk = func(r *analysis.Result) {
		if r == nil || seen[r] {
			return
		}
		seen[r] = true
		for _, c := range r.Children {
			if c.Path != "" {
				f(c)
			}
			walk(c.Result)
		}
	}
	walk(res)
}

// current returns the present view.
func (s *session) current() *view { return s.view.Load() }

// snapshot returns the current snapshot of uri (canonicalised), or nil.
func (v *view) snapshot(uri string) *Snapshot { return v.snaps[canonicalURI(uri)] }

// isCurrent reports whether snap is still the document's latest snapshot.
func (s *session) isCurrent(snap *Snapshot) bool {
	return s.current().snaps[snap.URI] == snap
}

// publish installs a new view built from the old by edit, which may add
// workspaces to wss (through place); callers hold mu.
func (s *session) publish(edit func(snaps map[string]*Snapshot, settings **Settings, wss map[string]*workspace)) {
	old := s.view.Load()
	snaps := maps.Clone(old.snaps)
	wss := maps.Clone(old.wss)
	settings := old.settings
	edit(snaps, &settings, wss)
	s.view.Store(&view{snaps: snaps, settings: settings, ws: old.ws, wss: wss})
}

func (s *session) newSnapshot(in snapshotInit) *Snapshot {
	s.seq++
	in.noSlack = s.noSlack
	return newSnapshot(s.ctx, s.analyzer, s.log, in, s.seq, s.analysed)
}

// open adds (or replaces) a document.
// release, when not nil, is called once the snapshot's first analysis
// is done or the snapshot is superseded.
func (s *session) open(clientURI string, version int32, lang string, text []byte, release func()) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	uri := canonicalURI(clientURI)
	var snap *Snapshot
	s.publish(func(snaps map[string]*Snapshot, settings **Settings, wss map[string]*workspace) {
		if old := snaps[uri]; old != nil {
			old.cancel()
		}
		in := snapshotInit{uri: uri, clientURI: clientURI, version: version, lang: lang,
			text: source.NewText(text), settings: *settings, analysed: release}
		s.place(&in, wss)
		snap = s.newSnapshot(in)
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
	text, m, edit, err := applyChangesAt(old.Text, old.Lines(), changes, enc)
	if err != nil {
		return nil, fmt.Errorf("didChange for %s version %d: %w", clientURI, version, err)
	}
	var snap *Snapshot
	s.publish(func(snaps map[string]*Snapshot, settings **Settings, _ map[string]*workspace) {
		old.cancel()
		in := old.init() // same config and workspace: only the text changed
		in.version, in.text, in.mapper = version, text, m
		in.edits = old.editsThen(edit)
		// Text without a suppression directive keeps none unless the
		// edit typed one (it may end in the bytes around the edit).
		in.noDirective = old.directiveState() == directiveNone && !project.DirectiveNear(in.text, source.R(edit.Start, edit.NewEnd))
		snap = s.newSnapshot(in)
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
	s.publish(func(snaps map[string]*Snapshot, _ **Settings, _ map[string]*workspace) {
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
// returned. When the provider directories changed, the workspace (registry
// and loader) is rebuilt; problems loading them are returned.
func (s *session) setSettings(next *Settings) (fresh []*Snapshot, problems []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, wss := s.current().ws, s.current().wss
	if s.plugins.want(next.pluginPath()) || !slices.Equal(ws.dirs, next.ProviderDirs) {
		ws, problems = s.newWorkspace(next.ProviderDirs, safefs.Limits{})
		wss = nil // every provider list starts with the settings'
	}
	return s.renew(nil, next, ws, wss), problems
}

// reloadWorkspace rebuilds the registries and loaders from the current
// settings and configs (a provider file changed) and re-checks every open
// document.
func (s *session) reloadWorkspace() (fresh []*Snapshot, problems []error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ws, problems := s.newWorkspace(s.current().settings.ProviderDirs, safefs.Limits{})
	return s.renew(nil, s.current().settings, ws, nil), problems
}

// reconfigure forgets the project configs found so far (a config file
// was created, changed or deleted) and re-checks every open document
// under the config that now governs it.
func (s *session) reconfigure() []*Snapshot {
	s.configs.Invalidate()
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.current()
	return s.renew(nil, v.settings, v.ws, v.wss)
}

// recheck gives the open documents with the given file paths new
// snapshots (same text and version), so that they are analysed again
// against changed children. It returns the new snapshots.
func (s *session) recheck(paths []string) []*Snapshot {
	if len(paths) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.current()
	return s.renew(func(snap *Snapshot) bool { return want[snap.Path] }, v.settings, v.ws, v.wss)
}

// renew replaces the snapshots that pick selects (all when nil) with
// successors under settings, placed again (config and workspace) among
// ws and the workspaces of wss that still apply; ws, settings and the
// workspaces in use become the view's. nil wss starts afresh from ws.
// Callers hold mu.
func (s *session) renew(pick func(*Snapshot) bool, settings *Settings, ws *workspace, wss map[string]*workspace) []*Snapshot {
	var fresh []*Snapshot
	old := s.view.Load()
	next := maps.Clone(wss)
	if next == nil {
		next = map[string]*workspace{}
	}
	next[ws.key()] = ws
	snaps := make(map[string]*Snapshot, len(old.snaps))
	for uri, snap := range old.snaps {
		if pick != nil && !pick(snap) {
			snaps[uri] = snap
			continue
		}
		snap.cancel()
		in := snap.init()
		in.settings = settings
		s.place(&in, next)
		succ := s.newSnapshot(in)
		snaps[uri] = succ
		fresh = append(fresh, succ)
	}
	// Drop the workspaces of configs no open document uses any more.
	used := map[*workspace]bool{ws: true}
	for _, snap := range snaps {
		used[snap.ws] = true
	}
	maps.DeleteFunc(next, func(_ string, w *workspace) bool { return !used[w] })
	s.view.Store(&view{snaps: snaps, settings: settings, ws: ws, wss: next})
	return fresh
}

// applyChangesAt applies LSP content changes to text, whose mapper is m.
// Each change's range is interpreted against the text as left by the
// previous change. It also returns where the new text differs from the
// old (the changes folded; a whole-document change narrowed to the
// bytes that differ, so that a client sending the whole text at every
// keystroke is spliced like any other).
func applyChangesAt(text source.Text, m *source.Mapper, changes []protocol.TextDocumentContentChangeEvent, enc source.Encoding) (source.Text, *source.Mapper, schema.Change, error) {
	var changed schema.Change
	for i, ch := range changes {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			next := source.NewText([]byte(c.Text))
			changed = changed.Then(syntax.EditOf(text, next, nil))
			text, m = next, nil
		case *protocol.TextDocumentContentChangePartial:
			if m == nil {
				m = source.NewMapperOf(text)
			}
			r, err := fromRange(m, c.Range, enc)
			if err != nil {
				return source.Text{}, nil, schema.Change{}, fmt.Errorf("change %d: %w", i, err)
			}
			next := text.Edit(r.Start, r.End, []byte(c.Text))
			delta := next.Len() - text.Len()
			// The next change's positions are in this text: its mapper is
			// the last one's with the edit indexed (Mapper.Edited), not a
			// scan of the whole text per keystroke.
			m = m.Edited(next, r.Start, r.End, r.End+delta)
			text = next
			changed = changed.Then(schema.Change{Start: r.Start, OldEnd: r.End, NewEnd: r.End + delta})
		default:
			return source.Text{}, nil, schema.Change{}, fmt.Errorf("change %d: unsupported change %T", i, ch)
		}
	}
	return text, m, changed, nil
}
