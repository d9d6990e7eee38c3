package analysis

import (
	"bytes"
	"context"
	"regexp"
	"sort"

	"github.com/blueprint-ls/blueprint-ls/schema"
	"github.com/blueprint-ls/blueprint-ls/source"
	"github.com/blueprint-ls/blueprint-ls/subst"
)

// AnalyzeIncremental is Analyze for the next version of prev's document:
// the result is the one Analyze gives, but the definitions whose results
// cannot have changed are not checked again. Their types, references,
// calls and own diagnostics are carried over from prev, moved by how far
// the edit moved their text. A definition is carried over when its text
// is unchanged, every definition it depends on (directly or through
// others) is unchanged too, it neither is nor uses an include, and its
// diagnostics name no position outside it. When any namespace's names
// changed (a definition added, removed or renamed), the options differ,
// or either version had syntax errors, everything is checked again.
// Document-wide checks (unused names, cycles, links, data source order)
// always run, over the carried-over references.
func AnalyzeIncremental(ctx context.Context, prev *Result, f *schema.File, opts Options) *Result {
	opts.prev = prev
	return Analyze(ctx, f, opts)
}

// carried is a definition whose results come from the previous version.
type carried struct {
	prev  *Symbol
	delta int // how far its text moved
}

// reuseState is what the analyzer knows of the previous version while
// carrying definitions over.
type reuseState struct {
	prev  *Result
	units map[*Symbol]carried
	// the records made while checking each of the previous version's
	// sites, indexed by the site's index (Site.index).
	refs     grouped[*Reference]
	calls    grouped[*Call]
	links    grouped[*NameRef]
	linkEdge grouped[*Edge]
	// added counts the sites collected so far per carried-over unit.
	added map[*Symbol]int
	found []*schema.Scalar // sharedSites' buffer
	moved subst.Mover      // carves the moved templates from slabs
}

// sitesOf returns the previous version's sites of the carried-over unit
// c, in ordinal order.
func (rs *reuseState) sitesOf(c carried) []*Site { return rs.prev.byOwner[c.prev] }

// grouped holds records grouped by the previous version's site they
// belong to: those of site i are items[ends[i]:ends[i+1]].
type grouped[T any] struct {
	ends  []int32
	items []T
}

// of returns the records of the site with index i.
func (g grouped[T]) of(i int) []T {
	if i+1 >= len(g.ends) {
		return nil
	}
	return g.items[g.ends[i]:g.ends[i+1]:g.ends[i+1]]
}

// bySite groups items by the previous version's site each belongs to
// (site returns nil for one that belongs to none): a counting sort into
// one backing array instead of a map of slices.
func bySite[T any](sites []*Site, items []T, site func(T) *Site) grouped[T] {
	at := func(it T) int {
		s := site(it)
		if s == nil || s.index >= len(sites) || sites[s.index] != s {
			return -1
		}
		return s.index
	}
	ends := make([]int32, len(sites)+1)
	for _, it := range items {
		if i := at(it); i >= 0 {
			ends[i+1]++
		}
	}
	for i := 1; i < len(ends); i++ {
		ends[i] += ends[i-1]
	}
	backing := make([]T, ends[len(sites)])
	// ends[i] serves as site i's cursor and ends up at the next site's
	// start; shifting by one restores the starts.
	for _, it := range items {
		if i := at(it); i >= 0 {
			backing[ends[i]] = it
			ends[i]++
		}
	}
	copy(ends[1:], ends[:len(sites)])
	ends[0] = 0
	return grouped[T]{ends: ends, items: backing}
}

// documentWide are the codes of the checks that look at the whole
// document (unused names, cycles, links, includes, the order data sources
// resolve in, duplicate keys): they run over indexes on every version and
// are never carried over.
var documentWide = map[string]bool{
	codeUnusedVariable.ID: true, codeUnusedValue.ID: true, codeUnusedDataSource.ID: true,
	codeCycle.ID: true, codeDataSourceDependency.ID: true,
	codeLinkNoMatch.ID: true, codeLinkUnsupported.ID: true,
	codeIncludeBroken.ID: true, codeIncludeCycle.ID: true, codeIncludeMissing.ID: true,
	codeIncludeMissingVariable.ID: true, codeIncludeNotChecked.ID: true,
	codeIncludeOutside.ID: true, codeIncludeVariableType.ID: true,
	"spec-duplicate-key": true,
}

