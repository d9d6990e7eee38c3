package analysis

import (
	"slices"
	"sync"

	"github.com/blueprint-ls/blueprint-ls/internal/chunked"
)

// A Result keeps what checking made by unit (units.go) and by resource
// (declRecs); the flat lists the features read (Sites, References, ...)
// are joined from them the first time one is asked for. An edit that
// carries most units over therefore costs nothing per unit it did not
// touch: the next version shares the records, and nobody joins lists
// that no feature reads.

// flatLists are a Result's records joined in document order.
type flatLists struct {
	symsOnce sync.Once
	symbols  []*Symbol
	once     sync.Once
	sites    []*Site
	refs     []*Reference
	calls    []*Call
	names    []*NameRef
	edges    []*Edge
	links    []*LinkSelection
}

// declRecs are what resource resolveLinks made of one resource: the
// resources its dependsOn and linkSelector.exclude name (names, in that
// order), the dependsOn edges (edges), and its link selection (link, nil
// when it has no selector that selects). They name symbols by index
// (link) or point at this version's symbols (names, edges); the next
// version shares them when they name only symbols it shares.
type declRecs struct {
	names []*NameRef
	edges []*Edge
	link  *linkRecord
}

// Symbols returns every definition's symbol: variables, values, data
// sources (each after its exported fields), resources, includes and
// exports, each kind in declaration order. A symbol's place in it is
// the same in two versions that declare the same names.
func (r *Result) Symbols() []*Symbol {
	f := &r.flat
	f.symsOnce.Do(func() {
		f.symbols = make([]*Symbol, r.syms.Len())
		for i := range f.symbols {
			f.symbols[i] = r.syms.At(i)
		}
	})
	return f.symbols
}

// Sites returns every string scalar that may hold substitutions, unit by
// unit in declaration order, the blueprint's metadata last.
func (r *Result) Sites() []*Site { return r.lists().sites }

// References returns the references of every site, grouped by site in
// the order of Sites.
func (r *Result) References() []*Reference { return r.lists().refs }

// Calls returns the function calls of every site, in the order of Sites.
func (r *Result) Calls() []*Call { return r.lists().calls }

// NameRefs returns the resources named as text, resolved names only:
// the link("name") arguments in the order of Sites, then each resource's
// dependsOn and linkSelector.exclude names, in declaration order.
func (r *Result) NameRefs() []*NameRef { return r.lists().names }

// Edges returns the dependencies: the references' and link() names', in
// the order of Sites, then each resource's dependsOn names'.
func (r *Result) Edges() []*Edge { return r.lists().edges }

// Links returns the link selections of the resources that have one, in
// declaration order.
func (r *Result) Links() []*LinkSelection { return r.lists().links }

// LinkGraph returns the links of the blueprint (selections and
// activating references whose resources a link type joins), in the order
// of the resources making them.
func (r *Result) LinkGraph() []*Link {
	r.linkOnce.Do(func() {
		r.linkGraph = r.links
		for k, l := range r.links {
			if c := currentLink(r.syms, l); c != l {
				if &r.linkGraph[0] == &r.links[0] {
					r.linkGraph = slices.Clone(r.links)
				}
				r.linkGraph[k] = c
			}
		}
	})
	return r.linkGraph
}

// currentLink is l naming this version's symbols: l itself, or a copy
// when l was taken over from a version in which a resource it names was
// checked again (keptLinks); a selector's link then sits at its
// selector's byLabel key as it is now.
func currentLink(syms chunked.Vec[*Symbol], l *Link) *Link {
	res := func(t *Symbol) *Symbol {
		if c := current(syms, t); c != nil {
			return c
		}
		return t
	}
	from, to, origin := res(l.From), res(l.To), res(l.Origin)
	if from == l.From && to == l.To && origin == l.Origin {
		return l
	}
	c := *l
	c.From, c.To, c.Origin = from, to, origin
	if origin != l.Origin && !l.Activated {
		c.At = origin.Resource.LinkSelector.ByLabel.KeyRange()
	}
	return &c
}

func (r *Result) lists() *flatLists {
	r.flat.once.Do(r.join)
	return &r.flat
}

