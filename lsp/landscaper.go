package lsp

import (
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/landscaper"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// landscaperDoc is a Landscaper blueprint or installation template:
// checked by package landscaper in the full phase (the files it
// references are read from its folder); the syntax phase publishes the
// parser's diagnostics. The project config's suppressions and severity
// overrides apply as to a Bluelink blueprint.
type landscaperDoc struct{}

func (landscaperDoc) syntax(s *Snapshot) []source.Diagnostic { return s.File().Diagnostics }

func (landscaperDoc) analyse(s *Snapshot) *Analysis {
	return s.guarded("Landscaper check", func(f *schema.File) []source.Diagnostic {
		opts := landscaper.Options{}
		if s.Path != "" {
			opts.Dir = filepath.Dir(s.Path)
		}
		return landscaper.Check(f, opts).Diagnostics
	})
}

func (landscaperDoc) project(s *Snapshot, ds []source.Diagnostic, full bool) []source.Diagnostic {
	return s.applyPolicy(ds, full)
}

// landscaperDependents are the paths of the open Landscaper documents
// whose folder holds path: an execution or subinstallation file they
// reference may have changed, so they are checked again.
func landscaperDependents(v *view, path string) []string {
	var out []string
	for _, snap := range v.snaps {
		if snap.Path == "" || snap.Dialect().Kind != dialect.Landscaper {
			continue
		}
		if safefs.Within(filepath.Dir(snap.Path), path) {
			out = append(out, snap.Path)
		}
	}
	return out
}