// positionInMessage matches a line:column a message names ("started at
// 84:52"): such a message is not carried over to a unit that moved lines.
var positionInMessage = regexp.MustCompile(`\b\d+:\d+\b`)

// planReuse decides which definitions are carried over; it runs after
// declare, before any site is checked.
func (a *analyzer) planReuse() {
	prev := a.opts.prev
	if prev == nil || !prev.complete || prev.Blueprint == nil || prev.Repaired != nil || prev.File == nil ||
		prev.reg != a.reg || prev.funcs != a.opts.Funcs || prev.Path != a.opts.Path || len(prev.Children) > 0 {
		return
	}
	if !sameNames(prev.Symbols, a.res.Symbols) {
		return
	}
	old, cur := prev.File.Content, a.res.File.Content
	oldMap, curMap := prev.File.Mapper, a.res.File.Mapper
	// dirty units (by their previous symbol) are checked again; their
	// dependents are too, except those of a resource whose edit stayed
	// inside a spec its registry type fixes (what a dependent reads of
	// it, its type, each and metadata, did not change). sameNames lines
	// the two versions' symbols up one to one.
	dirty, spread := map[*Symbol]bool{}, map[*Symbol]bool{}
	var queue []*Symbol
	mark := func(p *Symbol, spreads bool) {
		dirty[p] = true
		if spreads && !spread[p] {
			spread[p] = true
			queue = append(queue, p)
		}
	}
	now := make(map[*Symbol]*Symbol, len(a.res.Symbols)) // previous -> this version's
	for i, s := range a.res.Symbols {
		p := prev.Symbols[i]
		if s.Kind == DataSourceFieldSymbol {
			continue
		}
		now[p] = s
		if s.Kind == ChildSymbol || !bytes.Equal(old[p.Range.Start:p.Range.End], cur[s.Range.Start:s.Range.End]) {
			mark(p, !a.specOnlyEdit(p, s, old, cur))
		}
	}
	// A unit whose diagnostics name a position moves them with it only
	// when it keeps its lines; one with a related place or an edit
	// outside itself cannot be moved by its own delta.
	prevUnits := unitRanges(prev.Symbols)
	for _, d := range prev.own {
		p := unitOf(prevUnits, d.Range)
		if p == nil || documentWide[d.Code] || dirty[p] {
			continue
		}
		if !movable(d, p.Range) {
			mark(p, true)
		} else if positionInMessage.MatchString(d.Message) && oldMap.Line(p.Range.Start) != curMap.Line(now[p].Range.Start) {
			mark(p, true)
		}
	}
	// A unit that references a child is checked again (children are
	// never carried over).
	for _, r := range prev.References {
		if r.Site != nil && r.Site.Owner != nil && r.Expr.Namespace == subst.Children {
			mark(r.Site.Owner, true)
		}
	}
	// Dependents of a changed unit may change: follow the previous
	// version's references and edges backwards (when a change spreads:
	// an edit inside a spec its type fixes does not).
	if len(queue) > 0 {
		users := make(map[*Symbol][]*Symbol, len(prev.Symbols))
		for _, r := range prev.References {
			if r.Site == nil || r.Site.Owner == nil {
				continue
			}
			for _, t := range []*Symbol{r.Target, r.Field} {
				if t != nil {
					if t.Parent != nil {
						t = t.Parent
					}
					users[t] = append(users[t], r.Site.Owner)
				}
			}
		}
		for _, e := range prev.Edges {
			if e.From != nil && e.To != nil {
				users[e.To] = append(users[e.To], e.From)
			}
		}
		for len(queue) > 0 {
			p := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, u := range users[p] {
				mark(u, true)
			}
		}
	}
	units := make(map[*Symbol]carried, len(now))
	for p, s := range now {
		if !dirty[p] {
			units[s] = carried{prev: p, delta: s.Range.Start - p.Range.Start}
		}
	}
	if len(units) == 0 {
		return
	}
	rs := &reuseState{prev: prev, units: units, added: make(map[*Symbol]int, len(units))}
	rs.refs = bySite(prev.Sites, prev.References, func(r *Reference) *Site { return r.Site })
	rs.calls = bySite(prev.Sites, prev.Calls, func(c *Call) *Site { return c.Site })
	rs.links = bySite(prev.Sites, prev.NameRefs, func(n *NameRef) *Site {
		if n.Kind != NameRefLink {
			return nil
		}
		return n.Site
	})
	rs.linkEdge = bySite(prev.Sites, prev.Edges, func(e *Edge) *Site {
		if e.Kind != EdgeLink || e.From == nil {
			return nil
		}
		for _, site := range prev.byOwner[e.From] {
			if site.Scalar.Rng.ContainsRange(e.Range) {
				return site
			}
		}
		return nil
	})
	for s, c := range units {
		for _, name := range prev.suggestedBy[UnitID{Kind: c.prev.Kind, Name: c.prev.Name}] {
			if t := a.lookup(name.Kind, name.Name); t != nil {
				a.suggested[t] = true
			}
			a.suggestedBy[UnitID{Kind: s.Kind, Name: s.Name}] = append(a.suggestedBy[UnitID{Kind: s.Kind, Name: s.Name}], name)
		}
	}
	a.reuse = rs
}

