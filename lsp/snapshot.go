package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/project"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// internalError reports a panic inside a language package as a diagnostic,
// so one bad file never takes the server down.
var internalError = source.NewCode("lsp-internal-error", source.Error,
	"The checker failed on this document; please report it with the document.", "")

// Snapshot is one version of one open document and everything derived from
// it. All fields are fixed at creation; the parsed file and the analysis
// are computed at most once, on first use, and then shared by every
// request and the diagnostics pipeline.
type Snapshot struct {
	URI        string // canonical; the session's key
	ClientURI  string // as the client spelled it in didOpen; used when talking to it
	Version    int32
	LanguageID string
	// Text is the document's text, exactly the client's, as the
	// versions share it by pieces (source.Text); Content gives it whole.
	// Positions in it convert with Lines; everything read from the
	// parse and the analysis is in the parse's coordinates (padding.go)
	// and converts with Mapper.
	Text source.Text
	// lines is Text's line table, made on first use (Lines) when the
	// snapshot was not given it.
	lines     *source.Mapper
	linesOnce sync.Once
	Settings  *Settings
	// Path is the document's file path ("" for non-file URIs); child
	// blueprints are resolved against it.
	Path string

	seq uint64 // session-wide creation order
	// edits say where Content differs from the texts of the document's
	// recent snapshots (editsThen): the syntax phase splices from the
	// newest parse told where the edit is (Reparser).
	edits []editFrom
	// directive is what is known of a suppression directive in Content:
	// directiveUnknown, directiveNone or directiveFound (hasDirective).
	directive atomic.Int32
	analyzer  Analyzer
	log       *slog.Logger
	ws        *workspace
	doc       *docState
	// analysed is told about every full-phase result that completed
	// under a live context (the include index listens).
	analysed func(*Snapshot, *Analysis)
	// noSlack: the parse is never padded (tests compare with it).
	noSlack bool

	// ctx is the snapshot's own background context (the one exception to
	// "never store a context"): it is cancelled when a newer snapshot
	// replaces this one, which aborts analysis nobody will look at.
	ctx    context.Context
	cancel context.CancelFunc

	fileOnce sync.Once
	file     *schema.File

	analysisOnce sync.Once
	analysis     *Analysis

	evalOnce sync.Once
	eval     *evaluation // inlay hints' evaluation scope (evaluate.go)

	transformOnce sync.Once
	transform     *analysis.Transformed // transform.go
	transformDone atomic.Bool           // transform is set

	dialectOnce sync.Once
	dialect     *dialect.Dialect

	manifestOnce  sync.Once
	manifestCheck *manifestCheck // a manifest's checked form (dialect.Manifest only)

	// cfg is the project config governing the document (nil: none);
	// policy is what its diagnostics get applied: cfg without the codes
	// the client's severity setting names (project.go).
	cfg, policy *project.Config
	// roots confine the document's includes and file() (security.md).
	roots *safefs.Roots

	configOnce  sync.Once
	configDiags []source.Diagnostic // a config document's own mistakes

	// afterAnalysis is called once the analysis is done (when the full
	// phase computed it, once its diagnostics are published:
	// analysisThen), or the snapshot superseded, whichever comes first
	// (nil: nothing to call; idempotent). The collector's hold of a cold
	// open (gcpace.go).
	afterAnalysis func()
}

// Lines returns the line table of the client's text. A snapshot opened
// with a new text makes it on first use rather than on the read loop,
// where the open's analysis waited for it (issue 36); the syntax phase
// makes it beside the parse (diagnostics.changed).
func (s *Snapshot) Lines() *source.Mapper {
	s.linesOnce.Do(func() {
		if s.lines == nil {
			s.lines = source.NewMapperOf(s.Text)
		}
	})
	return s.lines
}

// Content returns the document's text whole (joined on first use:
// source.Text.Bytes). Readers of a small part ask Text.Slice.
func (s *Snapshot) Content() []byte { return s.Text.Bytes() }

// docState is shared by every snapshot of one open document (from didOpen
// to didClose): the last analysis that had a usable tree.
type docState struct {
	good atomic.Pointer[goodResult]
	// kind is the last decided dialect, so that a manifest stays one
	// while its text is too broken to tell.
	kind atomic.Pointer[kindAt]
	// parsed is the newest version's parse, which the next version's
	// syntax phase starts from (Reparser); only one is kept.
	parsed atomic.Pointer[parsedAt]
}

// parsedAt is a snapshot's parse with the snapshot's creation order and
// the client's text it was parsed from.
type parsedAt struct {
	seq    uint64
	file   *schema.File
	client source.Text
	// carry is the padding a parse that has none (one with syntax
	// errors) hands on to the next whole parse, in the client's
	// coordinates (padWhole).
	carry []source.Slack
}

