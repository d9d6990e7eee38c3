package lsp

import (
	"path/filepath"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/internal/safefs"
	"github.com/blueprint-ls/blueprint-ls/landscaper"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
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

// completion, hover (featureDoc), definition, tokens and code lenses of
// a Landscaper document come from package landscaper.

func (landscaperDoc) completion(s *Snapshot, off int) []ide.CompletionItem {
	kinds := map[landscaper.CompletionKind]ide.ItemKind{
		landscaper.CompleteField: ide.ItemProperty, landscaper.CompleteImport: ide.ItemVariable,
		landscaper.CompleteLocalType: ide.ItemType, landscaper.CompleteValue: ide.ItemEnum,
	}
	var out []ide.CompletionItem
	for _, c := range landscaper.Complete(s.File(), off) {
		out = append(out, ide.CompletionItem{Label: c.Label, Kind: kinds[c.Kind], Detail: c.Detail, Documentation: c.Doc, InsertText: c.Label, ReplaceRange: c.Replace})
	}
	return out
}

func (landscaperDoc) hover(s *Snapshot, off int) *ide.HoverInfo {
	if h := landscaper.Hover(s.File(), off); h != nil {
		return &ide.HoverInfo{Markdown: h.Markdown, Range: h.Range}
	}
	return nil
}

func (landscaperDoc) definition(s *Snapshot, off int) []ide.Location {
	dir := ""
	if s.Path != "" {
		dir = filepath.Dir(s.Path)
	}
	var out []ide.Location
	for _, t := range landscaper.Definition(s.File(), off, dir) {
		if t.Path != "" {
			out = append(out, ide.Location{Path: t.Path, Mapper: source.NewMapper(nil)})
			continue
		}
		out = append(out, ide.Location{URI: s.URI, Path: s.Path, Range: t.Range, Mapper: s.Mapper()})
	}
	return out
}

// landscaperTokens maps package landscaper's token kinds onto the legend.
var landscaperTokens = map[landscaper.TokenKind]int{
	landscaper.TokenKeyword: ide.TokKeyword, landscaper.TokenFunction: ide.TokFunction, landscaper.TokenImport: ide.TokParameter,
	landscaper.TokenVariable: ide.TokVariable, landscaper.TokenString: ide.TokString, landscaper.TokenNumber: ide.TokNumber,
}

func (landscaperDoc) tokens(s *Snapshot) []ide.SemanticToken {
	var out []ide.SemanticToken
	for _, t := range landscaper.Tokens(s.File()) {
		out = append(out, ide.SemanticToken{Range: t.Range, Type: landscaperTokens[t.Kind]})
	}
	return out
}

func (landscaperDoc) codeLenses(s *Snapshot) []ide.CodeLens {
	root, _ := s.File().Tree()
	m, _ := root.(*syntax.Mapping)
	if k, ok := m.Get("kind").(*syntax.Scalar); !ok || k.Value != "Blueprint" {
		return nil // an installation template renders as part of its blueprint
	}
	return []ide.CodeLens{{Range: source.R(0, 0), Title: "Preview render", Command: commandRender}}
}