// specOnlyEdit reports whether resource s differs from its previous
// version p only inside its spec, and its type is one the registry knows:
// its spec type is then the registry's whatever the spec says.
func (a *analyzer) specOnlyEdit(p, s *Symbol, old, cur []byte) bool {
	if s.Kind != ResourceSymbol || p.Resource == nil || s.Resource == nil {
		return false
	}
	if rt := a.resourceTypes[s]; rt == nil || rt.Err != nil {
		return false
	}
	ps, ss := p.Resource.Spec.Node(), s.Resource.Spec.Node()
	if ps == nil || ss == nil {
		return false
	}
	pr, sr := ps.Range(), ss.Range()
	return bytes.Equal(old[p.Range.Start:pr.Start], cur[s.Range.Start:sr.Start]) &&
		bytes.Equal(old[pr.End:p.Range.End], cur[sr.End:s.Range.End])
}

// sameNames reports whether two versions declare the same names in the
// same order.
func sameNames(a, b []*Symbol) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Name != b[i].Name || (a[i].Parent == nil) != (b[i].Parent == nil) {
			return false
		}
	}
	return true
}

// unitRanges returns the units' symbols sorted by start.
func unitRanges(syms []*Symbol) []*Symbol {
	var out []*Symbol
	for _, s := range syms {
		if s.Kind != DataSourceFieldSymbol {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Range.Start < out[j].Range.Start })
	return out
}

// unitOf returns the unit of sorted whose range holds r, or nil.
func unitOf(sorted []*Symbol, r source.Range) *Symbol {
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i].Range.Start > r.Start }) - 1
	if i >= 0 && sorted[i].Range.ContainsRange(r) {
		return sorted[i]
	}
	return nil
}

// movable reports whether every place d names is inside unit.
func movable(d source.Diagnostic, unit source.Range) bool {
	for _, r := range d.Related {
		if r.URI != "" || !unit.ContainsRange(r.Range) {
			return false
		}
	}
	for _, s := range d.Suggestions {
		for _, e := range s.Edits {
			if !unit.ContainsRange(e.Range) {
				return false
			}
		}
	}
	return true
}

// carriedOver returns the previous version's definition s is carried
// over from, if it is.
func (a *analyzer) carriedOver(s *Symbol) (carried, bool) {
	if a.reuse == nil || s == nil {
		return carried{}, false
	}
	c, ok := a.reuse.units[s]
	return c, ok
}