// current returns the symbol of syms that t, named by a record, stands
// for: t itself when syms declares it, the value (or resource) at its
// place when t is its predecessor (a record shared from an earlier
// version names it: planSharing), else nil (nil, or a symbol of another
// blueprint: a child's export).
func current(syms chunked.Vec[*Symbol], t *Symbol) *Symbol {
	if t == nil || t.index >= syms.Len() {
		return nil
	}
	if s := syms.At(t.index); s == t || successorKind(t.Kind) && s.Kind == t.Kind && s.Name == t.Name {
		return s
	}
	return nil
}

// successorKind reports whether a symbol of kind k may stand for its
// successor: a backdated value's readers share their records (planSharing),
// and links are taken over across a resource checked again (keptLinks).
// Other kinds are never named across versions, and a record may name a
// child's export, whose place means nothing here.
func successorKind(k SymbolKind) bool { return k == ValueSymbol || k == ResourceSymbol }

// stale reports whether t is a backdated value's predecessor, which
// current replaces.
func stale(syms chunked.Vec[*Symbol], t *Symbol) bool {
	s := current(syms, t)
	return s != nil && s != t
}

// currentRef is r naming this version's symbols: r itself, or a copy
// when a shared record names a backdated value's predecessor.
func currentRef(syms chunked.Vec[*Symbol], r *Reference) *Reference {
	if !stale(syms, r.Target) && !stale(syms, r.Field) {
		return r
	}
	c := *r
	if stale(syms, r.Target) {
		c.Target = current(syms, r.Target)
	}
	if stale(syms, r.Field) {
		c.Field = current(syms, r.Field)
	}
	return &c
}

// currentName is currentRef for a name's target.
func currentName(syms chunked.Vec[*Symbol], n *NameRef) *NameRef {
	if !stale(syms, n.Target) {
		return n
	}
	c := *n
	c.Target = current(syms, n.Target)
	return &c
}

// currentEdge is currentRef for an edge's target.
func currentEdge(syms chunked.Vec[*Symbol], e *Edge) *Edge {
	if !stale(syms, e.To) {
		return e
	}
	c := *e
	c.To = current(syms, e.To)
	return &c
}

// join makes the flat lists.
func (r *Result) join() {
	f := &r.flat
	add := func(u *unitRecs) {
		if u == nil {
			return
		}
		f.sites = append(f.sites, u.sites...)
		for _, ref := range u.refs {
			f.refs = append(f.refs, currentRef(r.syms, ref))
		}
		f.calls = append(f.calls, u.calls...)
		for _, n := range u.names {
			f.names = append(f.names, currentName(r.syms, n))
		}
	}
	for i := range r.units.Len() {
		add(r.units.At(i))
	}
	add(r.doc)
	for i := range r.decl.Len() {
		d := r.decl.At(i)
		if d == nil {
			continue
		}
		f.names = append(f.names, d.names...)
		if d.link != nil {
			f.links = append(f.links, r.linkSelection(i, d.link))
		}
	}
	f.edges = joinEdges(r.syms, r.units, r.doc, r.decl)
}

// joinEdges joins the edges of the units' records, the document level's
// and each resource's dependsOn edges, in that order: Result.Edges, and
// what the cycle check walks before the result is returned.
func joinEdges(syms chunked.Vec[*Symbol], units chunked.Vec[*unitRecs], doc *unitRecs, decl chunked.Vec[*declRecs]) []*Edge {
	var out []*Edge
	for i := range units.Len() {
		if u := units.At(i); u != nil {
			for _, e := range u.edges {
				out = append(out, currentEdge(syms, e))
			}
		}
	}
	if doc != nil {
		out = append(out, doc.edges...)
	}
	for i := range decl.Len() {
		if d := decl.At(i); d != nil {
			out = append(out, d.edges...)
		}
	}
	return out
}

// linkSelection makes the selection rec records for resource i.
func (r *Result) linkSelection(i int, rec *linkRecord) *LinkSelection {
	ls := &LinkSelection{From: r.syms.At(i), Selected: make([]*Symbol, len(rec.selected))}
	for k, t := range rec.selected {
		ls.Selected[k] = r.syms.At(t)
	}
	return ls
}
