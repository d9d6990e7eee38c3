package ide

import (
	"path/filepath"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// target is a definition together with the Result that declares it.
type target struct {
	res *analysis.Result
	sym *analysis.Symbol
}

// occurrence is one place a definition is named: its key (Decl) or a
// reference.
type occurrence struct {
	res   *analysis.Result
	rng   source.Range
	decl  bool
	write bool // the definition itself
}

// targetAt finds the definition named at off: a definition's key, a
// reference's name or field, a resource named as text (dependsOn,
// exclude, link("name")), an include's
// variables key (the child's variable).
func targetAt(res *analysis.Result, off int) (target, source.Range, bool) {
	if res == nil || res.File == nil || res.File.Root == nil {
		return target{}, source.Range{}, false
	}
	ix := indexFor(res)
	if ref := ix.refAt(off); ref != nil {
		e := ref.Expr
		if ref.Field != nil && ref.FieldRange.Contains(off) {
			owner := res
			if ref.Field.Kind == analysis.ExportSymbol {
				ch := res.Children[e.Name]
				if ch == nil || ch.Result == nil {
					return target{}, source.Range{}, false
				}
				owner = ch.Result
			}
			return target{owner, ref.Field}, ref.FieldRange, true
		}
		if ref.Target != nil && e.NameRange().Contains(off) && e.Name != "" {
			return target{res, ref.Target}, e.NameRange(), true
		}
	}
	if n := ix.nameRefAt(off); n != nil {
		return target{res, n.Target}, n.Range, true
	}
	if s := ix.symbolAt(off); s != nil {
		return target{res, s}, s.NameRange, true
	}
	path := treePath(res.File.Root, off)
	if len(path) == 0 {
		return target{}, source.Range{}, false
	}
	p := segs(path)
	last := path[len(path)-1]
	if last.OnKey && len(p) == 4 && inSection(p, dialect.Include) && p[2] == "variables" {
		if ch := res.Children[p[1]]; ch != nil && ch.Result != nil {
			if v := ch.Result.Lookup(analysis.VariableSymbol, p[3]); v != nil {
				return target{ch.Result, v}, last.Entry.Key.Rng, true
			}
		}
	}
	return target{}, source.Range{}, false
}

// Definition returns where the thing at offset is defined: the
// definition's key (in a child blueprint for children.x.export and an
// include's variables), or the included file for an include's path.
func Definition(res *analysis.Result, offset int) []Location {
	if t, _, ok := targetAt(res, offset); ok {
		return []Location{locationOf(t.res, t.sym.NameRange)}
	}
	if res == nil || res.File == nil || res.File.Root == nil {
		return nil
	}
	path := treePath(res.File.Root, offset)
	p := segs(path)
	if len(p) == 3 && inSection(p, dialect.Include) && p[2] == "path" && !path[len(path)-1].OnKey {
		if ch := res.Children[p[1]]; ch != nil {
			if ch.Result != nil {
				return []Location{locationOf(ch.Result, source.Range{})}
			}
			if ch.Path != "" {
				return []Location{{URI: ch.Path, Path: ch.Path}}
			}
		}
	}
	return nil
}

// sameDoc reports whether two Results are analyses of the same document.
func sameDoc(a, b *analysis.Result) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.Path != "" && b.Path != "" {
		return filepath.Clean(a.Path) == filepath.Clean(b.Path)
	}
	return a.URI == b.URI
}

// sameSymbol reports whether two symbols (of two analyses of one
// document, possibly) are the same definition.
func sameSymbol(a, b *analysis.Symbol) bool {
	if a == b {
		return true
	}
	if a.Kind != b.Kind || a.Name != b.Name {
		return false
	}
	if (a.Parent == nil) != (b.Parent == nil) {
		return false
	}
	return a.Parent == nil || a.Parent.Name == b.Parent.Name
}