// sharedSites adds the sites of owner, a value, data source or resource
// whose entry is entry, without walking its tree, when it is carried
// over. When entry is the previous version's node itself (the splice
// shares every node before the edit, and nodes never change) the walk
// would find the previous version's scalars; otherwise entry holds the
// same text (a copy moved by the edit), which parses to the same tree
// moved by the unit's delta, and each of the previous version's sites is
// found at its moved range. Either way the sites come in the walk's
// order. False means walk: a scalar was not where it should be.
func (a *analyzer) sharedSites(owner *Symbol, entry *schema.Entry) bool {
	c, ok := a.carriedOver(owner)
	if !ok || entry == nil {
		return false
	}
	prev := a.reuse.sitesOf(c)
	if c.delta == 0 && defEntry(c.prev) == entry {
		for _, ps := range prev {
			if ps.Template == nil || len(ps.Template.Diagnostics) > 0 {
				a.scalarSite(ps.Scalar, ps.Kind, owner) // parsed again (carriedTemplate)
				continue
			}
			// What scalarSite would do, without looking the unit up
			// again: the same node shares its template.
			site := a.siteBlock.one()
			*site = Site{Kind: ps.Kind, Scalar: ps.Scalar, Template: ps.Template, Owner: owner}
			a.addSite(site)
		}
		return true
	}
	if entry.Value == nil || defEntry(c.prev) == nil {
		return false
	}
	found := a.reuse.found[:0]
	for _, ps := range prev {
		sc := scalarAt(entry.Value, ps.Scalar.Rng.Moved(c.delta))
		if sc == nil || !sc.IsString() || sc.Value != ps.Scalar.Value {
			return false
		}
		found = append(found, sc)
	}
	a.reuse.found = found
	for i, ps := range prev {
		a.scalarSite(found[i], ps.Kind, owner)
	}
	return true
}

// scalarAt returns the scalar under n, a value (never a key), whose
// range is r, or nil.
func scalarAt(n schema.Node, r source.Range) *schema.Scalar {
	for n != nil {
		var next schema.Node
		switch x := n.(type) {
		case *schema.Scalar:
			if x.Rng == r {
				return x
			}
			return nil
		case *schema.Mapping:
			for _, e := range x.Entries {
				if e.Value != nil && e.Value.Range().ContainsRange(r) {
					next = e.Value
					break
				}
			}
		case *schema.Sequence:
			for _, it := range x.Items {
				if it.Range().ContainsRange(r) {
					next = it
					break
				}
			}
		}
		n = next
	}
	return nil
}

// defEntry returns the entry that declares s (nil for a kind sharedSites
// does not take).
func defEntry(s *Symbol) *schema.Entry {
	switch {
	case s.Kind == ValueSymbol && s.Value != nil:
		return s.Value.Entry
	case s.Kind == DataSourceSymbol && s.DataSource != nil:
		return s.DataSource.Entry
	case s.Kind == ResourceSymbol && s.Resource != nil:
		return s.Resource.Entry
	}
	return nil
}

// carriedTemplate returns the template of sc, the next site of owner,
// moved from the previous version when owner is carried over: the same
// text parses to the same template (one with syntax errors is parsed
// again, since its messages may name positions). nil means parse it.
func (a *analyzer) carriedTemplate(owner *Symbol, sc *schema.Scalar) *subst.Template {
	c, ok := a.carriedOver(owner)
	if !ok {
		return nil
	}
	sites := a.reuse.sitesOf(c)
	k := a.reuse.added[owner]
	if k >= len(sites) || sites[k].Template == nil || sites[k].Scalar.Value != sc.Value || len(sites[k].Template.Diagnostics) > 0 {
		return nil // a template's own messages may name positions: parse it
	}
	if c.delta == 0 && sites[k].Scalar == sc {
		return sites[k].Template // the same node (before the edit): share it
	}
	return a.reuse.moved.Move(sites[k].Template, c.delta, &sc.Map)
}

