package lsp

import (
	"bytes"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/syntax"
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
		k, decided := s.keptKind()
		if !decided {
			k, decided = detectKind(s.analyzer, s.URI, s.Path, s.LanguageID, s.Content())
		}
		if decided {
			s.doc.decide(s.seq, k)
		} else if prev := s.doc.kind.Load(); prev != nil && prev.seq < s.seq {
			k = prev.kind
		}
		s.dialect = dialect.Of(k)
	})
	return s.dialect
}

// keptKind returns the previous parsed version's verdict on a Bluelink
// blueprint when the edit since it cannot have changed what detection
// reads (dialect.Detect), so that typing does not read the whole text:
//   - JSON and JSONC: the bytes the edit spans lie strictly inside the braces of a top-level
//     member's object value (a section) and tokenize alike
//     (sameStructure). Every string, comment and bracket outside the
//     edit then pairs as it did, so the top level (apiVersion, kind,
//     typeName, schema, version, the sections) reads the same;
//   - YAML: the edit lies after the first top-level key, and every line
//     it touches is indented (or empty) before and after it
//     (indentedLines): detection reads only the lines that start in
//     column 0, none of which changed, and the document's first byte
//     is the same;
//   - the blueprint language: its name decides.
func (s *Snapshot) keptKind() (dialect.Kind, bool) {
	prev, p := s.doc.kind.Load(), s.doc.lastParse(s.seq)
	if prev == nil || p == nil || prev.seq != p.seq || prev.kind != dialect.Bluelink {
		return 0, false
	}
	f := p.file
	if len(f.Diagnostics) > 0 || f.URI != s.URI {
		return 0, false
	}
	e := s.editSince(p.seq)
	root, ok := f.Root.(*schema.Mapping)
	old, cur := p.client, s.Text // the edit is the client's
	pads := paddingOf(f.Mapper)  // and the tree's offsets the parse's
	if e == nil || !ok || e.OldEnd > old.Len() || e.NewEnd > cur.Len() || cur.Len()-old.Len() != e.NewEnd-e.OldEnd {
		return 0, false
	}
	switch f.Format {
	case syntax.JSON, syntax.JSONC:
		if e.Start == 0 || !sameStructure(old.At(e.Start-1), old.Slice(e.Start, e.OldEnd), cur.Slice(e.Start, e.NewEnd)) {
			return 0, false
		}
		for _, en := range root.Entries {
			if m, ok := en.Value.(*schema.Mapping); ok {
				if r := m.Range(); pads.toClient(r.Start) < e.Start && e.OldEnd < pads.toClient(r.End) {
					return prev.kind, true
				}
			}
		}
	case syntax.YAML:
		if len(root.Entries) > 0 && e.Start > pads.toClient(root.Entries[0].Key.Rng.End) &&
			indentedLines(old, e.Start, e.OldEnd) && indentedLines(cur, e.Start, e.NewEnd) {
			return prev.kind, true
		}
	case syntax.BP:
		return prev.kind, true
	}
	return 0, false
}

// indentedLines reports whether every line holding the bytes [a, b) of
// t is indented (starts with a space or a tab) or empty, the first one
// before a: detection skips those lines whatever they hold.
func indentedLines(t source.Text, a, b int) bool {
	start := t.LastIndexAny(a, "\n") + 1
	if a <= start {
		return false
	}
	if c := t.At(start); c != ' ' && c != '\t' {
		return false
	}
	for i := t.IndexAny(a, "\n"); i >= 0 && i < b; i = t.IndexAny(i+1, "\n") {
		if i+1 >= t.Len() {
			break
		}
		switch t.At(i + 1) {
		case ' ', '\t', '\n':
		case '\r':
			if i+2 < t.Len() && t.At(i+2) != '\n' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// sameStructure reports whether two JSON or JSONC fragments, found
// between the same bytes, tokenize alike around their strings, comments
// and brackets: they hold the same brackets, quotes, backslashes,
// slashes and stars in the same order, each of the last three followed
// by the same byte (an escape, "//", "/*", "*/"), and the byte before
// them is none of those three.
func sameStructure(before byte, a, b []byte) bool {
	if before == '\\' || before == '/' || before == '*' {
		return false
	}
	const special = "{}[]\"\\/*"
	next := func(x []byte) (c, then byte, rest []byte) {
		i := bytes.IndexAny(x, special)
		if i < 0 {
			return 0, 0, nil
		}
		if c = x[i]; (c == '\\' || c == '/' || c == '*') && i+1 < len(x) {
			then = x[i+1]
		}
		return c, then, x[i+1:]
	}
	for {
		ca, ta, ra := next(a)
		cb, tb, rb := next(b)
		if ca != cb || ta != tb {
			return false
		}
		if ca == 0 {
			return true
		}
		a, b = ra, rb
	}
}

// detectKind is the dialect of the text content of the document with
// canonical uri and file path (may be ""), and whether the text decides
// it, as analyzer a sees it.
func detectKind(a Analyzer, uri, path, lang string, content []byte) (dialect.Kind, bool) {
	name := uri
	if path != "" {
		name = path
	}
	var k dialect.Kind
	var decided bool
	if d, ok := a.(Detector); ok {
		k, decided = d.Detect(name, lang, content)
	} else if k, decided = dialect.Detect(name, lang, content); k == dialect.Unknown {
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
		if found := s.transformDiagnostics(); len(found) > 0 {
			ds = append(slices.Clip(ds), found...) // transform.go
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
