package ide

import (
	"bytes"
	"slices"

	"github.com/blueprint-ls/blueprint-ls/analysis"
	"github.com/blueprint-ls/blueprint-ls/dialect"
	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// The semantic token legend: the server announces these lists and tokens
// carry indexes into them.
var (
	TokenTypes     = []string{"namespace", "type", "class", "struct", "parameter", "variable", "property", "function", "string", "number", "keyword", "operator", "enumMember"}
	TokenModifiers = []string{"declaration", "readonly", "deprecated", "defaultLibrary"}
)

// Token type indexes into TokenTypes.
const (
	TokNamespace = iota
	TokType
	TokClass
	TokStruct
	TokParameter
	TokVariable
	TokProperty
	TokFunction
	TokString
	TokNumber
	TokKeyword
	TokOperator
	TokEnumMember
)

// Token modifier bits, in TokenModifiers order.
const (
	ModDeclaration uint32 = 1 << iota
	ModReadonly
	ModDeprecated
	ModDefaultLibrary
)

// SemanticToken is one classified range, absolute; lsp encodes the
// deltas. Tokens never span lines.
type SemanticToken struct {
	Range     source.Range
	Type      int
	Modifiers uint32
}

// symbolToken is how references to, and the key of, each kind of
// definition are highlighted.
var symbolToken = map[analysis.SymbolKind]int{
	analysis.VariableSymbol: TokParameter, analysis.ValueSymbol: TokVariable, analysis.DataSourceSymbol: TokStruct,
	analysis.DataSourceFieldSymbol: TokProperty, analysis.ResourceSymbol: TokClass, analysis.ChildSymbol: TokNamespace,
	analysis.ExportSymbol: TokProperty,
}

var namespaceToken = map[subst.Namespace]int{
	subst.Variables: TokParameter, subst.Values: TokVariable, subst.DataSources: TokStruct,
	subst.Resources: TokClass, subst.Children: TokNamespace, subst.Elem: TokKeyword, subst.Index: TokKeyword,
}

// SemanticTokens classifies keys, definition names, type names and every
// token inside ${..}, sorted and without overlaps. A non-nil within limits
// the result to tokens that intersect it.
func SemanticTokens(res *analysis.Result, within *source.Range) []SemanticToken {
	if res == nil || res.File == nil || res.File.Root == nil {
		return nil
	}
	w := newTokenWalk(res, within)
	w.out = make([]SemanticToken, 0, res.File.Text.Len()/8)
	w.node(res.File.Root, "", 0)
	return sortTokens(w.out)
}

// tokenWalk colours a syntax tree. It tracks the top-level key and the
// depth of every node: definition types (section.name.type) are
// highlighted as types.
type tokenWalk struct {
	res    *analysis.Result
	ix     *Index
	within *source.Range
	// The text is read a token at a time: joining it would keep a copy
	// of the whole text alive with the version (3 MB at 5,000 resources).
	text source.Text
	out  []SemanticToken
	// unit, when set, is offered every definition's entry; when it
	// takes one, the walk leaves the entry's tokens to it.
	unit func(s *analysis.Symbol, e *schema.Entry, top string) bool
}

func newTokenWalk(res *analysis.Result, within *source.Range) *tokenWalk {
	return &tokenWalk{res: res, ix: indexFor(res), within: within, text: res.File.Text}
}

// add records r as a token, split at line breaks: clients without
// multiline support need it.
func (w *tokenWalk) add(r source.Range, typ int, mods uint32) {
	if r.Len() <= 0 || w.within != nil && (r.End < w.within.Start || r.Start > w.within.End) {
		return
	}
	start := r.Start
	for b := w.text.Slice(r.Start, r.End); ; {
		k := bytes.IndexByte(b[start-r.Start:], '\n')
		if k < 0 {
			break
		}
		if i := start + k; i > start {
			w.out = append(w.out, SemanticToken{Range: source.R(start, i), Type: typ, Modifiers: mods})
		}
		start += k + 1
	}
	if r.End > start {
		w.out = append(w.out, SemanticToken{Range: source.R(start, r.End), Type: typ, Modifiers: mods})
	}
}

// node colours n, a node at depth under the top-level key top.
func (w *tokenWalk) node(n schema.Node, top string, depth int) {
	switch n := n.(type) {
	case *schema.Mapping:
		if w.within != nil && (n.Rng.End < w.within.Start || n.Rng.Start > w.within.End) {
			return
		}
		for _, e := range n.Entries {
			if e.Key == nil {
				continue
			}
			t := top
			if depth == 0 {
				t = e.Key.Value
			}
			if depth == 1 && w.unit != nil && w.offer(e, t) {
				continue
			}
			w.entry(e, t, depth)
		}
	case *schema.Sequence:
		for _, it := range n.Items {
			w.node(it, top, depth+1)
		}
	case *schema.Scalar:
		if site := w.ix.siteOf(n); site != nil {
			siteTokens(w.res, site, w.add)
		}
	}
}

// entry colours e, an entry at depth under top: its key (definition
// names are declarations of their kind) and its value.
func (w *tokenWalk) entry(e *schema.Entry, top string, depth int) {
	text := w.text
	if s := w.ix.symbolAt(e.Key.Rng.Start); s != nil && s.NameRange == e.Key.Rng {
		mods := ModDeclaration
		if s.Secret {
			mods |= ModReadonly
		}
		w.add(e.Key.ValueRange(), symbolToken[s.Kind], mods)
	} else if kr := e.Key.ValueRange(); depth == 0 && w.res.File.Format == schema.BP {
		w.add(kr, TokKeyword, 0) // version, transform, metadata, and the declaration keywords
	} else if string(text.Slice(kr.Start, kr.End)) == e.Key.Value {
		w.add(kr, TokProperty, 0)
	} else if kr.Len() > 0 && isWordByte(text.At(kr.Start)) {
		// The blueprint language writes some keys as keywords
		// (`resource` for resources, `foreach` for each) and
		// some not at all (`type` is the ':').
		w.add(kr, TokKeyword, 0)
	}
	if sc, ok := e.Value.(*schema.Scalar); ok && depth == 2 && e.Key.Value == "type" && dialect.SectionOf(top) != dialect.NoSection {
		w.add(sc.ValueRange(), TokType, 0)
		return
	}
	if e.Value != nil {
		w.node(e.Value, top, depth+1)
	}
}

// sortTokens sorts out by start, stably, and drops overlaps, keeping the
// first.
func sortTokens(out []SemanticToken) []SemanticToken {
	slices.SortStableFunc(out, func(a, b SemanticToken) int { return a.Range.Start - b.Range.Start })
	w := 0
	for _, t := range out {
		if w > 0 && t.Range.Start < out[w-1].Range.End {
			continue
		}
		out[w] = t
		w++
	}
	return out[:w]
}

// siteTokens classifies the tokens of a site's substitutions.
func siteTokens(res *analysis.Result, site *analysis.Site, add func(source.Range, int, uint32)) {
	type classed struct {
		start, typ int
		mods       uint32
	}
	var class []classed // few per site: a slice beats a map
	mark := func(r source.Range, typ int, mods uint32) {
		if r.Len() > 0 {
			class = append(class, classed{r.Start, typ, mods})
		}
	}
	lookup := func(start int) (classed, bool) {
		for _, c := range class {
			if c.start == start {
				return c, true
			}
		}
		return classed{}, false
	}
	ix := indexFor(res)
	visit := func(e subst.Expr) bool {
		switch x := e.(type) {
		case *subst.Ref:
			if !x.Bare {
				mark(x.KeywordRange(), TokKeyword, 0)
			}
			typ := namespaceToken[x.Namespace]
			var mods uint32
			if ref := ix.refAt(x.Rng.Start); ref != nil && ref.Expr == x && ref.Target != nil && ref.Target.Secret {
				mods |= ModReadonly
			}
			if x.Bare && len(x.Path) == 0 && res.Lookup(analysis.ResourceSymbol, x.Name) == nil {
				typ, mods = TokFunction, ModDefaultLibrary // a function passed by name
			}
			mark(x.NameRange(), typ, mods)
			for _, a := range x.Path {
				if n, r := accessorText(a); n != "" {
					mark(r, TokProperty, 0)
				}
			}
		case *subst.Call:
			mark(x.NameRange, TokFunction, ModDefaultLibrary)
			for _, a := range x.Args {
				if a.Name != "" {
					mark(a.NameRange, TokParameter, 0)
				}
			}
			for _, a := range x.Path {
				if n, r := accessorText(a); n != "" {
					mark(r, TokProperty, 0)
				}
			}
		}
		return true
	}
	subst.WalkTemplate(site.Template, visit)
	if site.Kind == analysis.SiteExportField {
		// No lexed tokens: the field was parsed as a bare reference.
		for _, p := range site.Template.Parts {
			if s, ok := p.(*subst.Sub); ok {
				subst.Walk(s.Expr, func(e subst.Expr) bool {
					if r, ok := e.(*subst.Ref); ok {
						if !r.Bare {
							add(r.KeywordRange(), TokKeyword, 0)
						}
						add(r.NameRange(), namespaceToken[r.Namespace], 0)
						for _, a := range r.Path {
							if n, rr := accessorText(a); n != "" {
								add(rr, TokProperty, 0)
							}
						}
					}
					return true
				})
			}
		}
		return
	}
	for _, t := range site.Template.Tokens() {
		if c, ok := lookup(t.Range.Start); ok && (t.Kind == subst.TokIdent || t.Kind == subst.TokString) {
			add(t.Range, c.typ, c.mods)
			continue
		}
		switch t.Kind {
		case subst.TokIdent:
			add(t.Range, TokKeyword, 0) // true, false, none
		case subst.TokString:
			add(t.Range, TokString, 0)
		case subst.TokInt, subst.TokFloat:
			add(t.Range, TokNumber, 0)
		case subst.TokInvalid:
		default:
			add(t.Range, TokOperator, 0)
		}
	}
}