// replaySite gives s, a site of a carried-over unit, the previous
// version's type, expression types, references, calls and link names,
// moved by the unit's delta and pointing at this version's expressions
// and definitions.
func (a *analyzer) replaySite(s *Site, c carried) {
	sites := a.reuse.sitesOf(c)
	if s.Ordinal >= len(sites) {
		panic("carried-over unit lost a site") // caught by Analyze
	}
	ps := sites[s.Ordinal]
	s.Type, s.ExprTypes = ps.Type, ps.ExprTypes
	refs, calls := a.reuse.refs.of(ps.index), a.reuse.calls.of(ps.index)
	var olds, news []subst.Expr
	if len(refs)+len(calls) > 0 && ps.Template != nil && s.Template != nil && ps.Template != s.Template {
		// The same text parses to the same expressions in the same order:
		// an expression's ordinal names it in both versions.
		olds = make([]subst.Expr, 0, len(ps.ExprTypes))
		news = make([]subst.Expr, 0, len(ps.ExprTypes))
		subst.WalkTemplate(ps.Template, func(e subst.Expr) bool { olds = append(olds, e); return true })
		subst.WalkTemplate(s.Template, func(e subst.Expr) bool { news = append(news, e); return true })
	}
	exprs := func(e subst.Expr) subst.Expr {
		if ps.Template == s.Template {
			return e // a shared template: the same expressions
		}
		for i, o := range olds {
			if o == e && i < len(news) {
				return news[i]
			}
		}
		return nil
	}
	d := c.delta
	for _, r := range refs {
		ref := a.refBlock.one()
		*ref = Reference{Site: s, FieldName: r.FieldName, Type: r.Type}
		ref.Expr, _ = exprs(r.Expr).(*subst.Ref)
		ref.Target = a.same(r.Target)
		ref.Field = a.same(r.Field)
		if r.FieldRange != (source.Range{}) {
			ref.FieldRange = r.FieldRange.Moved(d)
		}
		a.res.References = append(a.res.References, ref)
		if ref.Target != nil && s.Owner != nil {
			edge := a.edgeBlock.one()
			*edge = Edge{From: s.Owner, To: ref.Target, Ref: ref, Range: ref.Expr.Rng, Kind: EdgeReference}
			a.res.Edges = append(a.res.Edges, edge)
		}
	}
	for _, pc := range calls {
		call := &Call{Site: s, Func: pc.Func, Type: pc.Type}
		if pc.Expr != nil {
			call.Expr, _ = exprs(pc.Expr).(*subst.Call)
		}
		if pc.Ref != nil {
			call.Ref, _ = exprs(pc.Ref).(*subst.Ref)
		}
		a.res.Calls = append(a.res.Calls, call)
	}
	for _, n := range a.reuse.links.of(ps.index) {
		a.res.NameRefs = append(a.res.NameRefs, &NameRef{Range: n.Range.Moved(d), Target: a.same(n.Target), Kind: n.Kind, Site: s})
	}
	for _, e := range a.reuse.linkEdge.of(ps.index) {
		a.res.Edges = append(a.res.Edges, &Edge{From: s.Owner, To: a.same(e.To), Range: e.Range.Moved(d), Kind: EdgeLink})
	}
}

// refineCarriedValues infers the type of every value something
// references, as checking the references would have: a value referenced
// only from carried-over sites is otherwise never asked.
func (a *analyzer) refineCarriedValues() {
	if a.reuse == nil {
		return
	}
	for _, r := range a.res.References {
		if t := r.Target; t != nil && t.Kind == ValueSymbol {
			a.valueType(t)
		}
	}
}

// same returns this version's symbol for one of the previous version's.
func (a *analyzer) same(p *Symbol) *Symbol {
	if p == nil {
		return nil
	}
	if p.Parent != nil {
		parent := a.lookup(p.Parent.Kind, p.Parent.Name)
		if parent == nil {
			return nil
		}
		return a.dsFields[parent][p.Name]
	}
	return a.lookup(p.Kind, p.Name)
}

// mergeCarried replaces the diagnostics of carried-over units with the
// previous version's, moved; document-wide ones are this version's.
func (a *analyzer) mergeCarried() {
	if a.reuse == nil {
		return
	}
	var cur []*Symbol
	for s := range a.reuse.units {
		cur = append(cur, s)
	}
	sort.Slice(cur, func(i, j int) bool { return cur[i].Range.Start < cur[j].Range.Start })
	kept := a.diags[:0]
	for _, d := range a.diags {
		if documentWide[d.Code] || unitOf(cur, d.Range) == nil {
			kept = append(kept, d)
		}
	}
	a.diags = kept
	prevUnits := unitRanges(a.reuse.prev.Symbols)
	for _, d := range a.reuse.prev.own {
		if documentWide[d.Code] {
			continue
		}
		p := unitOf(prevUnits, d.Range)
		if p == nil {
			continue
		}
		s := a.lookup(p.Kind, p.Name)
		c, ok := a.carriedOver(s)
		if !ok {
			continue
		}
		a.diags = append(a.diags, d.Moved(c.delta))
	}
}
