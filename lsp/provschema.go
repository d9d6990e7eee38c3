package lsp

import (
	"slices"

	"github.com/blueprint-ls/blueprint-ls/ide"
	"github.com/blueprint-ls/blueprint-ls/providers/resschema"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// featureDoc is a docKind with completion and hover of its own, not the
// blueprint features (the server asks it through the dispatch table).
type featureDoc interface {
	completion(s *Snapshot, off int) []ide.CompletionItem
	hover(s *Snapshot, off int) *ide.HoverInfo
}

// viewDoc is a docKind that also answers definition, semantic tokens
// and code lenses itself (a Landscaper document).
type viewDoc interface {
	definition(s *Snapshot, off int) []ide.Location
	tokens(s *Snapshot) []ide.SemanticToken
	codeLenses(s *Snapshot) []ide.CodeLens
}

// providerSchemaDoc is a CloudFormation resource schema of a provider
// directory: the syntax phase publishes the parser's diagnostics, the
// full phase adds the meta-schema's (package resschema); the project
// config's policy does not apply. Completion and hover cover the
// meta-schema's keywords.
type providerSchemaDoc struct{}

func (providerSchemaDoc) syntax(s *Snapshot) []source.Diagnostic { return s.File().Diagnostics }

func (providerSchemaDoc) analyse(s *Snapshot) *Analysis {
	return s.guarded("provider schema check", func(f *schema.File) []source.Diagnostic {
		return append(slices.Clone(f.Diagnostics), resschema.Check(f, resschema.Options{})...)
	})
}

// guarded is the full phase of a dialect checked by one function of
// another package: a panic in it becomes a diagnostic (naming what) beside
// the syntax ones, rather than the end of the server.
func (s *Snapshot) guarded(what string, check func(f *schema.File) []source.Diagnostic) (a *Analysis) {
	f := s.File()
	defer func() {
		if r := recover(); r != nil {
			ds := append([]source.Diagnostic(nil), f.Diagnostics...)
			a = &Analysis{Diagnostics: append(ds, s.panicDiagnostic(what, r))}
		}
	}()
	return &Analysis{Diagnostics: check(f)}
}

func (providerSchemaDoc) project(_ *Snapshot, ds []source.Diagnostic, _ bool) []source.Diagnostic {
	return ds
}

func (providerSchemaDoc) completion(s *Snapshot, off int) []ide.CompletionItem {
	return ide.SchemaKeywordCompletion(s.Content(), off)
}

func (providerSchemaDoc) hover(s *Snapshot, off int) *ide.HoverInfo {
	return ide.SchemaKeywordHover(s.File(), off)
}
