package ide

import (
	"sort"
	"strings"
	"unicode"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/source"
)

// SymbolKind is the kind of a document or workspace symbol; lsp maps it to
// the protocol's SymbolKind.
type SymbolKind int

const (
	SymbolSection    SymbolKind = iota + 1 // a top-level section (namespace)
	SymbolVariable                         // variable
	SymbolValue                            // constant
	SymbolDataSource                       // struct
	SymbolField                            // field (data source export)
	SymbolResource                         // object
	SymbolChild                            // module
	SymbolExport                           // property
	SymbolProperty                         // property: a scalar top-level entry of a syntax outline
	SymbolLink                             // event: a link a resource makes (its linkSelector or an activating reference)
)

var symbolKinds = map[analysis.SymbolKind]SymbolKind{
	analysis.VariableSymbol: SymbolVariable, analysis.ValueSymbol: SymbolValue, analysis.DataSourceSymbol: SymbolDataSource,
	analysis.DataSourceFieldSymbol: SymbolField, analysis.ResourceSymbol: SymbolResource, analysis.ChildSymbol: SymbolChild,
	analysis.ExportSymbol: SymbolExport,
}

// DocumentSymbol is one node of the outline: Range covers the whole
// definition, SelectionRange its name.
type DocumentSymbol struct {
	Name           string
	Detail         string
	Kind           SymbolKind
	Range          source.Range
	SelectionRange source.Range
	Children       []DocumentSymbol
}

// DocumentSymbols returns the outline: each section with its definitions
// (resources with their type as detail, data sources with their fields).
func DocumentSymbols(res *analysis.Result) []DocumentSymbol {
	if res == nil || res.Blueprint == nil || res.Blueprint.Root == nil {
		return nil
	}
	bySection := map[analysis.SymbolKind][]DocumentSymbol{}
	fields := map[*analysis.Symbol][]DocumentSymbol{}
	for _, s := range res.Symbols() {
		if s.Kind == analysis.DataSourceFieldSymbol && s.Parent != nil {
			fields[s.Parent] = append(fields[s.Parent], DocumentSymbol{Name: s.Name, Detail: s.Detail(), Kind: SymbolField, Range: s.Range, SelectionRange: s.NameRange})
		}
	}
	for _, l := range res.LinkGraph() {
		fields[l.Origin] = append(fields[l.Origin], linkSymbol(l))
	}
	for _, s := range res.Symbols() {
		if s.Kind == analysis.DataSourceFieldSymbol {
			continue
		}
		bySection[s.Kind] = append(bySection[s.Kind], DocumentSymbol{Name: s.Name, Detail: s.Detail(), Kind: symbolKinds[s.Kind],
			Range: s.Range, SelectionRange: s.NameRange, Children: fields[s]})
	}
	var out []DocumentSymbol
	for _, e := range res.Blueprint.Root.Entries {
		if e.Key == nil {
			continue
		}
		k, ok := sectionSymbol[dialect.SectionOf(e.Key.Value)]
		if !ok {
			continue
		}
		out = append(out, DocumentSymbol{Name: e.Key.Value, Kind: SymbolSection, Range: entryRange(e), SelectionRange: e.Key.Rng, Children: bySection[k]})
	}
	return out
}

// linkSymbol is a link under the resource making it, named after the
// resource at its other end, at the linkSelector or reference making it.
func linkSymbol(l *analysis.Link) DocumentSymbol {
	other, dir := l.To, "→"
	if other == l.Origin {
		other, dir = l.From, "←"
	}
	how := "linkSelector"
	if l.Activated {
		how = "reference"
	}
	return DocumentSymbol{Name: dir + " " + other.Name, Detail: "link " + l.Def.From + " → " + l.Def.To + " (" + how + ")",
		Kind: SymbolLink, Range: l.At, SelectionRange: l.At}
}

// WorkspaceSymbol is a definition found by a workspace query.
type WorkspaceSymbol struct {
	Name      string
	Detail    string
	Kind      SymbolKind
	Container string // the section
	Location  Location
	score     int
}

// WorkspaceSymbols returns the definitions of results whose names match
// query fuzzily (its characters in order, case-insensitively), best
// matches first.
//
// others are documents of another dialect (Landscaper blueprints): the
// named definitions of their outline, below its top-level sections,
// match the same way.
func WorkspaceSymbols(results []*analysis.Result, query string, others ...OutlineDoc) []WorkspaceSymbol {
	var out []WorkspaceSymbol
	for _, d := range others {
		for _, section := range d.Symbols {
			out = outlineMatches(out, d, section.Children, section.Name, query)
		}
	}
	for _, res := range results {
		if res == nil || res.File == nil {
			continue
		}
		for _, s := range res.Symbols() {
			score, ok := fuzzy(query, s.Name)
			if !ok {
				continue
			}
			container := s.Kind.Namespace()
			if s.Parent != nil {
				container = s.Parent.Name
			}
			out = append(out, WorkspaceSymbol{Name: s.Name, Detail: s.Detail(), Kind: symbolKinds[s.Kind], Container: container,
				Location: locationOf(res, s.NameRange), score: score})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// OutlineDoc is a document whose outline workspace/symbol searches.
type OutlineDoc struct {
	URI, Path string
	Mapper    *source.Mapper
	Symbols   []DocumentSymbol
}

// outlineMatches adds the symbols of syms (and their children) whose
// names match query.
func outlineMatches(out []WorkspaceSymbol, d OutlineDoc, syms []DocumentSymbol, container, query string) []WorkspaceSymbol {
	for _, s := range syms {
		if score, ok := fuzzy(query, s.Name); ok {
			out = append(out, WorkspaceSymbol{Name: s.Name, Detail: s.Detail, Kind: s.Kind, Container: container,
				Location: Location{URI: d.URI, Path: d.Path, Range: s.SelectionRange, Mapper: d.Mapper}, score: score})
		}
		out = outlineMatches(out, d, s.Children, s.Name, query)
	}
	return out
}

// fuzzy matches query's characters in order in name. The score favours
// exact and prefix matches, matches at word starts and contiguous runs.
func fuzzy(query, name string) (int, bool) {
	if query == "" {
		return 0, true
	}
	q, n := strings.ToLower(query), strings.ToLower(name)
	switch {
	case q == n:
		return 1000, true
	case strings.HasPrefix(n, q):
		return 500 - len(n), true
	case strings.Contains(n, q):
		return 300 - len(n), true
	}
	score, qi, prev := 0, 0, -2
	for i := 0; i < len(n) && qi < len(q); i++ {
		if n[i] != q[qi] {
			continue
		}
		if i == prev+1 {
			score += 5
		}
		if i == 0 || unicode.IsUpper(rune(name[i])) || name[i-1] == '_' || name[i-1] == '-' {
			score += 10
		}
		prev = i
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	return score - len(n), true
}