// lastParse returns the newest parse of a version older than seq, or nil.
func (d *docState) lastParse(seq uint64) *parsedAt {
	if p := d.parsed.Load(); p != nil && p.seq < seq {
		return p
	}
	return nil
}

// keepParse records p as the document's newest parse unless a newer one
// is already there.
func (d *docState) keepParse(p *parsedAt) {
	for {
		old := d.parsed.Load()
		if old != nil && old.seq >= p.seq {
			return
		}
		if d.parsed.CompareAndSwap(old, p) {
			return
		}
	}
}

// kindAt is a snapshot's verdict on its document's kind, with the
// snapshot's creation order.
type kindAt struct {
	seq  uint64
	kind dialect.Kind
}

// goodResult is a full-phase Result whose text parsed, with the creation
// order of its snapshot so that an older one never replaces a newer one.
type goodResult struct {
	seq uint64
	res *analysis.Result
}

// keep records res as the document's last good Result unless a newer one
// is already there.
func (d *docState) keep(seq uint64, res *analysis.Result) {
	for {
		old := d.good.Load()
		if old != nil && old.seq >= seq {
			return
		}
		if d.good.CompareAndSwap(old, &goodResult{seq: seq, res: res}) {
			return
		}
	}
}

// snapshotInit is everything a new snapshot is built from.
type snapshotInit struct {
	uri, clientURI string
	version        int32
	lang           string
	text           source.Text
	mapper         *source.Mapper // text's, when known (nil: made from text)
	settings       *Settings
	ws             *workspace
	project        *project.Config
	roots          *safefs.Roots
	doc            *docState
	// noDirective: the text is known to hold no suppression directive
	// (the previous version's held none and the edit typed none).
	noDirective bool
	// edits are the new snapshot's Snapshot.edits (none: a new text).
	edits   []editFrom
	noSlack bool
	// analysed, when not nil, is called once the snapshot's analysis is
	// done or the snapshot is superseded (Snapshot.afterAnalysis).
	analysed func()
}

func newSnapshot(parent context.Context, a Analyzer, log *slog.Logger, in snapshotInit, seq uint64, analysed func(*Snapshot, *Analysis)) *Snapshot {
	ctx, cancel := context.WithCancel(parent)
	if in.doc == nil {
		in.doc = &docState{}
	}
	snap := &Snapshot{
		URI: in.uri, ClientURI: in.clientURI, Version: in.version, LanguageID: in.lang,
		Text: in.text, lines: in.mapper, Settings: in.settings, noSlack: in.noSlack,
		Path: uriPath(in.clientURI),
		seq:  seq, analyzer: a, log: log, ws: in.ws, doc: in.doc, analysed: analysed,
		ctx: ctx, cancel: cancel, cfg: in.project, roots: in.roots, policy: policyFor(in.project, in.settings),
		edits: in.edits,
	}
	if in.noDirective {
		snap.directive.Store(directiveNone)
	}
	if in.analysed != nil {
		snap.afterAnalysis = in.analysed
		context.AfterFunc(ctx, in.analysed)
	}
	return snap
}

// init returns the snapshotInit of a successor with the same text.
func (s *Snapshot) init() snapshotInit {
	return snapshotInit{uri: s.URI, clientURI: s.ClientURI, version: s.Version, lang: s.LanguageID,
		text: s.Text, mapper: s.Lines(), settings: s.Settings, ws: s.ws, project: s.cfg, roots: s.roots, doc: s.doc,
		noDirective: s.directiveState() == directiveNone, edits: s.editsThen(schema.Change{}), noSlack: s.noSlack}
}

// What a snapshot knows of the suppression directive in its text
// (Snapshot.directive).
const (
	directiveUnknown int32 = iota
	directiveNone
	directiveFound
)

// directiveState is what the snapshot knows of its text's suppression
// directive so far, without looking.
func (s *Snapshot) directiveState() int32 { return s.directive.Load() }

// hasDirective reports whether the text holds a suppression directive,
// looking at most once per snapshot (a whole-text scan, which a version
// whose predecessor held none and whose edit typed none skips).
func (s *Snapshot) hasDirective() bool {
	st := s.directive.Load()
	if st == directiveUnknown {
		st = directiveNone
		if project.HasDirective(s.Content()) {
			st = directiveFound
		}
		s.directive.Store(st)
	}
	return st == directiveFound
}

// manifest returns the document's manifest check, running it at most
// once per snapshot; only a dialect.Manifest document asks. It is cheap
// enough for the syntax phase.
func (s *Snapshot) manifest() *manifestCheck {
	s.manifestOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				s.manifestCheck = &manifestCheck{diagnostics: []source.Diagnostic{s.panicDiagnostic("manifest check", r)}}
			}
		}()
		s.manifestCheck = checkManifest(s.Content())
	})
	return s.manifestCheck
}

