package lsp

import (
	"context"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/providers/registry"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Analyzer is the seam between the server and the language packages. The
// server never looks inside a blueprint except through what these two
// phases return.
type Analyzer interface {
	// Parse is the syntax phase: cheap, run at once for every version. The
	// file's Diagnostics are published immediately.
	Parse(uri string, content []byte) *schema.File
	// Analyze is the full phase, started when the version arrives (after
	// the user's debounceMs, if set) and only while it is current. Its
	// Diagnostics replace the syntax phase's, so they must include the
	// file's syntax diagnostics. ctx is cancelled when the version is
	// superseded; Analyze should then return early (its result is
	// discarded).
	Analyze(ctx context.Context, f *schema.File, env Env) *Analysis
}

// Reparser is an Analyzer whose syntax phase can start from an older
// version's parse. Splice returns what Parse would for content, reusing
// prev (that older version's parse), where edit says prev.Text and
// content may differ; nil when it cannot (the server then parses the
// client's text whole).
type Reparser interface {
	Splice(prev *schema.File, content source.Text, edit schema.Change) *schema.File
}

// MappedParser is an Analyzer whose syntax phase can take the line table
// the server made of the text already (Snapshot.Lines): ParseMapped
// returns what Parse of m's text would, with m as the File's mapper.
// A server holds that table for every version, and making it again for
// the parse was a pass over a large text and a megabyte or two per
// open (issue 36).
type MappedParser interface {
	ParseMapped(uri string, m *source.Mapper) *schema.File
}

// Detector is an Analyzer that also says which dialect a document is
// (dialect.Detect). The server asks it once per version; with an Analyzer
// that is not a Detector, every document other than a project config or a
// Cloud Assembly manifest is a blueprint.
type Detector interface {
	Detect(name, lang string, content []byte) (k dialect.Kind, decided bool)
}

// Env is what the full phase may read besides the document: the settings,
// the document's file path, and the session's workspace (provider
// registry and child loader).
type Env struct {
	Settings *Settings
	// Path is the document's file path; "" for non-file URIs, whose
	// includes are then left unchecked.
	Path string
	// Registry is nil for the built-in providers.
	Registry *registry.Registry
	// Loader loads child blueprints, open buffers first; nil leaves
	// includes unchecked.
	Loader *analysis.Loader
	// Roots confine include paths to the project; nil confines nothing.
	Roots *safefs.Roots
	// Prev is the document's last complete analysis of text that parsed
	// (an older version's), which the full phase may start from; nil
	// when there is none.
	Prev *analysis.Result
}

// Analysis is the immutable result of the full phase for one version.
// Features read it from Snapshot.Analysis, or through Snapshot.Result
// which falls back to the last good Result while the text is broken.
type Analysis struct {
	// Diagnostics are all problems of the version, syntax ones included.
	Diagnostics []source.Diagnostic
	// Blueprint is the typed spec view (nil from analyzers that skip it).
	Blueprint *schema.Blueprint
	// Result is the analysis package's Result (nil from test analyzers).
	Result *analysis.Result
}

// defaultAnalyzer is the production Analyzer.
type defaultAnalyzer struct{}

func (defaultAnalyzer) Parse(uri string, content []byte) *schema.File {
	return schema.Parse(uri, content)
}

func (defaultAnalyzer) ParseMapped(uri string, m *source.Mapper) *schema.File {
	return schema.ParseMapped(uri, m)
}

// Splice splices the edited entry of a YAML or JSON document, or the
// edited statement of a blueprint-language one, into the older
// version's tree (schema.SpliceAt, which takes only what Parse would
// read in the same format).
func (defaultAnalyzer) Splice(prev *schema.File, content source.Text, edit schema.Change) *schema.File {
	return schema.SpliceAt(prev, content, edit)
}

func (defaultAnalyzer) Detect(name, lang string, content []byte) (dialect.Kind, bool) {
	return dialect.Detect(name, lang, content)
}

func (defaultAnalyzer) Analyze(ctx context.Context, f *schema.File, env Env) *Analysis {
	opts := analysis.Options{Path: env.Path, Loader: env.Loader, Registry: env.Registry, Roots: env.Roots, Repair: true}
	if env.Path == "" {
		opts.Loader = nil // relative include paths mean nothing without a file
	}
	res := analysis.AnalyzeIncremental(ctx, env.Prev, f, opts)
	return &Analysis{Diagnostics: res.Diagnostics, Blueprint: res.Blueprint, Result: res}
}
