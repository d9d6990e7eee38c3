package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/providers/pluginhost"
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
		defer s.transformDone.Store(true)
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
		s.transform = analysis.AnalyzeTransformed(s.ctx, res, opts, s.transformer())
	})
	return s.transform
}

// transformer is the workspace's transformer runner with the deploy
// configuration found for the document (its transformer configuration
// and context variables); nil when there is none.
func (s *Snapshot) transformer() analysis.Transformer {
	var dir string
	if s.Path != "" {
		dir = filepath.Dir(s.Path)
	}
	cfg, _ := deployConfig(s.Settings, dir, s.roots)
	transformers, vars := cfg.TransformerParams()
	return s.ws.transformer.With(pluginhost.Params{Transformers: transformers, Context: vars})
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

// transformHover appends, to the hover of an abstract resource (its
// name, or a reference to it), the resources its transformer made of it.
// It never waits for a transformer: until the full phase has transformed
// the snapshot, nothing is appended.
func transformHover(snap *Snapshot, res *analysis.Result, off int, h *ide.HoverInfo) {
	if !snap.transformDone.Load() {
		return
	}
	t := snap.transform
	var sym *analysis.Symbol
	if ref := res.ReferenceAt(off); ref != nil {
		sym = ref.Target
	} else {
		sym = res.SymbolAt(off)
	}
	if t == nil || sym == nil || sym.Kind != analysis.ResourceSymbol {
		return
	}
	names, types := t.MadeFrom(sym.Name)
	if len(names) == 0 {
		return
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("`%s` (%s)", n, types[i])
	}
	h.Markdown += "\n\n---\n\nTransformed into " + strings.Join(parts, ", ")
}
