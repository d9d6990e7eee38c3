package lsp

import (
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
	"slices"
)

// The server branches on the kind of document here and nowhere else: a
// snapshot's dialect (decided once, by package dialect) selects one
// docKind, which says what its diagnostics are in each phase and how the
// project config applies to them; features ask Dialect().Blueprint.

// docKind is what the server does with the documents of one dialect.
type docKind interface {
	// syntax is what the syntax phase publishes.
	syntax(s *Snapshot) []source.Diagnostic
	// analyse computes the full phase (Snapshot.Analysis calls it once).
	analyse(s *Snapshot) *Analysis
	// project applies the project config to ds, one phase's diagnostics.
	project(s *Snapshot, ds []source.Diagnostic, full bool) []source.Diagnostic
}

// docKinds is the dispatch table.
var docKinds = map[dialect.Kind]docKind{
	dialect.Bluelink:       blueprintDoc{},
	dialect.Manifest:       manifestDoc{},
	dialect.Config:         configDoc{},
	dialect.Landscaper:     landscaperDoc{},
	dialect.ProviderSchema: providerSchemaDoc{},
	dialect.Unknown:        unknownDoc{},
}

// Dialect returns the document's dialect, decided at most once per
// snapshot from its name and content. While the text is too broken to
// tell, the document's previous verdict stands (a manifest stays one
// while it is being typed); a document never seen before is a blueprint.
func (s *Snapshot) Dialect() *dialect.Dialect {
	s.dialectOnce.Do(func() {
		k, decided := detectKind(s.analyzer, s.URI, s.Path, s.LanguageID, s.Content)
		if decided {
			s.doc.decide(s.seq, k)
		} else if prev := s.doc.kind.Load(); prev != nil && prev.seq < s.seq {
			k = prev.kind
		}
		s.dialect = dialect.Of(k)
	})
	return s.dialect
}

// detectKind is the dialect of the text content of the document with
// canonical uri and file path (may be ""), and whether the text decides
// it, as analyzer a sees it.
func detectKind(a Analyzer, uri, path, lang string, content []byte) (dialect.Kind, bool) {
	name := uri
	if path != "" {
		name = path
	}
	k, decided := dialect.Detect(name, lang, content)
	if d, ok := a.(Detector); ok {
		k, decided = d.Detect(name, lang, content)
	} else if k == dialect.Unknown {
		k = dialect.Bluelink // this analyzer knows no other dialect
	}
	if k == dialect.Config && !isConfigFile(path) {
		k = dialect.Bluelink // only a file on disk is a project config
	}
	return k, decided
}

// kind is the snapshot's entry in the dispatch table.
func (s *Snapshot) kind() docKind { return docKinds[s.Dialect().Kind] }

// blueprintDoc is a Bluelink blueprint: parsed, analysed, the project
// config applied.
type blueprintDoc struct{}

func (blueprintDoc) syntax(s *Snapshot) []source.Diagnostic { return s.File().Diagnostics }

func (blueprintDoc) analyse(s *Snapshot) *Analysis {
	f := s.File()
	a := func() (a *Analysis) {
		defer func() {
			if r := recover(); r != nil {
				ds := append([]source.Diagnostic(nil), f.Diagnostics...)
				a = &Analysis{Diagnostics: append(ds, s.panicDiagnostic("analysis", r))}
			}
		}()
		return s.analyzer.Analyze(s.ctx, f, s.env())
	}()
	if a == nil {
		a = &Analysis{Diagnostics: f.Diagnostics}
	}
	if s.ctx.Err() != nil {
		return a // possibly partial; nobody will read it
	}
	if res := a.Result; res != nil && res.Blueprint != nil && !res.File.HasSyntaxErrors() && res.Repaired == nil {
		s.doc.keep(s.seq, res)
	}
	if s.analysed != nil {
		s.analysed(s, a)
	}
	return a
}

func (blueprintDoc) project(s *Snapshot, ds []source.Diagnostic, full bool) []source.Diagnostic {
	if full {
		if found := s.ruleDiagnostics(); len(found) > 0 {
			ds = append(slices.Clip(ds), found...) // rules.go
		}
	}
	return s.applyPolicy(ds, full)
}

// manifestDoc is a Cloud Assembly manifest: all of its problems come from
// assembly.CheckManifest, in both phases; the project config does not
// apply.
type manifestDoc struct{}

func (manifestDoc) syntax(s *Snapshot) []source.Diagnostic { return s.manifest().diagnostics }
func (manifestDoc) analyse(s *Snapshot) *Analysis {
	return &Analysis{Diagnostics: s.manifest().diagnostics}
}
func (manifestDoc) project(_ *Snapshot, ds []source.Diagnostic, _ bool) []source.Diagnostic {
	return ds
}

// configDoc is an open .blueprint-ls.yaml: its diagnostics are the
// config's own mistakes.
type configDoc struct{}

func (configDoc) syntax(s *Snapshot) []source.Diagnostic { return s.configDiagnostics() }
func (configDoc) analyse(s *Snapshot) *Analysis {
	return &Analysis{Diagnostics: s.configDiagnostics()}
}
func (configDoc) project(s *Snapshot, _ []source.Diagnostic, _ bool) []source.Diagnostic {
	return s.configDiagnostics()
}

// unknownDoc is a document of no known dialect (a GitHub workflow opened
// by an editor that attaches the server to every YAML file): no
// diagnostics, and no blueprint features.
type unknownDoc struct{}

func (unknownDoc) syntax(*Snapshot) []source.Diagnostic { return nil }
func (unknownDoc) analyse(*Snapshot) *Analysis          { return &Analysis{} }
func (unknownDoc) project(*Snapshot, []source.Diagnostic, bool) []source.Diagnostic {
	return nil
}