// occurrences lists every place t is named in the open set: its
// declaration, the references in its own document, and — across files —
// children.x.export in parents for an export and an include's variables
// key in parents for a variable.
func occurrences(t target, open []*analysis.Result) []occurrence {
	docs := map[*analysis.Result]bool{}
	var all []*analysis.Result
	add := func(r *analysis.Result) {
		if r != nil && r.File != nil && !docs[r] {
			docs[r] = true
			all = append(all, r)
		}
	}
	add(t.res)
	for _, r := range open {
		add(r)
	}
	var out []occurrence
	seen := map[[3]int]bool{}
	emit := func(o occurrence) {
		// One per document and range: a Result and an open buffer's
		// Result of the same file give the same occurrence twice.
		k := [3]int{docID(all, o.res), o.rng.Start, o.rng.End}
		if !seen[k] {
			seen[k] = true
			out = append(out, o)
		}
	}
	for _, r := range all {
		if !sameDoc(r, t.res) {
			continue
		}
		sym := t.sym
		if r != t.res {
			sym = lookupSame(r, t.sym)
			if sym == nil {
				continue
			}
		}
		emit(occurrence{res: r, rng: declRange(sym), decl: true, write: true})
		for _, ref := range refsTo(r, sym) {
			if ref.Field == sym {
				emit(occurrence{res: r, rng: ref.FieldRange})
			} else if ref.Target == sym {
				emit(occurrence{res: r, rng: ref.Expr.NameRange()})
			}
		}
		for _, n := range r.NameRefsTo(sym) {
			emit(occurrence{res: r, rng: n.Range})
		}
	}
	// Parents: every open Result including t's document.
	if t.sym.Kind == analysis.ExportSymbol || t.sym.Kind == analysis.VariableSymbol {
		for _, r := range all {
			for name, ch := range r.Children {
				if ch.Result == nil || !sameDoc(ch.Result, t.res) {
					continue
				}
				if t.sym.Kind == analysis.VariableSymbol {
					inc := r.Lookup(analysis.ChildSymbol, name)
					if inc == nil {
						continue
					}
					if m := inc.Include.Variables.Mapping(); m != nil {
						if e := m.Entry(t.sym.Name); e != nil {
							emit(occurrence{res: r, rng: e.Key.ValueRange()})
						}
					}
					continue
				}
				inc := r.Lookup(analysis.ChildSymbol, name)
				if inc == nil {
					continue // a child's export is read through its include's symbol
				}
				for _, ref := range refsTo(r, inc) {
					if ref.Expr.Namespace == subst.Children && ref.Expr.Name == name && ref.FieldName == t.sym.Name && ref.Field != nil {
						emit(occurrence{res: r, rng: ref.FieldRange})
					}
				}
			}
		}
	}
	return out
}

// refsTo returns the references to sym in r by where their expressions
// start (among equal starts, in the order of References): read from the
// records of the units naming sym (analysis.Result.ReferencesTo), so a
// highlight on the version an edit made reads those units, not tables
// over the whole document.
func refsTo(r *analysis.Result, sym *analysis.Symbol) []*analysis.Reference {
	refs := r.ReferencesTo(sym)
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].Expr.Rng.Start < refs[j].Expr.Rng.Start })
	return refs
}

func docID(all []*analysis.Result, r *analysis.Result) int {
	for i, o := range all {
		if sameDoc(o, r) {
			return i
		}
	}
	return -1
}

// lookupSame finds in r the symbol matching s (declared in another
// analysis of the same document).
func lookupSame(r *analysis.Result, s *analysis.Symbol) *analysis.Symbol {
	if s.Kind == analysis.DataSourceFieldSymbol {
		for _, o := range r.Symbols() {
			if sameSymbol(o, s) {
				return o
			}
		}
		return nil
	}
	return r.Lookup(s.Kind, s.Name)
}

// References returns every place the definition at offset is named in
// res and the other open Results (parents and children), the
// declaration included when includeDecl is set.
func References(res *analysis.Result, offset int, includeDecl bool, open []*analysis.Result) []Location {
	t, _, ok := targetAt(res, offset)
	if !ok {
		return nil
	}
	var out []Location
	for _, o := range occurrences(t, append([]*analysis.Result{res}, open...)) {
		if o.decl && !includeDecl {
			continue
		}
		out = append(out, locationOf(o.res, o.rng))
	}
	return out
}

// HighlightKind says whether a highlight is the definition (write) or a
// use (read).
type HighlightKind int

const (
	HighlightRead HighlightKind = iota + 1
	HighlightWrite
)

// Highlight is one occurrence in the current document.
type Highlight struct {
	Range source.Range
	Kind  HighlightKind
}

// DocumentHighlight returns the occurrences, in res's own document, of the
// definition at offset.
func DocumentHighlight(res *analysis.Result, offset int) []Highlight {
	t, _, ok := targetAt(res, offset)
	if !ok {
		return nil
	}
	var out []Highlight
	for _, o := range occurrences(t, []*analysis.Result{res}) {
		if o.res != res {
			continue
		}
		k := HighlightRead
		if o.write {
			k = HighlightWrite
		}
		out = append(out, Highlight{Range: o.rng, Kind: k})
	}
	return out
}

// declRange is the text of a definition's name without quotes.
func declRange(s *analysis.Symbol) source.Range {
	var d *schema.Def
	switch {
	case s.Variable != nil:
		d = &s.Variable.Def
	case s.Value != nil:
		d = &s.Value.Def
	case s.DataSource != nil:
		d = &s.DataSource.Def
	case s.Field != nil:
		d = &s.Field.Def
	case s.Resource != nil:
		d = &s.Resource.Def
	case s.Include != nil:
		d = &s.Include.Def
	case s.Export != nil:
		d = &s.Export.Def
	}
	if d != nil && d.Entry != nil && d.Entry.Key != nil {
		return d.Entry.Key.ValueRange()
	}
	return s.NameRange
}