// decide records a snapshot's verdict on the document's kind unless a
// newer snapshot's is already there.
func (d *docState) decide(seq uint64, k dialect.Kind) {
	for {
		old := d.kind.Load()
		if old != nil && old.seq >= seq {
			return
		}
		if d.kind.CompareAndSwap(old, &kindAt{seq: seq, kind: k}) {
			return
		}
	}
}

// syntaxDiagnostics are what the syntax phase publishes: the parse
// problems of a blueprint, or all of a manifest's (see dialect.go).
func (s *Snapshot) syntaxDiagnostics() []source.Diagnostic { return s.kind().syntax(s) }

// File returns the parsed document (the syntax phase), computed at
// most once per snapshot, in the parse's coordinates (padding.go).
func (s *Snapshot) File() *schema.File {
	s.fileOnce.Do(func() {
		var carry []source.Slack
		defer func() {
			if r := recover(); r != nil {
				s.file, carry = &schema.File{URI: s.URI, Text: s.Text, Mapper: s.Lines(),
					Diagnostics: []source.Diagnostic{s.panicDiagnostic("parse", r)}}, nil
			}
			s.doc.keepParse(&parsedAt{seq: s.seq, file: s.file, client: s.Text, carry: carry})
		}()
		s.file, carry = s.parse()
		if s.file == nil {
			s.file = &schema.File{URI: s.URI, Text: s.Text, Mapper: s.Lines()}
		}
	})
	return s.file
}

// Mapper converts the positions of everything read from the snapshot's
// parse and analysis: the parse's mapper, which skips its padding. A
// document that is never padded (not a Bluelink blueprint) needs no
// parse for it.
func (s *Snapshot) Mapper() *source.Mapper {
	if s.noSlack || s.Dialect().Kind != dialect.Bluelink {
		return s.Lines()
	}
	return s.File().Mapper
}

// Analysis returns the full-phase result, computing it on first use under
// the snapshot's own context. Callers that are cancelled still wait for a
// computation already running; it is abandoned only when the snapshot is
// superseded.
func (s *Snapshot) Analysis() *Analysis {
	a, then := s.analysisThen()
	then()
	return a
}

// analysisThen is Analysis leaving the call of afterAnalysis, when this
// call computed the analysis, to the caller (then; a no-op otherwise):
// the full phase publishes the open's diagnostics first, since
// releasing the collector held through a cold open starts a collection
// at once, which competed with converting, encoding and sending them
// (issue 36).
func (s *Snapshot) analysisThen() (a *Analysis, then func()) {
	then = func() {}
	s.analysisOnce.Do(func() {
		s.analysis = s.kind().analyse(s)
		if s.afterAnalysis != nil {
			then = s.afterAnalysis
		}
	})
	return s.analysis, then
}

// env is what the analyzer may read besides the document.
func (s *Snapshot) env() Env {
	e := Env{Settings: s.Settings, Path: s.Path, Roots: s.roots}
	if s.ws != nil {
		e.Registry, e.Loader = s.ws.registry, s.ws.loader
	}
	if g := s.doc.good.Load(); g != nil && g.seq < s.seq {
		e.Prev = g.res
	}
	return e
}

// Result returns the Result features should read: this version's when its
// text parsed, otherwise the last one of the document that did, with
// stale set. It is nil only when analysis produced nothing at all.
func (s *Snapshot) Result() (res *analysis.Result, stale bool) {
	if !s.Dialect().Blueprint {
		return nil, false // no blueprint features
	}
	a := s.Analysis()
	cur := a.Result
	if cur != nil && cur.Blueprint != nil && !cur.File.HasSyntaxErrors() {
		return cur, false
	}
	if g := s.doc.good.Load(); g != nil && g.seq < s.seq {
		return g.res, true
	}
	return cur, false
}

// Registry returns the provider registry this snapshot was analysed with
// (nil: the built-in providers).
func (s *Snapshot) Registry() *registry.Registry {
	if s.ws == nil {
		return nil
	}
	return s.ws.registry
}

// superseded reports whether a newer snapshot replaced this one.
func (s *Snapshot) superseded() bool { return s.ctx.Err() != nil }

func (s *Snapshot) panicDiagnostic(phase string, r any) source.Diagnostic {
	s.log.Error("panic in language package", "phase", phase, "uri", s.URI, "version", s.Version,
		"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return internalError.New(source.R(0, 0), "internal error during %s: %v", phase, fmt.Sprint(r))
}
