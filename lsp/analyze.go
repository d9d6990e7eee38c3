package lsp

import (
	"context"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// Analyzer is the seam between the server and the language packages. The
// server never looks inside a blueprint except through what these two
// phases return, so wiring in a new stage (the analysis package) means
// changing defaultAnalyzer.Analyze and adding a field to Analysis.
type Analyzer interface {
	// Parse is the syntax phase: cheap, run at once for every version. The
	// file's Diagnostics are published immediately.
	Parse(uri string, content []byte) *schema.File
	// Analyze is the full phase, run after the debounce on the current
	// version only. Its Diagnostics replace the syntax phase's, so they
	// must include the file's syntax diagnostics. ctx is cancelled when
	// the version is superseded.
	Analyze(ctx context.Context, f *schema.File, settings *Settings) *Analysis
}

// Analysis is the immutable result of the full phase for one version.
// Features read it from Snapshot.Analysis.
type Analysis struct {
	// Diagnostics are all problems of the version, syntax ones included.
	Diagnostics []source.Diagnostic
	// Blueprint is the typed spec view (nil from analyzers that skip it).
	Blueprint *schema.Blueprint
	// TODO(#7): Result *analysis.Result once the analysis package lands;
	// hover, completion, definition, ... read it.
}

// defaultAnalyzer is the production Analyzer.
type defaultAnalyzer struct{}

func (defaultAnalyzer) Parse(uri string, content []byte) *schema.File {
	return schema.Parse(uri, content)
}

// Analyze is the one function to change when the analysis package lands:
// call analysis.Analyze(ctx, f, registry, loader) and keep its Result.
func (defaultAnalyzer) Analyze(ctx context.Context, f *schema.File, settings *Settings) *Analysis {
	bp, ds := schema.Load(f)
	all := make([]source.Diagnostic, 0, len(f.Diagnostics)+len(ds))
	all = append(all, f.Diagnostics...)
	all = append(all, ds...)
	source.SortDiagnostics(all)
	return &Analysis{Diagnostics: all, Blueprint: bp}
}
