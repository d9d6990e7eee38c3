package lsp

import (
	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// The editor checks a blueprint as its transformer plugins make it, in
// the full phase, after the analysis: the problems of the resources a
// transformer made are published on the abstract resources they came
// from, a transformer that fails is one diagnostic on the transform
// field. Only a document whose transform a loaded transformer
// implements pays for it; the runner keeps its answers by text, so a
// version whose text was transformed before launches nothing.

// transformed is the snapshot's blueprint as its transformers made it,
// analysed; nil when no transformer applies. Computed once per snapshot.
func (s *Snapshot) transformed() *analysis.Transformed {
	s.transformOnce.Do(func() {
		if s.ws == nil || s.ws.transformer == nil || s.Dialect().Kind != dialect.Bluelink {
			return
		}
		res := s.Analysis().Result
		if res == nil || res.Repaired != nil {
			return
		}
		defer func() {
			if r := recover(); r != nil {
				s.transform = &analysis.Transformed{Diagnostics: []source.Diagnostic{s.panicDiagnostic("transform", r)}}
			}
		}()
		opts := analysis.Options{Path: s.Path, Registry: s.ws.registry, Loader: s.ws.loader, Roots: s.roots}
		s.transform = analysis.AnalyzeTransformed(s.ctx, res, opts, s.ws.transformer)
	})
	return s.transform
}

// transformDiagnostics are the transformed blueprint's diagnostics on
// the source (see transformed); none when superseded.
func (s *Snapshot) transformDiagnostics() []source.Diagnostic {
	t := s.transformed()
	if t == nil || s.ctx.Err() != nil {
		return nil
	}
	return t.Diagnostics
}
