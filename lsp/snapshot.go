package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"

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
	Content    []byte
	Mapper     *source.Mapper
	Settings   *Settings

	seq      uint64 // session-wide creation order
	analyzer Analyzer
	log      *slog.Logger

	// ctx is the snapshot's own background context (the one exception to
	// "never store a context"): it is cancelled when a newer snapshot
	// replaces this one, which aborts analysis nobody will look at.
	ctx    context.Context
	cancel context.CancelFunc

	fileOnce sync.Once
	file     *schema.File

	analysisOnce sync.Once
	analysis     *Analysis
}

func newSnapshot(parent context.Context, a Analyzer, log *slog.Logger, uri, clientURI string, version int32, lang string, content []byte, settings *Settings, seq uint64) *Snapshot {
	ctx, cancel := context.WithCancel(parent)
	return &Snapshot{
		URI: uri, ClientURI: clientURI, Version: version, LanguageID: lang,
		Content: content, Mapper: source.NewMapper(content), Settings: settings,
		seq: seq, analyzer: a, log: log, ctx: ctx, cancel: cancel,
	}
}

// File returns the parsed document (the syntax phase).
func (s *Snapshot) File() *schema.File {
	s.fileOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				s.file = &schema.File{URI: s.URI, Content: s.Content, Mapper: s.Mapper,
					Diagnostics: []source.Diagnostic{s.panicDiagnostic("parse", r)}}
			}
		}()
		s.file = s.analyzer.Parse(s.URI, s.Content)
		if s.file == nil {
			s.file = &schema.File{URI: s.URI, Content: s.Content, Mapper: s.Mapper}
		}
	})
	return s.file
}

// Analysis returns the full-phase result, computing it on first use under
// the snapshot's own context. Callers that are cancelled still wait for a
// computation already running; it is abandoned only when the snapshot is
// superseded.
func (s *Snapshot) Analysis() *Analysis {
	s.analysisOnce.Do(func() {
		f := s.File()
		defer func() {
			if r := recover(); r != nil {
				ds := append([]source.Diagnostic(nil), f.Diagnostics...)
				s.analysis = &Analysis{Diagnostics: append(ds, s.panicDiagnostic("analysis", r))}
			}
		}()
		s.analysis = s.analyzer.Analyze(s.ctx, f, s.Settings)
		if s.analysis == nil {
			s.analysis = &Analysis{Diagnostics: f.Diagnostics}
		}
	})
	return s.analysis
}

// superseded reports whether a newer snapshot replaced this one.
func (s *Snapshot) superseded() bool { return s.ctx.Err() != nil }

func (s *Snapshot) panicDiagnostic(phase string, r any) source.Diagnostic {
	s.log.Error("panic in language package", "phase", phase, "uri", s.URI, "version", s.Version,
		"panic", fmt.Sprint(r), "stack", string(debug.Stack()))
	return internalError.New(source.R(0, 0), "internal error during %s: %v", phase, fmt.Sprint(r))
}
